import { z } from 'zod';
import { playlistSchema } from './model.schema.ts';

/**
 * The Open Playlist JSON bundle v1 and the multi-playlist export manifest v1 (SPEC "Open Playlist
 * JSON bundle v1", "Multi-playlist archive and manifest v1", "Warning codes", "Versioning").
 * These are the engine's own file formats; the JSON Schemas under plugin-sdk/schema/export/ are
 * generated from them. The `json` format plugin cannot import zod (its bundle stays small), so it
 * has its own compact reader: the tests hold the two to the same documents.
 */

/** The only `schema_version` this reader and writer understand, for the bundle and the manifest. */
export const OPEN_PLAYLIST_SCHEMA_VERSION = 1;

/** Where the schemas live when the engine's schema base is not configured (their `$id` prefix). */
export const DEFAULT_SCHEMA_BASE = 'https://open-playlist.org/schemas';
/** Paths below the schema base; the engine serves each document there. */
export const BUNDLE_SCHEMA_PATH = '/export/open-playlist-bundle-v1.json';
export const EXPORT_MANIFEST_SCHEMA_PATH = '/export/open-playlist-export-manifest-v1.json';

export const EXPORT_WARNING_CODES = [
  'partial_selection',
  'empty_playlist',
  'unsupported_items',
  'missing_source_uri',
  'playlist_read_failed',
  'historical_playlist_metadata_partial',
  'historical_track_metadata_partial',
] as const;
export const exportWarningCodeSchema = z.enum(EXPORT_WARNING_CODES);

export const EXPORT_FORMATS = ['csv', 'txt', 'm3u8', 'xspf', 'json'] as const;
export const exportFormatSchema = z.enum(EXPORT_FORMATS);

export const exportWarningSchema = z.object({
  code: exportWarningCodeSchema,
  message: z.string().max(2_000),
  /** The playlist the warning is about; absent or null for the whole export. */
  playlist_id: z.string().max(10_000).nullable().optional(),
  /** How many items it concerns (e.g. unsupported tracks), when counted. */
  count: z.number().int().nonnegative().optional(),
});

/** A provider key such as `spotify` (the key of `provider_uris`); null when the source is a file or unknown. */
const sourceProviderSchema = z.string().min(1).max(100).nullable();

/** `{schema_base}/export/<document>`: any base the exporting engine was configured with. */
function schemaUri(path: string) {
  const escaped = path.replaceAll('.', '\\.').replaceAll('/', '\\/');
  return z.string().max(2_000).regex(new RegExp(`^https?:\\/\\/[^\\s]+${escaped}$`), `expected a URI ending in ${path}`);
}

function schemaVersion(document: string) {
  return z.literal(OPEN_PLAYLIST_SCHEMA_VERSION, {
    error: `unsupported schema_version: this reader understands ${document} schema_version ${OPEN_PLAYLIST_SCHEMA_VERSION} only`,
  });
}

export const openPlaylistBundleSchema = z.object({
  $schema: schemaUri(BUNDLE_SCHEMA_PATH),
  schema_version: schemaVersion('Open Playlist bundle'),
  source_provider: sourceProviderSchema,
  /** Universal playlists, each with its tracks in order (list order is authoritative). */
  playlists: z.array(playlistSchema),
  warnings: z.array(exportWarningSchema),
});

/**
 * What a reader accepts as a bundle v1: the published schema is what a writer produces (every
 * field present, as the engine writes it), while readers are lenient as the `json` format plugin
 * is for files. `schema_version` and `$schema` may each be left out (check the version first with
 * `declaredBundleVersion`), and so may `source_provider` (null) and `warnings` (none); playlists
 * and tracks take their defaults for the fields left out.
 */
export const openPlaylistBundleReaderSchema = openPlaylistBundleSchema.extend({
  $schema: schemaUri(BUNDLE_SCHEMA_PATH).optional(),
  schema_version: schemaVersion('Open Playlist bundle').optional(),
  source_provider: sourceProviderSchema.default(null),
  warnings: z.array(exportWarningSchema).default([]),
});

/**
 * The version a bundle declares, as the `json` format plugin reads it: its `schema_version` when
 * present (whatever its value), else the version in its `$schema` URI
 * (`…/open-playlist-bundle-v2.json` → 2), else undefined (readers then take it as version 1, with a
 * warning). Readers refuse any declared version other than 1.
 */
export function declaredBundleVersion(document: Record<string, unknown>): unknown {
  if (Object.hasOwn(document, 'schema_version')) return document['schema_version'] ?? null;
  const uri = document['$schema'];
  const match = typeof uri === 'string' ? /open-playlist-bundle-v(\d{1,6})\.json$/.exec(uri) : null;
  return match ? Number(match[1]) : undefined;
}

/** The playlist's file inside the archive (for JSON: `open-playlist-bundle.json`). */
const archivedFileName = z.string().min(1).max(1_000);

/** One status's entry shape, its fields in the reference's order. */
function manifestEntry<Status extends string>(status: Status, filename: z.ZodType<string>, warningCodes: z.ZodArray<typeof exportWarningCodeSchema>) {
  return z.object({
    playlist_id: z.string().max(10_000),
    playlist_name: z.string().max(1_000),
    filename,
    status: z.literal(status),
    track_count: z.number().int().nonnegative(),
    warning_codes: warningCodes,
  });
}

/**
 * One entry per requested playlist, with the reference API's field names (`ExportManifestEntry`).
 * The status decides the rest, so the published JSON Schema checks it too: `ok` has a file and no
 * warning code; `warning` has a file and at least one code (an empty playlist, a partial
 * selection, …); `error` is a playlist that could not be read, with no file (`filename` is the
 * empty string) and `playlist_read_failed`.
 */
export const exportManifestEntrySchema = z.discriminatedUnion('status', [
  manifestEntry('ok', archivedFileName, z.array(exportWarningCodeSchema).max(0)),
  manifestEntry('warning', archivedFileName, z.array(exportWarningCodeSchema).min(1)),
  manifestEntry('error', z.literal(''), z.array(exportWarningCodeSchema).min(1)),
]);

export const exportManifestSchema = z
  .object({
    $schema: schemaUri(EXPORT_MANIFEST_SCHEMA_PATH),
    schema_version: schemaVersion('export manifest'),
    format: exportFormatSchema,
    /** The provider key the export was requested with (`import` for an import record). */
    source_provider: z.string().min(1).max(100),
    /** An archive holds at least one playlist (one alone is exported as its file, without a manifest). */
    playlist_count: z.number().int().min(1),
    /** One entry per requested playlist, in the requested order. */
    entries: z.array(exportManifestEntrySchema),
    warnings: z.array(exportWarningSchema),
  })
  .superRefine((manifest, ctx) => {
    if (manifest.playlist_count !== manifest.entries.length) {
      ctx.addIssue({ code: 'custom', path: ['playlist_count'], message: `playlist_count is ${manifest.playlist_count} but there are ${manifest.entries.length} entries` });
    }
  });

export type ExportWarningCode = z.output<typeof exportWarningCodeSchema>;
export type ExportWarning = z.output<typeof exportWarningSchema>;
export type ExportFormat = z.output<typeof exportFormatSchema>;
export type OpenPlaylistBundle = z.output<typeof openPlaylistBundleSchema>;
export type ExportManifestEntry = z.output<typeof exportManifestEntrySchema>;
export type ExportManifest = z.output<typeof exportManifestSchema>;
