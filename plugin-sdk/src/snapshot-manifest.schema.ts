import { z } from 'zod';
import { albumSchema, artistSchema, playlistSchema, trackSchema } from './model.schema.ts';

/**
 * The library snapshot archive v1 (SPEC "Snapshots", "Versioning": snapshot archive v1). A ZIP64
 * archive of exactly `manifest.json`, `manifest.sha256` (`<hex>  manifest.json`, the sha256sum
 * line) and the `collections/*.jsonl` members the manifest declares, each one universal-model
 * record per line. The JSON Schema published beside the bundle schema is generated from this.
 */

export const SNAPSHOT_SCHEMA_VERSION = 1;
export const SNAPSHOT_MANIFEST_SCHEMA_PATH = '/export/open-playlist-snapshot-manifest-v1.json';
export const SNAPSHOT_MANIFEST_MEMBER = 'manifest.json';
export const SNAPSHOT_CHECKSUM_MEMBER = 'manifest.sha256';
/** The detached ed25519 signature of `manifest.json`, present exactly when the manifest declares `signature`. */
export const SNAPSHOT_SIGNATURE_MEMBER = 'manifest.sig';
/** `collections/0001.jsonl`: generated names only, never a provider's playlist name. */
export const SNAPSHOT_COLLECTION_MEMBER_PATTERN = /^collections\/\d{4,6}\.jsonl$/;

/** What a collection holds: playlists and liked tracks; saved albums and followed artists where a provider advertises them. */
export const SNAPSHOT_COLLECTION_KINDS = ['playlist', 'liked_tracks', 'saved_albums', 'followed_artists'] as const;
export const snapshotCollectionKindSchema = z.enum(SNAPSHOT_COLLECTION_KINDS);
export type SnapshotCollectionKind = z.output<typeof snapshotCollectionKindSchema>;

export const SNAPSHOT_ENTITY_TYPES = ['track', 'album', 'artist'] as const;
export type SnapshotEntityType = (typeof SNAPSHOT_ENTITY_TYPES)[number];

/** The entity type of every record of a collection kind. */
export const SNAPSHOT_KIND_ENTITY: Readonly<Record<SnapshotCollectionKind, SnapshotEntityType>> = {
  playlist: 'track',
  liked_tracks: 'track',
  saved_albums: 'album',
  followed_artists: 'artist',
};

/** One line of a collection member: the universal model's record, with no field beyond it. */
export const snapshotRecordSchemas = {
  track: z.strictObject(trackSchema.shape),
  album: z.strictObject(albumSchema.shape),
  artist: z.strictObject(artistSchema.shape),
} as const;

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'expected a lowercase sha256 hex digest');
const timestamp = z.iso.datetime({ offset: true });
const sourceId = z.string().regex(/^s\d{1,4}$/, 'expected a source id such as s1');
const count = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/** A failure kept in the manifest: a stable code and a message without secrets. */
export const snapshotFailureSchema = z.strictObject({
  code: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/),
  message: z.string().max(2_000),
});

export const snapshotSourceSchema = z.strictObject({
  source_id: sourceId,
  /** The provider key (`spotify`, `tidal`, …). */
  provider: z.string().min(1).max(100),
  /** A display label such as the account's name: never a token, e-mail password or cookie. */
  label: z.string().max(200),
});

/** The playlist's own fields (its tracks are the member's lines). */
export const snapshotPlaylistSchema = z.strictObject(playlistSchema.omit({ tracks: true }).shape);

export const snapshotCollectionSchema = z
  .strictObject({
    member: z.string().regex(SNAPSHOT_COLLECTION_MEMBER_PATTERN, 'expected collections/<number>.jsonl'),
    source_id: sourceId,
    kind: snapshotCollectionKindSchema,
    entity_type: z.enum(SNAPSHOT_ENTITY_TYPES),
    /** The provider's id of the collection (a playlist id, `liked`); null when it has none. */
    source_collection_id: z.string().max(10_000).nullable(),
    name: z.string().max(1_000),
    /** Playlist details for `playlist` and `liked_tracks`; null for albums and artists. */
    playlist: snapshotPlaylistSchema.nullable(),
    /** `complete`; `partial`: reading stopped after some items; `failed`: nothing could be read. */
    status: z.enum(['complete', 'partial', 'failed']),
    item_count: count,
    payload_bytes: count,
    payload_sha256: sha256Hex,
    /** sha256 over the sha256 of each record's canonical JSON, in order. */
    items_sha256: sha256Hex,
    failure: snapshotFailureSchema.nullable(),
  })
  .superRefine((collection, ctx) => {
    if (collection.entity_type !== SNAPSHOT_KIND_ENTITY[collection.kind]) {
      ctx.addIssue({ code: 'custom', path: ['entity_type'], message: `a ${collection.kind} collection holds ${SNAPSHOT_KIND_ENTITY[collection.kind]} records` });
    }
    if ((collection.status === 'complete') !== (collection.failure === null)) {
      ctx.addIssue({ code: 'custom', path: ['failure'], message: 'a complete collection has no failure; a partial or failed one names it' });
    }
    if (collection.status === 'failed' && collection.item_count !== 0) {
      ctx.addIssue({ code: 'custom', path: ['item_count'], message: 'a failed collection holds no item' });
    }
  });

/**
 * The key that signed the manifest: the manifest names it, so the key is covered by the checksum
 * and by the signature itself. The signature (base64, one line) is the member `manifest.sig`, over
 * the bytes `opl-snapshot-manifest-v1\n` followed by the bytes of `manifest.json`.
 */
export const snapshotSignatureSchema = z.strictObject({
  algorithm: z.literal('ed25519'),
  /** `snap-` and the first 16 hex digits of the sha256 of the public key. */
  key_id: z.string().regex(/^snap-[0-9a-f]{16}$/, 'expected snap-<16 hex digits>'),
  /** The ed25519 public key, base64 (32 bytes). */
  public_key: z.string().regex(/^[A-Za-z0-9+/]{43}=$/, 'expected a base64 ed25519 public key'),
});

export const snapshotManifestSchema = z.strictObject({
  $schema: z.string().max(2_000).regex(/^https?:\/\/[^\s]+\/export\/open-playlist-snapshot-manifest-v1\.json$/, `expected a URI ending in ${SNAPSHOT_MANIFEST_SCHEMA_PATH}`),
  schema_version: z.literal(SNAPSHOT_SCHEMA_VERSION, { error: `unsupported schema_version: this reader understands snapshot archive schema_version ${SNAPSHOT_SCHEMA_VERSION} only` }),
  snapshot_id: z.uuid(),
  /** The library lineage shared by every snapshot of one profile (`snapshot:<library_id>`). */
  library_id: z.uuid(),
  created_at: timestamp,
  started_at: timestamp,
  completed_at: timestamp,
  sources: z.array(snapshotSourceSchema).max(1_000),
  collections: z.array(snapshotCollectionSchema).max(100_000),
  counts: z.strictObject({ collections: count, items: count, partial_collections: count, failed_collections: count }),
  /** Every collection that is not complete, with its failure (the same as in its entry). */
  partial_failures: z.array(z.strictObject({ member: z.string().max(100), source_id: sourceId, source_collection_id: z.string().max(10_000).nullable(), failure: snapshotFailureSchema })).max(100_000),
  /** Present when the archive is signed (optional): its `manifest.sig` must then verify with this key. */
  signature: snapshotSignatureSchema.optional(),
});

export type SnapshotManifest = z.output<typeof snapshotManifestSchema>;
export type SnapshotCollection = z.output<typeof snapshotCollectionSchema>;
export type SnapshotSource = z.output<typeof snapshotSourceSchema>;
export type SnapshotFailure = z.output<typeof snapshotFailureSchema>;
export type SnapshotSignature = z.output<typeof snapshotSignatureSchema>;
export type SnapshotPlaylist = z.output<typeof snapshotPlaylistSchema>;
