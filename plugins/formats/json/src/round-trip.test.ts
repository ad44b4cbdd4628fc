import fc from 'fast-check';
import { openPlaylistBundleSchema, playlistSchema, trackSchema } from '@opl/plugin-sdk/schemas';
import { runParse, runSerialize } from '@opl/plugin-sdk/testing';
import { describe, expect, it } from 'vitest';
import { PLAYLIST_FIELD_ARBITRARIES, playlistsArbitrary, TRACK_FIELD_ARBITRARIES } from './model-arbitraries.ts';
import plugin from './index.ts';

describe('parse(serialize(x)) = x', () => {
  it('the arbitraries cover every field of the zod model, so a new field is round-tripped too', () => {
    expect(Object.keys(TRACK_FIELD_ARBITRARIES)).toEqual(Object.keys(trackSchema.shape));
    expect(Object.keys(PLAYLIST_FIELD_ARBITRARIES)).toEqual(Object.keys(playlistSchema.shape));
  });

  it('holds for any playlists: several, empty, rich metadata, any Unicode; pretty and compact', async () => {
    await fc.assert(
      fc.asyncProperty(playlistsArbitrary, fc.boolean(), fc.option(fc.constantFrom('spotify', 'tidal'), { nil: undefined }), async (playlists, compact, provider) => {
        const { text } = await runSerialize(plugin, playlists, { compact, source_provider: provider });
        expect(openPlaylistBundleSchema.safeParse(JSON.parse(text)).success).toBe(true);
        const parsed = await runParse(plugin, text);
        expect(parsed.issues).toEqual([]);
        expect(parsed.playlists).toEqual(playlists);
        // And writing what was read gives the same file, byte for byte.
        expect((await runSerialize(plugin, parsed.playlists, { compact, source_provider: provider })).text).toBe(text);
      }),
      { numRuns: 150 },
    );
  });

  it('keeps duplicates and order', async () => {
    const track = { title: 'Same', artist: 'Twice', provider_uris: { spotify: 'spotify:track:1' } };
    const playlists = [{ name: 'Dupes', tracks: [track, { ...track, title: 'Between' }, track] }];
    const parsed = await runParse(plugin, (await runSerialize(plugin, playlists)).text);
    expect(parsed.playlists[0]?.tracks.map((entry) => entry.title)).toEqual(['Same', 'Between', 'Same']);
  });
});
