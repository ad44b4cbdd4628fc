import { readFileSync } from 'node:fs';
import type { FormatPluginDefinition, Playlist } from '@opl/plugin-sdk';
import { runSerialize, runSerializePlaylist } from '@opl/plugin-sdk/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import csv from '../../../plugins/formats/csv/src/index.ts';
import json from '../../../plugins/formats/json/src/index.ts';
import m3u8 from '../../../plugins/formats/m3u8/src/index.ts';
import { playlistsArbitrary } from '../../../plugins/formats/json/src/model-arbitraries.ts';
import txt from '../../../plugins/formats/txt/src/index.ts';
import xspf from '../../../plugins/formats/xspf/src/index.ts';
import { corpus, SERIALIZE_OPTIONS, sha256, WRITER_FORMATS, type WriterFormat } from './support/serialize-corpus.ts';

const WRITERS: Record<WriterFormat, FormatPluginDefinition> = { csv, txt, m3u8, xspf, json };

/**
 * The digests of every corpus playlist as each writer serialized it whole before the writers
 * learned to write in slices (committed with the corpus, never regenerated): whatever the slices,
 * the bytes must stay those.
 */
const PINNED = JSON.parse(readFileSync(new URL('../../fixtures/formats/serialize-digests.json', import.meta.url), 'utf8')) as Record<WriterFormat, Record<string, string>>;

/** The warnings the engine knows only at the end: given to `end` in a sliced run, in the options of a whole one. */
function split(options: Record<string, unknown>): { early: Record<string, unknown>; late: Record<string, unknown> } {
  const { warnings, ...early } = options;
  return { early, late: warnings === undefined ? {} : { warnings } };
}

async function digestOf(run: () => Promise<{ text: string }>): Promise<string> {
  try {
    return sha256((await run()).text);
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

const SLICINGS: readonly (readonly number[])[] = [[1], [2], [3], [7], [1, 5, 2], [10_000]];

describe('the five writers fed in slices (serializePlaylist) write the bytes they wrote whole', () => {
  for (const format of WRITER_FORMATS) {
    it(`${format}: every corpus playlist (0 to 40 tracks), whole and in slices of 1, 2, 3, 7, mixed and all at once, matches the pinned digest`, async () => {
      const plugin = WRITERS[format];
      for (const [optionIndex, options] of SERIALIZE_OPTIONS.entries()) {
        const { early, late } = split(options);
        for (const { key, playlist } of corpus()) {
          const pinned = PINNED[format][`${key}/options-${optionIndex}`];
          expect(pinned, `${format} ${key}`).toMatch(/^[0-9a-f]{64}$/);
          expect(await digestOf(() => runSerialize(plugin, [playlist], options as Record<string, unknown>)), `${format} ${key} whole`).toBe(pinned);
          for (const sizes of SLICINGS) {
            expect(await digestOf(() => runSerializePlaylist(plugin, playlist, sizes, early, { late })), `${format} ${key} in slices of ${sizes.join(',')}`).toBe(pinned);
          }
        }
      }
    });
  }

  it('holds for any playlist and any slicing: the same text as one serialize call, chunks within 64 KiB', async () => {
    const slicing = fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(
        playlistsArbitrary.filter((list) => list.length > 0),
        slicing,
        fc.constantFrom(...WRITER_FORMATS),
        fc.option(fc.constantFrom('spotify', 'tidal'), { nil: null }),
        async (playlists: Playlist[], sizes, format, provider) => {
          const playlist = playlists[0]!;
          const options: Record<string, unknown> = provider === null ? {} : { source_provider: provider };
          const whole = await runSerialize(WRITERS[format], [playlist], { ...options, warnings: [{ code: 'empty_playlist', playlist_id: 'x', count: 0, message: 'm' }] });
          const sliced = await runSerializePlaylist(WRITERS[format], playlist, sizes, options, { late: { warnings: [{ code: 'empty_playlist', playlist_id: 'x', count: 0, message: 'm' }] } });
          expect(sliced.text).toBe(whole.text);
        },
      ),
      { numRuns: 300 },
    );
  });
});
