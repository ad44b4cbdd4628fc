import { runParse, runSerialize, v1Carried } from '@opl/plugin-sdk/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
// The JSON plugin's arbitraries for the whole model (every field; its test fails when the model gains one).
import { playlistsArbitrary } from '../../json/src/model-arbitraries.ts';
import plugin from './index.ts';

/** Text as it comes back from a UTF-8 file: a lone surrogate cannot be encoded and reads as U+FFFD. */
const utf8 = (value: string): string => value.toWellFormed();

describe('CSV v1: parse(serialize(x)) keeps everything the v1 columns carry', () => {
  it('holds for several playlists, empty ones, any text (quotes, delimiters, line breaks, controls), any safe integer', async () => {
    await fc.assert(
      // An export of no playlist at all reads back as none, with a `no_rows` warning (plugin.test.ts).
      fc.asyncProperty(playlistsArbitrary.filter((list) => list.length > 0), fc.option(fc.constantFrom('spotify', 'tidal'), { nil: null }), async (playlists, provider) => {
        const { text } = await runSerialize(plugin, playlists, provider === null ? {} : { source_provider: provider });
        const parsed = await runParse(plugin, text, { filename: 'export.csv' });
        expect(parsed.issues).toEqual([]);
        expect(parsed.playlists).toEqual(playlists.map((playlist) => v1Carried(playlist, provider, utf8)));
      }),
      { numRuns: 200 },
    );
  });
});
