import { z } from 'zod';
import { manifestSchema, manifestSourceSchema } from '../manifest.schema.ts';
import { albumSchema, artistSchema, playlistSchema, trackSchema } from '../model.schema.ts';
import { BUNDLE_SCHEMA_PATH, DEFAULT_SCHEMA_BASE, EXPORT_MANIFEST_SCHEMA_PATH, exportManifestSchema, openPlaylistBundleSchema } from '../open-playlist.schema.ts';
import { SNAPSHOT_MANIFEST_SCHEMA_PATH, snapshotManifestSchema } from '../snapshot-manifest.schema.ts';
import { keyRecordSchema } from './key.schema.ts';
import { registryIndexSchema } from './registry.schema.ts';
import { signatureFileSchema } from './signature.schema.ts';
import { trustStoreSchema } from './trust-store.schema.ts';

/**
 * The published JSON Schemas, generated from the zod schemas (the single source of truth) and
 * committed under plugin-sdk/schema/ for editors and non-TypeScript tooling. Refinements that
 * JSON Schema cannot express (bare origins, base64 key lengths, cross-field rules) are checked
 * only by the SDK and the engine.
 */

interface SchemaSpec {
  schema: z.ZodType;
  /** `input`: what an author writes (defaults optional); `output`: what the SDK or engine writes. */
  io: 'input' | 'output';
  title: string;
  description: string;
  source: string;
  /**
   * `$id` of a document the engine publishes. It names the default schema base; the engine serves
   * these files at `{schema_base}/…` and rewrites `$id` to its own configured schema base when it
   * does, so the value here only names the default; a served copy names the serving engine.
   */
  id?: string;
}

const SERVED_BY_ENGINE = 'The engine serves this document at `{schema_base}` + the same path and rewrites `$id` to its own schema base there.';

export const JSON_SCHEMA_SPECS: Readonly<Record<string, SchemaSpec>> = {
  'manifest.schema.json': {
    schema: manifestSourceSchema,
    io: 'input',
    title: 'Open Playlist Engine plugin manifest (plugin.json)',
    description: 'The manifest a plugin author writes. `opl-plugin build` adds the sha256 of every bundle file and writes manifest.json.',
    source: 'plugin-sdk/src/manifest.schema.ts (manifestSourceSchema)',
  },
  'bundle-manifest.schema.json': {
    schema: manifestSchema,
    io: 'output',
    title: 'Open Playlist Engine bundle manifest (manifest.json)',
    description: 'The manifest inside a built bundle: plugin.json with every default filled in and `files` pinning each bundle file by sha256.',
    source: 'plugin-sdk/src/manifest.schema.ts (manifestSchema)',
  },
  'track.schema.json': { schema: trackSchema, io: 'output', title: 'Track', description: 'A track of the universal model, as the engine writes it.', source: 'plugin-sdk/src/model.schema.ts (trackSchema)' },
  'playlist.schema.json': { schema: playlistSchema, io: 'output', title: 'Playlist', description: 'A playlist of the universal model, as the engine writes it.', source: 'plugin-sdk/src/model.schema.ts (playlistSchema)' },
  'album.schema.json': { schema: albumSchema, io: 'output', title: 'Album', description: 'An album of the universal model, as the engine writes it.', source: 'plugin-sdk/src/model.schema.ts (albumSchema)' },
  'artist.schema.json': { schema: artistSchema, io: 'output', title: 'Artist', description: 'An artist of the universal model, as the engine writes it.', source: 'plugin-sdk/src/model.schema.ts (artistSchema)' },
  'registry-index.schema.json': { schema: registryIndexSchema, io: 'input', title: 'Plugin registry index (index.json)', description: 'The plugins of a registry and their versions in ascending semver order.', source: 'plugin-sdk/src/tools/registry.schema.ts (registryIndexSchema)' },
  'key-record.schema.json': {
    schema: keyRecordSchema,
    io: 'input',
    title: 'Publisher key record (keys/<key_id>.json, <name>.pub.json)',
    description: 'An ed25519 publisher public key with its revocation and its rotation endorsement.',
    source: 'plugin-sdk/src/tools/key.schema.ts (keyRecordSchema)',
  },
  'signature.schema.json': { schema: signatureFileSchema, io: 'input', title: 'Bundle signature (signature.json)', description: 'The signed statement of a bundle and its detached ed25519 signature.', source: 'plugin-sdk/src/tools/signature.schema.ts (signatureFileSchema)' },
  'export/open-playlist-bundle-v1.json': {
    schema: openPlaylistBundleSchema,
    io: 'output',
    title: 'Open Playlist JSON bundle v1',
    description: `Universal playlists with their ordered tracks, as a lossless export (\`.json\`, application/vnd.open-playlist+json). Readers reject any schema_version other than 1. ${SERVED_BY_ENGINE}`,
    source: 'plugin-sdk/src/open-playlist.schema.ts (openPlaylistBundleSchema)',
    id: DEFAULT_SCHEMA_BASE + BUNDLE_SCHEMA_PATH,
  },
  'export/open-playlist-export-manifest-v1.json': {
    schema: exportManifestSchema,
    io: 'output',
    title: 'Open Playlist export manifest v1 (manifest.json)',
    description: `The manifest of a multi-playlist export archive: format, source provider, one ordered entry per playlist with its file, status, track count and warning codes, and the full warnings. ${SERVED_BY_ENGINE}`,
    source: 'plugin-sdk/src/open-playlist.schema.ts (exportManifestSchema)',
    id: DEFAULT_SCHEMA_BASE + EXPORT_MANIFEST_SCHEMA_PATH,
  },
  'export/open-playlist-snapshot-manifest-v1.json': {
    schema: snapshotManifestSchema,
    io: 'output',
    title: 'Open Playlist library snapshot manifest v1 (manifest.json)',
    description: `The manifest of a library snapshot archive: schema version, snapshot and library lineage UUIDs, timestamps, source labels, one entry per collection member with its counts and checksums, and the partial failures. Verifiers reject any schema_version other than 1. ${SERVED_BY_ENGINE}`,
    source: 'plugin-sdk/src/snapshot-manifest.schema.ts (snapshotManifestSchema)',
    id: DEFAULT_SCHEMA_BASE + SNAPSHOT_MANIFEST_SCHEMA_PATH,
  },
  'trust-store.schema.json': { schema: trustStoreSchema, io: 'input', title: 'Local trust store (OPL_PLUGIN_TRUST_FILE)', description: 'The publisher keys an installation trusts and the keys it revoked.', source: 'plugin-sdk/src/tools/trust-store.schema.ts (trustStoreSchema)' },
};

/** Every schema file (a path relative to plugin-sdk/schema/) → its exact text (2-space JSON, trailing newline). */
export function generateJsonSchemas(): Map<string, string> {
  const files = new Map<string, string>();
  for (const [file, spec] of Object.entries(JSON_SCHEMA_SPECS)) {
    const { $schema, ...body } = z.toJSONSchema(spec.schema, { io: spec.io, target: 'draft-2020-12', unrepresentable: 'throw' }) as Record<string, unknown>;
    const document = {
      $schema,
      ...(spec.id === undefined ? {} : { $id: spec.id }),
      $comment: `Generated from ${spec.source} by \`npm run schemas\` — do not edit.`,
      title: spec.title,
      description: spec.description,
      ...body,
    };
    files.set(file, `${JSON.stringify(document, null, 2)}\n`);
  }
  return files;
}
