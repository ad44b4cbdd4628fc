import { runParse } from '@opl/plugin-sdk/testing';
import { describe, expect, it } from 'vitest';
import plugin from './index.ts';

describe('a link cell naming a file', () => {
  it('is a local file, as in M3U: file: URLs, drive and absolute paths; web links and provider URIs are not', async () => {
    const csv = [
      'title,artist,uri',
      'A,X,file:///home/u/Music/a%20b.mp3',
      'B,X,C:\\Music\\b.flac',
      'C,X,https://example.org/c.mp3',
      'D,X,spotify:track:4uLU6hMCjMI75M1A2tKUQC',
      'E,X,',
    ].join('\n');
    const parsed = await runParse(plugin, csv, { filename: 'list.csv' });
    const tracks = parsed.playlists[0]!.tracks;
    expect(tracks.map((track) => [track.title, track.is_local, track.is_migratable])).toEqual([
      ['A', true, false],
      ['B', true, false],
      ['C', false, true],
      ['D', false, true],
      ['E', false, true],
    ]);
    expect(tracks[0]).toMatchObject({ media_type: 'local_file', metadata: { source_uri: 'file:///home/u/Music/a%20b.mp3', local_path: '/home/u/Music/a b.mp3' } });
    expect(tracks[1]?.metadata).toMatchObject({ local_path: 'C:\\Music\\b.flac' });
  });
});
