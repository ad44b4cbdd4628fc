import { z } from 'zod';
import type { Capability } from './capabilities.ts';
import { PLUGIN_ERROR_TYPES } from './errors.ts';
import { albumSchema, artistSchema, playlistSchema, trackSchema } from './model.schema.ts';

/**
 * The adapter contract as data: every operation a plugin may implement, the schema of its input
 * and of its result, and what the manifest must declare before the engine may call it. The host
 * validates both directions against these schemas, so a plugin can neither receive nor return
 * anything outside the contract.
 */

const cursor = z.string().max(4_000).nullable().default(null);
const pageLimit = z.number().int().positive().max(10_000).default(100);
const providerId = z.string().min(1).max(500);
const uri = z.string().min(1).max(2_000);

function page<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item).max(10_000),
    /** Opaque cursor of the next page; null on the last page. */
    next_cursor: z.string().max(4_000).nullable().default(null),
    total: z.number().int().nonnegative().nullable().default(null),
  });
}

const perItemResult = z.object({
  uri,
  ok: z.boolean(),
  /** The provider's id of the created entry (e.g. a `setVideoId`), when it has one. */
  target_item_id: z.string().max(500).nullable().default(null),
  position: z.number().int().nonnegative().nullable().default(null),
  error: z
    .object({ type: z.enum(PLUGIN_ERROR_TYPES), message: z.string().max(2_000) })
    .nullable()
    .default(null),
});

const batchResult = z.object({
  results: z.array(perItemResult).max(10_000),
  snapshot_id: z.string().max(500).nullable().default(null),
});

const libraryItems = z.object({ items: z.array(z.object({ uri })).min(1).max(10_000) });
const ok = z.object({ ok: z.literal(true) });

export const searchQuerySchema = z.object({
  isrc: z.string().max(32).nullable().default(null),
  title: z.string().max(2_000).nullable().default(null),
  artist: z.string().max(2_000).nullable().default(null),
  album: z.string().max(2_000).nullable().default(null),
  duration_s: z.number().nonnegative().nullable().default(null),
  /** Free text, when the caller has no structured fields. */
  text: z.string().max(2_000).nullable().default(null),
});

interface OperationSpec {
  readonly plugin: 'provider' | 'format';
  readonly input: z.ZodType;
  readonly output: z.ZodType;
  /** Every one of these must be in the manifest's capabilities. */
  readonly requires: readonly Capability[];
  /** A manifest flag that must be true (for operations outside the capability set). */
  readonly requiresFlag?: 'can_mirror' | 'can_unfollow_playlist' | 'can_delete_playlist';
  readonly writes: boolean;
  /**
   * An older operation that does the same work, through which the host runs this one for a plugin
   * that does not implement it (a contract added later stays open to plugins written before it).
   */
  readonly servedBy?: 'serialize';
}

function op<I extends z.ZodType, O extends z.ZodType>(spec: OperationSpec & { input: I; output: O }) {
  return spec;
}

export const PROVIDER_OPERATIONS = {
  testConnection: op({
    plugin: 'provider',
    input: z.object({}),
    output: z.object({ ok: z.boolean(), account_id: z.string().max(500).nullable().default(null), display_name: z.string().max(500).nullable().default(null), country: z.string().max(10).nullable().default(null) }),
    requires: [],
    writes: false,
  }),
  listPlaylists: op({ plugin: 'provider', input: z.object({ cursor, limit: pageLimit }), output: page(playlistSchema), requires: ['READ_PLAYLISTS'], writes: false }),
  readPlaylist: op({ plugin: 'provider', input: z.object({ playlist_id: providerId }), output: playlistSchema, requires: ['READ_PLAYLISTS'], writes: false }),
  listPlaylistItems: op({
    plugin: 'provider',
    input: z.object({ playlist_id: providerId, cursor, limit: pageLimit }),
    output: page(trackSchema).extend({ snapshot_id: z.string().max(500).nullable().default(null) }),
    requires: ['READ_TRACKS'],
    writes: false,
  }),
  listLikedTracks: op({ plugin: 'provider', input: z.object({ cursor, limit: pageLimit }), output: page(trackSchema), requires: ['READ_LIBRARY'], writes: false }),
  /** Adds tracks to the native liked library (never an ordinary playlist); saving a saved track again is harmless. */
  saveTracks: op({ plugin: 'provider', input: libraryItems, output: batchResult, requires: ['WRITE_LIBRARY'], writes: true }),
  searchTracks: op({
    plugin: 'provider',
    input: z.object({ query: searchQuerySchema, mode: z.enum(['isrc', 'text']).default('text'), limit: z.number().int().positive().max(50).default(5) }),
    output: z.object({ candidates: z.array(trackSchema).max(50) }),
    requires: [],
    writes: false,
  }),
  validateUri: op({
    plugin: 'provider',
    input: z.object({ uri }),
    output: z.object({
      valid: z.boolean(),
      entity: z.enum(['track', 'playlist', 'album', 'artist']).nullable().default(null),
      id: z.string().max(500).nullable().default(null),
      normalized_uri: z.string().max(2_000).nullable().default(null),
    }),
    requires: [],
    writes: false,
  }),
  /**
   * The catalogue's own listing of tracks named by URI (a pasted link, a file's `source_uri`), in
   * the order asked, null where the catalogue has none (removed, unknown, or a URI of another
   * kind). The engine asks it of a connected account of the link's service when a song is only
   * that link, to learn what to search the target for. At most 50 URIs per call.
   */
  lookupTracks: op({
    plugin: 'provider',
    input: z.object({ uris: z.array(uri).min(1).max(50) }),
    output: z.object({ tracks: z.array(trackSchema.nullable()).max(50) }),
    requires: [],
    writes: false,
  }),
  createPlaylist: op({
    plugin: 'provider',
    input: z.object({ name: z.string().min(1).max(1_000), description: z.string().max(10_000).nullable().default(null), public: z.boolean().default(false) }),
    output: z.object({ playlist_id: providerId, uri: z.string().max(2_000).nullable().default(null), snapshot_id: z.string().max(500).nullable().default(null) }),
    requires: ['CREATE_PLAYLIST'],
    writes: true,
  }),
  addTracks: op({
    plugin: 'provider',
    input: z.object({
      playlist_id: providerId,
      items: z.array(z.object({ uri, position: z.number().int().nonnegative().nullable().default(null) })).min(1).max(10_000),
    }),
    output: batchResult,
    requires: ['ADD_TRACKS'],
    writes: true,
  }),
  removeTracks: op({
    plugin: 'provider',
    input: z.object({
      playlist_id: providerId,
      items: z.array(z.object({ uri, target_item_id: z.string().max(500).nullable().default(null), position: z.number().int().nonnegative().nullable().default(null) })).min(1).max(10_000),
      snapshot_id: z.string().max(500).nullable().default(null),
    }),
    output: batchResult,
    requires: ['REMOVE_TRACKS'],
    writes: true,
  }),
  /**
   * Moves one run of entries inside a playlist, keeping them (their added-at dates, their ids):
   * `range_length` entries starting at `range_start` go before the entry now at `insert_before`
   * (the playlist's length puts them at the end). Positions are those before the move.
   * `snapshot_id` pins the version the caller looked at where the provider has one. The engine's
   * mirror sync computes a few moves instead of rewriting a playlist.
   *
   * Providers that move entries by their own ids (YouTube Music's `setVideoId`) also get, for a
   * single-entry move where the caller read them, `item_id` (the moved entry's id) and
   * `before_item_id` (the id of the entry it goes before; null: the end). Given, the plugin moves by
   * them without reading the playlist to map positions; an id that no longer exists is refused by
   * the provider, never applied to another entry. Providers whose move request names the entry's
   * song as well as its id (TIDAL) also get `item_uri`, the moved entry's song as the caller read it.
   */
  moveTracks: op({
    plugin: 'provider',
    input: z.object({
      playlist_id: providerId,
      range_start: z.number().int().nonnegative(),
      range_length: z.number().int().positive().max(10_000).default(1),
      insert_before: z.number().int().nonnegative(),
      snapshot_id: z.string().max(500).nullable().default(null),
      item_id: z.string().min(1).max(500).nullable().default(null),
      before_item_id: z.string().min(1).max(500).nullable().default(null),
      item_uri: uri.nullable().default(null),
    }),
    output: z.object({ snapshot_id: z.string().max(500).nullable().default(null) }),
    requires: ['REORDER'],
    writes: true,
  }),
  replacePlaylistTracks: op({
    plugin: 'provider',
    input: z.object({ playlist_id: providerId, uris: z.array(uri).max(10_000) }),
    output: z.object({ snapshot_id: z.string().max(500).nullable().default(null) }),
    requires: ['ADD_TRACKS', 'REMOVE_TRACKS'],
    requiresFlag: 'can_mirror',
    writes: true,
  }),
  unfollowPlaylist: op({ plugin: 'provider', input: z.object({ playlist_id: providerId }), output: ok, requires: [], requiresFlag: 'can_unfollow_playlist', writes: true }),
  deletePlaylist: op({ plugin: 'provider', input: z.object({ playlist_id: providerId }), output: ok, requires: [], requiresFlag: 'can_delete_playlist', writes: true }),
  listSavedAlbums: op({ plugin: 'provider', input: z.object({ cursor, limit: pageLimit }), output: page(albumSchema), requires: ['READ_SAVED_ALBUMS'], writes: false }),
  searchAlbums: op({
    plugin: 'provider',
    input: z.object({ query: z.object({ title: z.string().max(2_000), artist: z.string().max(2_000).nullable().default(null), upc: z.string().max(32).nullable().default(null) }), limit: z.number().int().positive().max(50).default(5) }),
    output: z.object({ candidates: z.array(albumSchema).max(50) }),
    requires: ['WRITE_SAVED_ALBUMS'],
    writes: false,
  }),
  saveAlbums: op({ plugin: 'provider', input: libraryItems, output: batchResult, requires: ['WRITE_SAVED_ALBUMS'], writes: true }),
  removeSavedAlbums: op({ plugin: 'provider', input: libraryItems, output: batchResult, requires: ['WRITE_SAVED_ALBUMS'], writes: true }),
  listFollowedArtists: op({ plugin: 'provider', input: z.object({ cursor, limit: pageLimit }), output: page(artistSchema), requires: ['READ_FOLLOWED_ARTISTS'], writes: false }),
  searchArtists: op({
    plugin: 'provider',
    input: z.object({ query: z.object({ name: z.string().max(1_000) }), limit: z.number().int().positive().max(50).default(5) }),
    output: z.object({ candidates: z.array(artistSchema).max(50) }),
    requires: ['WRITE_FOLLOWED_ARTISTS'],
    writes: false,
  }),
  followArtists: op({ plugin: 'provider', input: libraryItems, output: batchResult, requires: ['WRITE_FOLLOWED_ARTISTS'], writes: true }),
  unfollowArtists: op({ plugin: 'provider', input: libraryItems, output: batchResult, requires: ['WRITE_FOLLOWED_ARTISTS'], writes: true }),
} as const;

/** A problem found while parsing a file: bounded, line-level, never fatal to valid neighbours. */
export const parseIssueSchema = z.object({
  line: z.number().int().positive().nullable().default(null),
  column: z.number().int().positive().nullable().default(null),
  code: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/),
  message: z.string().max(1_000),
  severity: z.enum(['error', 'warning']).default('error'),
});

export const FORMAT_OPERATIONS = {
  parse: op({
    plugin: 'format',
    input: z.object({
      /** The file's bytes; the plugin decodes them (see `ctx.decodeText`). */
      bytes: z.instanceof(Uint8Array),
      filename: z.string().max(500).nullable().default(null),
      media_type: z.string().max(200).nullable().default(null),
    }),
    output: z.object({
      playlists: z.array(playlistSchema).max(10_000),
      issues: z.array(parseIssueSchema).max(1_000),
      /** The provider the file says its playlists came from (an Open Playlist bundle's `source_provider`), for a converter to write back. */
      source_provider: z
        .string()
        .regex(/^[a-z][a-z0-9_]{0,39}$/)
        .optional(),
    }),
    requires: [],
    writes: false,
  }),
  /**
   * Streams the serialized file: the plugin's `serialize` yields chunks (string or bytes) and the
   * host forwards each across the boundary as it comes; the call's result is the chunk count.
   */
  serialize: op({
    plugin: 'format',
    input: z.object({ playlists: z.array(playlistSchema).max(10_000), options: z.record(z.string().max(100), z.unknown()).default({}) }),
    output: z.object({ chunks: z.number().int().nonnegative() }),
    requires: [],
    writes: false,
  }),
  /**
   * One playlist's file written in slices, so that neither side ever holds the whole playlist: the
   * plugin's `serializePlaylist` returns a `PlaylistWriter` for the playlist's details (`tracks`
   * empty), and the host drives it — `begin`, then `write` once per slice of tracks in playlist
   * order (`serializeSliceSchema`), then `end` with the options known only after the last track
   * (`serializeLateOptionsSchema`: the export's `warnings`) — streaming every chunk as it comes. The
   * bytes are those `serialize` writes for that one playlist, whatever the slices. A plugin written
   * before this operation is run through its `serialize`, with the tracks gathered first.
   */
  serializePlaylist: op({
    plugin: 'format',
    input: z.object({ playlist: playlistSchema.extend({ tracks: z.array(trackSchema).max(0).default([]) }), options: z.record(z.string().max(100), z.unknown()).default({}) }),
    output: z.object({ chunks: z.number().int().nonnegative() }),
    requires: [],
    writes: false,
    servedBy: 'serialize',
  }),
} as const;

/** Most tracks in one slice of `serializePlaylist`. */
export const MAX_SERIALIZE_SLICE_TRACKS = 10_000;
/** One slice of a playlist's tracks for `serializePlaylist`, in playlist order. */
export const serializeSliceSchema = z.array(trackSchema).max(MAX_SERIALIZE_SLICE_TRACKS);
/** Options a `serializePlaylist` writer receives at its end, known only once every track was written. */
export const serializeLateOptionsSchema = z.record(z.string().max(100), z.unknown()).default({});

export type ProviderOperationName = keyof typeof PROVIDER_OPERATIONS;
export type FormatOperationName = keyof typeof FORMAT_OPERATIONS;
export type OperationName = ProviderOperationName | FormatOperationName;

export const OPERATIONS: Record<OperationName, OperationSpec> = { ...PROVIDER_OPERATIONS, ...FORMAT_OPERATIONS };

type OperationsByName = typeof PROVIDER_OPERATIONS & typeof FORMAT_OPERATIONS;

/** Input as the caller passes it (defaults optional) and as the plugin receives it (filled in). */
export type OperationInput<N extends OperationName> = z.output<OperationsByName[N]['input']>;
export type OperationCallInput<N extends OperationName> = z.input<OperationsByName[N]['input']>;
/** Result as a plugin may return it (defaults optional) and as the engine receives it (validated). */
export type OperationReturn<N extends OperationName> = z.input<OperationsByName[N]['output']>;
export type OperationResult<N extends OperationName> = z.output<OperationsByName[N]['output']>;

