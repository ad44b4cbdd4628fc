import { FORMAT_OPERATIONS } from '@opl/plugin-sdk/schemas';
import { runParse } from '@opl/plugin-sdk/testing';
import { describe, expect, it } from 'vitest';
import plugin from './index.ts';

/**
 * iTunes / the Music app's "File › Library › Export Playlist…" text file: UTF-16 LE with a byte
 * order mark, tab-separated, CR line ends (on a Mac), a header naming the app's columns. Newer
 * versions write every column below; older ones fewer (no Work/Movement columns, no Disc Count).
 */
const HEADER = [
  'Name', 'Artist', 'Composer', 'Album', 'Grouping', 'Work', 'Movement Number', 'Movement Count', 'Movement Name', 'Genre', 'Size', 'Time',
  'Disc Number', 'Disc Count', 'Track Number', 'Track Count', 'Year', 'Date Modified', 'Date Added', 'Bit Rate', 'Sample Rate', 'Volume Adjustment',
  'Kind', 'Equaliser', 'Comments', 'Plays', 'Last Played', 'Skips', 'Last Skipped', 'My Rating', 'Location',
];

function row(values: Partial<Record<string, string>>): string {
  return HEADER.map((column) => values[column] ?? '').join('\t');
}

function utf16le(text: string): Uint8Array {
  const bytes = new Uint8Array(2 + text.length * 2);
  bytes.set([0xff, 0xfe]);
  for (let index = 0; index < text.length; index += 1) {
    bytes[2 + index * 2] = text.charCodeAt(index) & 0xff;
    bytes[3 + index * 2] = text.charCodeAt(index) >> 8;
  }
  return bytes;
}

const song = { Artist: 'Radiohead', Album: 'OK Computer', Size: '9170432', 'Bit Rate': '192', 'Sample Rate': '44100', 'Date Added': '01/03/2019, 10:00', Plays: '5' };

describe('iTunes "Export Playlist…" text files', () => {
  it('reads genre, composer, time, disc and track numbers and year of each song', async () => {
    const text = [
      HEADER.join('\t'),
      row({ ...song, Name: 'Paranoid Android', Composer: 'Thom Yorke', Genre: 'Alternative', Time: '383', 'Disc Number': '1', 'Disc Count': '1', 'Track Number': '2', 'Track Count': '12', Year: '1997', Kind: 'MPEG audio file', Location: 'Macintosh HD:Users:lea:Music:02 Paranoid Android.mp3' }),
      row({ ...song, Name: 'Karma Police', Genre: 'Alternative', Time: '264', 'Track Number': '6', Kind: 'Apple Music AAC audio file' }),
      '',
    ].join('\r');
    const result = FORMAT_OPERATIONS.parse.output.parse(await runParse(plugin, utf16le(text), { filename: 'OK Computer.txt', mediaType: 'text/plain' }));
    expect(result.issues).toEqual([]);
    expect(result.playlists).toHaveLength(1);
    expect(result.playlists[0]!.name).toBe('OK Computer');
    expect(result.playlists[0]!.tracks.map((track) => [track.title, track.artist, track.album, track.composer, track.genre, track.duration_s, track.disc_number, track.track_number, track.release_year, track.is_migratable])).toEqual([
      ['Paranoid Android', 'Radiohead', 'OK Computer', 'Thom Yorke', 'Alternative', 383, 1, 2, 1997, true],
      ['Karma Police', 'Radiohead', 'OK Computer', null, 'Alternative', 264, null, 6, null, true],
    ]);
  });

  it('keeps podcast episodes, audiobooks, videos, streams and booklets, not migrated, with the reason', async () => {
    const kinds = ['MPEG audio file', 'Podcast', 'Audible file', 'Protected AAC audio book file', 'Purchased MPEG-4 video file', 'QuickTime movie file', 'Internet audio stream', 'PDF document'];
    const text = [HEADER.join('\t'), ...kinds.map((kind, index) => row({ ...song, Name: `Item ${index}`, Kind: kind }))].join('\r\n');
    const result = FORMAT_OPERATIONS.parse.output.parse(await runParse(plugin, utf16le(text), { filename: 'Mixed.txt', mediaType: 'text/plain' }));
    expect(result.issues).toEqual([]);
    expect(result.playlists[0]!.tracks.map((track) => [track.media_type, track.is_migratable, track.unsupported_reason?.split(':')[0] ?? null])).toEqual([
      ['track', true, null],
      ['episode', false, 'podcast episode'],
      ['unknown', false, 'audiobook'],
      ['unknown', false, 'audiobook'],
      ['video', false, 'video'],
      ['video', false, 'video'],
      ['unknown', false, 'internet stream'],
      ['unknown', false, 'document'],
    ]);
  });

  it('reads an older version header with fewer columns, and warns about numbers it cannot hold', async () => {
    const header = ['Name', 'Artist', 'Composer', 'Album', 'Grouping', 'Genre', 'Size', 'Time', 'Disc Number', 'Disc Count', 'Track Number', 'Track Count', 'Year', 'Date Modified', 'Date Added', 'Bit Rate', 'Sample Rate', 'Volume Adjustment', 'Kind', 'Equalizer', 'Comments', 'Plays', 'Last Played', 'Skips', 'Last Skipped', 'My Rating', 'Location'];
    const cells = (values: Record<string, string>) => header.map((column) => values[column] ?? '').join('\t');
    const text = [
      header.join('\t'),
      cells({ Name: 'Teardrop', Artist: 'Massive Attack', Time: '330', 'Track Number': '3/11', Year: '1998', Kind: 'AAC audio file' }),
      cells({ Name: 'Angel', Artist: 'Massive Attack', Time: '379', 'Track Number': 'one', Year: '98', 'Disc Number': '0' }),
    ].join('\r');
    const result = FORMAT_OPERATIONS.parse.output.parse(await runParse(plugin, utf16le(text), { filename: 'Mezzanine.txt', mediaType: 'text/plain' }));
    expect(result.playlists[0]!.tracks.map((track) => [track.title, track.duration_s, track.track_number, track.release_year, track.disc_number])).toEqual([
      ['Teardrop', 330, 3, 1998, null],
      ['Angel', 379, null, null, null],
    ]);
    expect(result.issues).toMatchObject([
      { line: 3, code: 'invalid_value', severity: 'warning', column: 13 },
      { line: 3, code: 'invalid_value', severity: 'warning', column: 11 },
    ]);
  });
});
