import { playlistSchema, type PlaylistInput } from '@opl/plugin-sdk/schemas';
import { runParse, runSerialize, v1Carried } from '@opl/plugin-sdk/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
// The JSON plugin's arbitraries for the whole model (every field; its test fails when the model gains one).
import { playlistsArbitrary } from '../../json/src/model-arbitraries.ts';
import { sanitizeCell } from './cell-sanitizer.ts';
import plugin from './index.ts';
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

/** Text as TXT v1 carries it: line breaks and tabs become spaces (cell-sanitizer.ts), a lone surrogate (no UTF-8) U+FFFD. */
const txtText = (value: string): string => sanitizeCell(value).toWellFormed();
describe('TXT v1 round trip of the whole model (property)', () => {
  it('keeps every v1 column: several playlists, empty ones, any text and control characters, any safe integer', async () => {
    await fc.assert(
      // An export of no playlist at all reads back as none, with a `no_rows` warning.
      fc.asyncProperty(playlistsArbitrary.filter((list) => list.length > 0), fc.option(fc.constantFrom('spotify', 'tidal'), { nil: null }), async (playlists, provider) => {
        const { text } = await runSerialize(plugin, playlists, provider === null ? {} : { source_provider: provider });
        const parsed = await runParse(plugin, text, { filename: 'export.txt' });
        expect(parsed.issues).toEqual([]);
        expect(parsed.playlists).toEqual(playlists.map((playlist) => v1Carried(playlist, provider, txtText)));
      }),
      { numRuns: 200 },
    );
  });
});
