import { jsonDepthExceeds } from '../json-depth.ts';
import { MAX_METADATA_DEPTH, MEDIA_TYPES, playlistSchema, trackSchema, type Playlist, type Track } from '../model.schema.ts';
import { OPERATIONS, type OperationName } from '../operations.schema.ts';

/**
 * A hand-written check of the results that carry tracks (a parsed file, a playlist, a page of
 * items), equivalent to the zod schemas for the values JSON can spell. Validating 100,000 tracks
 * through zod costs several times the JSON parse itself; this checks each Track in one tight pass
 * and builds the same output (defaults filled in, unknown keys dropped, the schema's key order).
 * It only ever answers "valid, and here is zod's output" or MISS: on MISS (anything unusual, or any
 * invalid value) the caller runs zod, which then decides and words the error. So it can only be
 * wrong by accepting what zod refuses, which test/unit/plugin-sdk/fast-result-check.test.ts rules
 * out property by property. Only for plain data — values fresh from `JSON.parse`, or a structured
 * clone of such values (plain objects and arrays, no symbols or accessors): the host calls it on
 * the boundary's parsed text, and the plugin host on the serialize input the engine sent it.
 */

export const MISS: unique symbol = Symbol('fast-check-miss');
type Miss = typeof MISS;

/** The Track fields this check knows, in the schema's order; a schema with other fields turns the fast path off. */
const TRACK_KEYS = [
  'id', 'title', 'artist', 'artists', 'album', 'duration_s', 'isrc', 'release_date', 'release_year', 'genre', 'track_number', 'disc_number', 'explicit', 'composer', 'credits',
  'label', 'artwork_uri', 'provider_uris', 'metadata', 'media_type', 'is_local', 'position', 'is_migratable', 'unsupported_reason', 'source_item_id', 'added_at', 'source_position',
  'provider_metadata',
] as const;

const shapeKeys = Object.keys(trackSchema.shape);
/** False when model.schema.ts gained, lost or reordered a Track field this check was not written for. */
export const FAST_TRACK_CHECK_ENABLED = shapeKeys.length === TRACK_KEYS.length && shapeKeys.every((key, index) => key === TRACK_KEYS[index]);

// The two string formats are checked by the schema's own field (a regex zod owns), only when present.
const releaseDateField = trackSchema.shape.release_date;
const addedAtField = trackSchema.shape.added_at;
const mediaTypes: ReadonlySet<unknown> = new Set(MEDIA_TYPES);

/** zod measures a string's length in code points: only a string longer in UTF-16 units needs counting. */
function fits(text: string, max: number): boolean {
  if (text.length <= max) return true;
  if (text.length > 2 * max) return false;
  let points = 0;
  for (const _ of text) if (++points > max) return false;
  return true;
}

/** A plain object: what JSON.parse and a structured clone make (a Date, Map or class instance is left to zod). */
function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

function nullableText(value: unknown, max: number): string | null | Miss {
  if (value === undefined || value === null) return null;
  return typeof value === 'string' && fits(value, max) ? value : MISS;
}

function nullableInt(value: unknown): number | null | Miss {
  if (value === undefined || value === null) return null;
  return Number.isSafeInteger(value) ? (value as number) : MISS;
}

function nullableBoolean(value: unknown): boolean | null | Miss {
  if (value === undefined || value === null) return null;
  return typeof value === 'boolean' ? value : MISS;
}

/**
 * Strings each format field's zod schema has already accepted. A file's dates repeat (one album's
 * release date on each of its tracks, one import time on every row), and the ISO date-time pattern
 * is the dearest step of a track's check: what zod said once is remembered instead of asked again.
 * Bounded, so a file of all-different dates only costs the zod calls it always did.
 */
const ACCEPTED_LIMIT = 4_096;
const accepted = new Map<typeof releaseDateField | typeof addedAtField, Set<string>>([
  [releaseDateField, new Set()],
  [addedAtField, new Set()],
]);

function formatted(value: unknown, field: typeof releaseDateField | typeof addedAtField): string | null | Miss {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') return MISS;
  const known = accepted.get(field)!;
  if (known.has(value)) return value;
  if (!field.safeParse(value).success) return MISS;
  if (known.size >= ACCEPTED_LIMIT) known.clear();
  known.add(value);
  return value;
}

/**
 * A record of string keys up to `maxKey` long (values checked by `valueOk`). The parsed object is
 * kept as it is: it has exactly the own keys, in the order, of the copy zod would make. Objects
 * with a `constructor` or `__proto__` key are left to zod, whose plain-object test looks at them.
 */
function record(value: unknown, maxKey: number, valueOk: ((item: unknown) => boolean) | null): Record<string, unknown> | Miss {
  if (value === undefined) return {};
  if (!isJsonObject(value)) return MISS;
  for (const key in value) {
    if (!fits(key, maxKey) || key === '__proto__' || key === 'constructor') return MISS;
    if (valueOk !== null && !valueOk(value[key])) return MISS;
  }
  return value;
}

const providerUriOk = (item: unknown) => typeof item === 'string' && fits(item, 2_000);
/** A metadata value within the model's depth (the record itself is level 1); scalars need no walk. */
const metadataValueOk = (item: unknown) => item === null || typeof item !== 'object' || !jsonDepthExceeds(item, MAX_METADATA_DEPTH - 1);

function artists(value: unknown): string[] | Miss {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length > 100) return MISS;
  for (let index = 0; index < value.length; index++) {
    const item: unknown = value[index];
    if (typeof item !== 'string' || !fits(item, 1_000)) return MISS;
  }
  return value as string[];
}

function credits(value: unknown): Track['credits'] | Miss {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length > 500) return MISS;
  const out: Track['credits'] = [];
  for (const item of value as unknown[]) {
    if (!isJsonObject(item)) return MISS;
    const { role, name } = item;
    if (typeof role !== 'string' || role.length < 1 || !fits(role, 200) || typeof name !== 'string' || name.length < 1 || !fits(name, 1_000)) return MISS;
    const instrument = nullableText(item.instrument, 10_000);
    const uri = nullableText(item.uri, 10_000);
    if (instrument === MISS || uri === MISS) return MISS;
    out.push({ role, name, instrument, uri });
  }
  return out;
}

/** One Track as `trackSchema.parse` would return it, or MISS. */
export function fastTrack(value: unknown): Track | Miss {
  if (!isJsonObject(value)) return MISS;
  const v = value;
  const { title, artist } = v;
  if (typeof title !== 'string' || !fits(title, 2_000) || typeof artist !== 'string' || !fits(artist, 2_000)) return MISS;
  const duration = v.duration_s;
  if (duration !== undefined && duration !== null && !(typeof duration === 'number' && Number.isFinite(duration) && duration >= 0 && duration <= 1_000_000)) return MISS;
  const mediaType = v.media_type === undefined ? 'track' : v.media_type;
  if (!mediaTypes.has(mediaType)) return MISS;
  const isLocal = v.is_local === undefined ? false : v.is_local;
  const isMigratable = v.is_migratable === undefined ? true : v.is_migratable;
  if (typeof isLocal !== 'boolean' || typeof isMigratable !== 'boolean') return MISS;
  // Each field into its own constant, compared once: a MISS anywhere ends the check before any object is built.
  const id = nullableText(v.id, 10_000);
  const trackArtists = artists(v.artists);
  const album = nullableText(v.album, 10_000);
  const isrc = nullableText(v.isrc, 32);
  const releaseDate = formatted(v.release_date, releaseDateField);
  const releaseYear = nullableInt(v.release_year);
  const genre = nullableText(v.genre, 10_000);
  const trackNumber = nullableInt(v.track_number);
  const discNumber = nullableInt(v.disc_number);
  const explicit = nullableBoolean(v.explicit);
  const composer = nullableText(v.composer, 10_000);
  const trackCredits = credits(v.credits);
  const label = nullableText(v.label, 10_000);
  const artworkUri = nullableText(v.artwork_uri, 10_000);
  const providerUris = record(v.provider_uris, 100, providerUriOk);
  const metadata = record(v.metadata, 200, metadataValueOk);
  const position = nullableInt(v.position);
  const unsupportedReason = nullableText(v.unsupported_reason, 10_000);
  const sourceItemId = nullableText(v.source_item_id, 10_000);
  const addedAt = formatted(v.added_at, addedAtField);
  const sourcePosition = nullableInt(v.source_position);
  const providerMetadata = record(v.provider_metadata, 200, metadataValueOk);
  if (
    id === MISS || trackArtists === MISS || album === MISS || isrc === MISS || releaseDate === MISS || releaseYear === MISS || genre === MISS || trackNumber === MISS ||
    discNumber === MISS || explicit === MISS || composer === MISS || trackCredits === MISS || label === MISS || artworkUri === MISS || providerUris === MISS ||
    metadata === MISS || position === MISS || unsupportedReason === MISS || sourceItemId === MISS || addedAt === MISS || sourcePosition === MISS || providerMetadata === MISS
  ) {
    return MISS;
  }
  // One literal in the schema's key order: every track gets the same hidden class.
  return {
    id,
    title,
    artist,
    artists: trackArtists,
    album,
    duration_s: duration ?? null,
    isrc,
    release_date: releaseDate,
    release_year: releaseYear,
    genre,
    track_number: trackNumber,
    disc_number: discNumber,
    explicit,
    composer,
    credits: trackCredits,
    label,
    artwork_uri: artworkUri,
    provider_uris: providerUris as Record<string, string>,
    metadata,
    media_type: mediaType as Track['media_type'],
    is_local: isLocal,
    position,
    is_migratable: isMigratable,
    unsupported_reason: unsupportedReason,
    source_item_id: sourceItemId,
    added_at: addedAt,
    source_position: sourcePosition,
    provider_metadata: providerMetadata,
  };
}

/** A list of tracks (at most `max`), each checked by `fastTrack`; a new array. */
export function fastTracks(value: unknown, max: number): Track[] | Miss {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length > max) return MISS;
  const out: Track[] = new Array<Track>(value.length);
  for (let index = 0; index < value.length; index++) {
    const track = fastTrack(value[index]);
    if (track === MISS) return MISS;
    out[index] = track;
  }
  return out;
}

/** Runs the zod schema on everything but the track list `key` (emptied), then puts the fast-checked tracks in its place. */
function withTracks<T extends Record<string, unknown>>(schema: { safeParse(value: unknown): { success: boolean; data?: unknown } }, value: unknown, key: string, max: number): T | Miss {
  if (!isJsonObject(value)) return MISS;
  const tracks = fastTracks(value[key], max);
  if (tracks === MISS) return MISS;
  const rest = schema.safeParse({ ...value, [key]: [] });
  if (!rest.success) return MISS;
  const out = rest.data as T;
  (out as Record<string, unknown>)[key] = tracks;
  return out;
}

/** The zod schema of a playlist on one side, its tracks on the other. */
export function fastPlaylist(value: unknown): Playlist | Miss {
  return withTracks<Playlist>(playlistSchema, value, 'tracks', Number.MAX_SAFE_INTEGER);
}

/**
 * A value holding a list of playlists (at most 10,000, as both schemas allow): each playlist by
 * `fastPlaylist`, the rest (a parse result's issues, a serialize input's options) by `schema`.
 */
function withPlaylists(schema: { safeParse(value: unknown): { success: boolean; data?: unknown } }, value: unknown): unknown {
  if (!isJsonObject(value) || !Array.isArray(value.playlists) || value.playlists.length > 10_000) return MISS;
  const playlists: Playlist[] = [];
  for (const item of value.playlists as unknown[]) {
    const playlist = fastPlaylist(item);
    if (playlist === MISS) return MISS;
    playlists.push(playlist);
  }
  const rest = schema.safeParse({ ...value, playlists: [] });
  if (!rest.success) return MISS;
  return { ...(rest.data as Record<string, unknown>), playlists };
}

/** A serialize input (playlists to write) as zod would output it, or MISS. */
export function fastSerializeInput(value: unknown): unknown {
  return FAST_TRACK_CHECK_ENABLED ? withPlaylists(OPERATIONS.serialize.input, value) : MISS;
}

/** The operations whose results are mostly tracks, and their fast checks. */
const FAST_RESULTS: Partial<Record<OperationName, (value: unknown) => unknown>> = {
  parse: (value) => withPlaylists(OPERATIONS.parse.output, value),
  readPlaylist: fastPlaylist,
  listPlaylistItems: (value) => withTracks(OPERATIONS.listPlaylistItems.output, value, 'items', 10_000),
  listLikedTracks: (value) => withTracks(OPERATIONS.listLikedTracks.output, value, 'items', 10_000),
};

/** The result as the operation's schema would output it, or MISS when zod must decide. Input: a value fresh from JSON.parse. */
export function fastResult(op: OperationName, value: unknown): unknown {
  if (!FAST_TRACK_CHECK_ENABLED) return MISS;
  const check = FAST_RESULTS[op];
  return check ? check(value) : MISS;
}
