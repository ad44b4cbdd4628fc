import fc from 'fast-check';
import {
  BUNDLE_SCHEMA_PATH as SDK_BUNDLE_SCHEMA_PATH,
  DEFAULT_SCHEMA_BASE as SDK_DEFAULT_SCHEMA_BASE,
  exportManifestSchema,
  OPEN_PLAYLIST_SCHEMA_VERSION,
  openPlaylistBundleSchema,
  playlistSchema,
  trackSchema,
} from '@opl/plugin-sdk/schemas';
import { runSerialize } from '@opl/plugin-sdk/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BUNDLE_SCHEMA_PATH, BUNDLE_SCHEMA_VERSION, DEFAULT_SCHEMA_BASE } from './bundle-constants.ts';
import { playlistsArbitrary } from './model-arbitraries.ts';
import { PLAYLIST_FIELDS, TRACK_FIELDS } from './model-fields.ts';
import { schemaErrors } from './schema-check.ts';
import plugin from './index.ts';

/**
 * The published JSON Schemas' bodies, generated the way `npm run schemas` generates
 * plugin-sdk/schema/export/*.json (plugins may not read files; the SDK's drift test holds the
 * checked-in files to this same generation).
 */
const published = (schema: z.ZodType): Record<string, unknown> => z.toJSONSchema(schema, { io: 'output', target: 'draft-2020-12', unrepresentable: 'throw' });
const bundleJsonSchema = published(openPlaylistBundleSchema);
const manifestJsonSchema = published(exportManifestSchema);

const manifest = {
  $schema: 'https://engine.example/schemas/export/open-playlist-export-manifest-v1.json',
  schema_version: 1,
  format: 'csv',
  source_provider: 'spotify',
  playlist_count: 4,
  entries: [
    { playlist_id: 'p1', playlist_name: 'Road trip', filename: 'Road trip.csv', status: 'warning', track_count: 12, warning_codes: ['partial_selection'] },
    { playlist_id: 'p2', playlist_name: '', filename: 'p2.csv', status: 'warning', track_count: 0, warning_codes: ['empty_playlist'] },
    { playlist_id: 'p3', playlist_name: 'Private', filename: '', status: 'error', track_count: 0, warning_codes: ['playlist_read_failed'] },
    { playlist_id: 'p4', playlist_name: 'Quiet', filename: 'Quiet.csv', status: 'ok', track_count: 3, warning_codes: [] },
  ],
  warnings: [
    { code: 'partial_selection', message: 'only selected tracks were exported', playlist_id: 'p1', count: 12 },
    { code: 'empty_playlist', message: 'the playlist has zero tracks', playlist_id: 'p2' },
    { code: 'playlist_read_failed', message: 'the playlist was unavailable', playlist_id: 'p3' },
  ],
};

describe('the plugin agrees with the published bundle schema', () => {
  it('uses the SDK’s schema version, base and path', () => {
    expect([BUNDLE_SCHEMA_VERSION, DEFAULT_SCHEMA_BASE, BUNDLE_SCHEMA_PATH]).toEqual([OPEN_PLAYLIST_SCHEMA_VERSION, SDK_DEFAULT_SCHEMA_BASE, SDK_BUNDLE_SCHEMA_PATH]);
  });

  it('checks exactly the fields of the zod model, in its order', () => {
    expect([...TRACK_FIELDS.keys()]).toEqual(Object.keys(trackSchema.shape));
    expect(['tracks', ...PLAYLIST_FIELDS.keys()].sort()).toEqual(Object.keys(playlistSchema.shape).sort());
  });

  it('writes bundles that the generated JSON Schema and the zod schema both accept', async () => {
    await fc.assert(
      fc.asyncProperty(playlistsArbitrary, async (playlists) => {
        const { text } = await runSerialize(plugin, playlists, { source_provider: 'tidal', schema_base: 'https://engine.example/schemas/', warnings: [{ code: 'unsupported_items', message: '2 local files', playlist_id: null, count: 2 }] });
        const document = JSON.parse(text) as unknown;
        expect(schemaErrors(bundleJsonSchema, document)).toEqual([]);
        expect(openPlaylistBundleSchema.safeParse(document).error).toBeUndefined();
      }),
      { numRuns: 60 },
    );
  });

  it('the JSON Schema and zod refuse schema_version 2 and an unknown warning code', async () => {
    const document = JSON.parse((await runSerialize(plugin, [])).text) as Record<string, unknown>;
    expect(schemaErrors(bundleJsonSchema, document)).toEqual([]);
    const version2 = { ...document, schema_version: 2 };
    expect(schemaErrors(bundleJsonSchema, version2)).toEqual(['/schema_version: expected 1']);
    expect(openPlaylistBundleSchema.safeParse(version2).error?.issues[0]?.message).toContain('schema_version 1 only');
    const badWarning = { ...document, warnings: [{ code: 'made_up', message: 'x' }] };
    expect(schemaErrors(bundleJsonSchema, badWarning)).toHaveLength(1);
    expect(openPlaylistBundleSchema.safeParse(badWarning).success).toBe(false);
  });

  it('the manifest schemas accept a real manifest and refuse a wrong count, status, file or version', () => {
    expect(schemaErrors(manifestJsonSchema, manifest)).toEqual([]);
    expect(exportManifestSchema.safeParse(manifest).error).toBeUndefined();
    expect(exportManifestSchema.safeParse({ ...manifest, playlist_count: 2 }).success).toBe(false);
    const withEntry = (index: number, change: Record<string, unknown>) => ({ ...manifest, entries: manifest.entries.map((entry, at) => (at === index ? { ...entry, ...change } : entry)) });
    // Each status decides the file and the codes: both schemas refuse every mismatch.
    const mismatches = [
      withEntry(0, { status: 'ok' }), // warning codes but "ok"
      withEntry(3, { status: 'warning' }), // "warning" without a code
      withEntry(2, { filename: 'Private.csv' }), // an error entry names a file
      withEntry(0, { filename: '' }), // a written playlist without its file
      withEntry(0, { status: 'failed' }), // not one of ok, warning, error
      { ...manifest, entries: manifest.entries.map(({ playlist_name, ...entry }) => ({ ...entry, name: playlist_name })) }, // the old field name
      { ...manifest, playlist_count: 0, entries: [] },
      { ...manifest, source_provider: null },
    ];
    for (const document of mismatches) {
      expect(schemaErrors(manifestJsonSchema, document), JSON.stringify(document.entries)).not.toEqual([]);
      expect(exportManifestSchema.safeParse(document).success, JSON.stringify(document.entries)).toBe(false);
    }
    expect(schemaErrors(manifestJsonSchema, withEntry(0, { status: 'failed' }))).toEqual(['/entries/0: matches none of oneOf']);
    expect(schemaErrors(manifestJsonSchema, { ...manifest, schema_version: 2 })).toEqual(['/schema_version: expected 1']);
  });
});
