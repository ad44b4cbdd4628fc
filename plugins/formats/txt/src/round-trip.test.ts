import { playlistSchema, type PlaylistInput } from '@opl/plugin-sdk/schemas';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sanitizeCell } from './cell-sanitizer.ts';
import { unwrapCell, wrapCell } from './tab-cells.ts';
import { parseTxt } from './txt-parser.ts';
import { serializeOptions, serializeTxt } from './txt-serializer.ts';

/** Strings built from the characters that matter to TXT cells: quotes, commas, tabs, formula starters, apostrophes. */
const trickyText = fc.string({
  unit: fc.constantFrom('"', ',', '\t', '=', '+', '-', '@', "'", ' ', 'a', 'Z', '1', ';', '\n', 'é', '😀'),
  minLength: 1,
  maxLength: 24,
});

function roundTrip(input: PlaylistInput) {
  const text = [...serializeTxt([playlistSchema.parse(input)], serializeOptions({}))].join('');
  return parseTxt(text, 'x.txt');
}

describe('TXT v1 round trip', () => {
  it('reads back exactly the values written: quotes, commas and formula starters included', () => {
    const { playlists, issues } = roundTrip({
      name: '"Summer, baby"',
      description: '"Love, Actually"',
      tracks: [
        { title: '"Hello, Goodbye"', artist: '"=1, 2"', album: '"Heroes"' },
        { title: 'He said ""hi""', artist: '"Weird Al" Yankovic', album: '"a,b' },
        { title: '"=SUM(A1)"', artist: "'\"x, y\"", album: '"' },
      ],
    });
    expect(issues).toEqual([]);
    expect(playlists[0]).toMatchObject({ name: '"Summer, baby"', description: '"Love, Actually"' });
    expect(playlists[0]!.tracks!.map((track) => [track.title, track.artist, track.album])).toEqual([
      ['"Hello, Goodbye"', '"=1, 2"', '"Heroes"'],
      ['He said ""hi""', '"Weird Al" Yankovic', '"a,b'],
      ['"=SUM(A1)"', "'\"x, y\"", '"'],
    ]);
  });

  it('writes a cell starting with a quote as Excel does, and reads it back', () => {
    expect(wrapCell('"Summer, baby"')).toBe('"""Summer, baby"""');
    expect(wrapCell('Summer, "baby"')).toBe('Summer, "baby"');
    fc.assert(fc.property(trickyText, (value) => unwrapCell(wrapCell(value)) === value));
  });

  it('round-trips arbitrary names, titles, artists and albums (tabs and line breaks become spaces)', () => {
    fc.assert(
      fc.property(trickyText, trickyText, trickyText, trickyText, (name, title, artist, album) => {
        const { playlists, issues } = roundTrip({ name, tracks: [{ title, artist, album }] });
        expect(issues).toEqual([]);
        expect(playlists).toHaveLength(1);
        expect(playlists[0]!.name).toBe(sanitizeCell(name));
        expect(playlists[0]!.tracks).toMatchObject([{ title: sanitizeCell(title), artist: sanitizeCell(artist), album: sanitizeCell(album) }]);
      }),
      { numRuns: 300 },
    );
  });
});
