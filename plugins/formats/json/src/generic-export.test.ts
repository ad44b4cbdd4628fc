import { runParse } from '@opl/plugin-sdk/testing';
import { describe, expect, it } from 'vitest';
import plugin from './index.ts';

const plain = (tracks: unknown[]): string => JSON.stringify({ playlists: [{ name: 'Plain', tracks }] });

describe('reading a plain playlist export (no bundle version)', () => {
  it('keeps duration (seconds or m:ss) and a provider uri instead of dropping them as unknown fields', async () => {
    const parsed = await runParse(
      plugin,
      plain([
        { title: 'One', artist: 'A', album: 'X', duration: 239, isrc: 'USRC17607839', uri: 'spotify:track:4uLU6hMCjMI75M1A2tKUQC' },
        { title: 'Two', artist: 'B', duration: '3:45', uri: 'https://open.spotify.com/track/7ouMYWpwJ422jRcDASZB7P?si=x' },
      ]),
    );
    const [one, two] = parsed.playlists[0]!.tracks;
    expect(one).toMatchObject({ title: 'One', artist: 'A', album: 'X', duration_s: 239, isrc: 'USRC17607839', provider_uris: { spotify: 'spotify:track:4uLU6hMCjMI75M1A2tKUQC' }, is_local: false });
    expect(two).toMatchObject({ duration_s: 225, provider_uris: { spotify: 'spotify:track:7ouMYWpwJ422jRcDASZB7P' } });
    expect(parsed.issues.map((issue) => issue.code)).toEqual(['missing_schema_version']);
  });

  it('reads a file: URL or a path as a local file and a web address as its location', async () => {
    const parsed = await runParse(plugin, plain([{ title: 'Local', artist: 'A', uri: 'file:///home/u/Music/a%20b.mp3' }, { title: 'Path', artist: 'A', uri: 'C:\\Music\\c.mp3' }, { title: 'Web', artist: 'A', uri: 'https://example.org/stream' }]));
    const [local, path, web] = parsed.playlists[0]!.tracks;
    expect(local).toMatchObject({ is_local: true, media_type: 'local_file', is_migratable: false, metadata: { location: 'file:///home/u/Music/a%20b.mp3', local_path: '/home/u/Music/a b.mp3' } });
    expect(path).toMatchObject({ is_local: true, metadata: { local_path: 'C:\\Music\\c.mp3' } });
    expect(web).toMatchObject({ is_local: false, provider_uris: {}, metadata: { location: 'https://example.org/stream' } });
  });

  it('keeps a track without an artist, as CSV and M3U do', async () => {
    const parsed = await runParse(plugin, plain([{ title: 'Nobody' }]));
    expect(parsed.playlists[0]!.tracks).toEqual([expect.objectContaining({ title: 'Nobody', artist: '' })]);
  });

  it('reports a duration it cannot read and keeps the track', async () => {
    const parsed = await runParse(plugin, plain([{ title: 'Odd', artist: 'A', duration: 'long' }, { title: 'Negative', artist: 'A', duration: -3 }]));
    expect(parsed.playlists[0]!.tracks.map((track) => [track.title, track.duration_s])).toEqual([
      ['Odd', null],
      ['Negative', null],
    ]);
    expect(parsed.issues.filter((issue) => issue.code === 'invalid_value').map((issue) => issue.message)).toEqual([
      expect.stringMatching(/^\/playlists\/0\/tracks\/0: duration "long" is not a duration/),
      expect.stringMatching(/^\/playlists\/0\/tracks\/1: duration -3 is not a number of seconds/),
    ]);
  });

  it('leaves a versioned bundle strict: duration and uri stay unknown fields and the artist is required', async () => {
    const parsed = await runParse(plugin, JSON.stringify({ schema_version: 1, playlists: [{ name: 'B', tracks: [{ title: 'T', artist: 'A', duration: 3, uri: 'spotify:track:1' }, { title: 'No artist' }] }] }));
    expect(parsed.playlists[0]!.tracks).toEqual([expect.not.objectContaining({ duration_s: 3 })]);
    expect(parsed.issues.map((issue) => issue.code)).toEqual(['unknown_field', 'unknown_field', 'invalid_track']);
  });
});
