import fc from 'fast-check';
import { declaredBundleVersion, OPEN_PLAYLIST_SCHEMA_VERSION, playlistSchema, trackSchema } from '@opl/plugin-sdk/schemas';
import { runParse } from '@opl/plugin-sdk/testing';
import { describe, expect, it } from 'vitest';
import plugin from './index.ts';

/** Values of every JSON kind, including near misses of the model's formats. */
const anyValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom('2024-02-30T00:00:00Z', '2024-01-01T00:00Z', '2024-01-01 00:00:00Z', '2023-02-29', '202', -0.5, 1.5, 2 ** 53, -1, 1_000_001, '', 'x'.repeat(2_001), [''], [{}], { role: '', name: 'n' }),
);

describe('the plugin’s checks are never looser than the zod model', () => {
  it('a track with one field set to anything is kept exactly when zod accepts it, and the result always passes the host', async () => {
    const trackKeys = Object.keys(trackSchema.shape);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...trackKeys), anyValue, async (key, value) => {
        const track = { title: 'T', artist: 'A', [key]: value };
        // parseText validates the result with the host's schema: it throws if the plugin let anything invalid through.
        const parsed = await runParse(plugin, JSON.stringify([{ name: 'P', tracks: [track] }]));
        const accepted = trackSchema.safeParse(JSON.parse(JSON.stringify(track))).success;
        expect(parsed.playlists[0]?.tracks.length).toBe(accepted ? 1 : 0);
      }),
      { numRuns: 400 },
    );
  });

  it('the same for a playlist field', async () => {
    const playlistKeys = Object.keys(playlistSchema.shape).filter((key) => key !== 'tracks');
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...playlistKeys), anyValue, async (key, value) => {
        const playlist = { name: 'P', [key]: value };
        const parsed = await runParse(plugin, JSON.stringify([playlist]));
        const accepted = playlistSchema.safeParse(JSON.parse(JSON.stringify(playlist))).success;
        expect(parsed.playlists.length).toBe(accepted ? 1 : 0);
      }),
      { numRuns: 300 },
    );
  });

  it('a bundle’s version is refused exactly when the SDK’s declaredBundleVersion (the engine’s interchange import) refuses it', async () => {
    const version = fc.oneof(fc.constantFrom(1, 2, 0, '1', null, 1.5), fc.jsonValue({ maxDepth: 1 }));
    const schemaUri = fc.oneof(
      fc.constantFrom('https://open-playlist.org/schemas/export/open-playlist-bundle-v1.json', 'https://x.example/export/open-playlist-bundle-v2.json', 'https://x.example/other.json', 5),
      fc.string({ maxLength: 20 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.option(version, { nil: undefined }), fc.option(schemaUri, { nil: undefined }), async (schemaVersion, uri) => {
        const document: Record<string, unknown> = { playlists: [{ name: 'P', tracks: [] }] };
        if (schemaVersion !== undefined) document['schema_version'] = schemaVersion;
        if (uri !== undefined) document['$schema'] = uri;
        const parsed = await runParse(plugin, JSON.stringify(document));
        const declared = declaredBundleVersion(JSON.parse(JSON.stringify(document)) as Record<string, unknown>);
        const codes = parsed.issues.map((issue) => issue.code);
        expect(codes.includes('unsupported_schema_version')).toBe(declared !== undefined && declared !== OPEN_PLAYLIST_SCHEMA_VERSION);
        expect(codes.includes('missing_schema_version')).toBe(declared === undefined);
      }),
      { numRuns: 200 },
    );
  });
});
