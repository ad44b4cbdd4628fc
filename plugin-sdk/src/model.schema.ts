import { z } from 'zod';
import { playlistKindSchema } from './capabilities.schema.ts';
import { jsonDepthExceeds, MAX_METADATA_DEPTH } from './json-depth.ts';

export { MAX_METADATA_DEPTH };

/**
 * The universal model every plugin maps to and from. Field names are snake_case because they are
 * also the wire and file format (exports, reports, the interchange API).
 */

const nullableText = z.string().max(10_000).nullable().default(null);
const nullableInt = z.number().int().nullable().default(null);
/** Free-form key/value data; plugins put provider specifics here, never secrets. */
const metadataSchema = z
  .record(z.string().max(200), z.unknown())
  .refine((value) => !jsonDepthExceeds(value, MAX_METADATA_DEPTH), { message: `metadata nests deeper than ${MAX_METADATA_DEPTH} levels` })
  .default({});
/** Cross-platform links keyed by provider name (e.g. `spotify` → `spotify:track:…`). */
const providerUrisSchema = z.record(z.string().max(100), z.string().max(2_000)).default({});
const isoDateTime = z.iso.datetime({ offset: true }).nullable().default(null);
/** `YYYY`, `YYYY-MM` or `YYYY-MM-DD`: providers know release dates at different precision. */
const releaseDate = z
  .string()
  .regex(/^\d{4}(-\d{2}(-\d{2})?)?$/, 'expected YYYY, YYYY-MM or YYYY-MM-DD')
  .nullable()
  .default(null);

export const MEDIA_TYPES = ['track', 'episode', 'video', 'local_file', 'unknown'] as const;
export const mediaTypeSchema = z.enum(MEDIA_TYPES);

export const creditSchema = z.object({
  role: z.string().min(1).max(200),
  name: z.string().min(1).max(1_000),
  instrument: nullableText,
  uri: nullableText,
});

export const trackSchema = z.object({
  id: nullableText,
  title: z.string().max(2_000),
  /** Display artist string as the source shows it ("A, B feat. C"). */
  artist: z.string().max(2_000),
  /** The individual artist names when the source knows them; matching compares these as a set. */
  artists: z.array(z.string().max(1_000)).max(100).default([]),
  album: nullableText,
  duration_s: z.number().nonnegative().max(1_000_000).nullable().default(null),
  isrc: z.string().max(32).nullable().default(null),
  release_date: releaseDate,
  release_year: nullableInt,
  genre: nullableText,
  track_number: nullableInt,
  disc_number: nullableInt,
  explicit: z.boolean().nullable().default(null),
  composer: nullableText,
  credits: z.array(creditSchema).max(500).default([]),
  label: nullableText,
  artwork_uri: nullableText,
  provider_uris: providerUrisSchema,
  metadata: metadataSchema,
  // Engine attributes beyond the spec's universal fields.
  media_type: mediaTypeSchema.default('track'),
  is_local: z.boolean().default(false),
  /** 0-based position in the playlist as read; list order stays authoritative. */
  position: nullableInt,
  is_migratable: z.boolean().default(true),
  /** Why this entry cannot be migrated (episode, video, local file, …). */
  unsupported_reason: nullableText,
  /** The source's id of this playlist entry (not of the track): e.g. a YouTube Music `setVideoId`. */
  source_item_id: nullableText,
  added_at: isoDateTime,
  source_position: nullableInt,
  /** Provider details that matching may use (e.g. `videoType`); never credentials. */
  provider_metadata: metadataSchema,
});

export const playlistSchema = z.object({
  id: nullableText,
  name: z.string().max(1_000),
  description: nullableText,
  /** Playlist image address. */
  photo: nullableText,
  /** Ordered; list order is authoritative. Listings may leave it empty and set `track_count`. */
  tracks: z.array(trackSchema).default([]),
  track_count: z.number().int().nonnegative().nullable().default(null),
  owner_id: nullableText,
  owner_name: nullableText,
  created_at: isoDateTime,
  updated_at: isoDateTime,
  kind: playlistKindSchema.default('PLAYLIST'),
  artwork_uri: nullableText,
  /** Provider version marker of the playlist contents (Spotify-style snapshot id), if any. */
  snapshot_id: nullableText,
  is_owned: z.boolean().nullable().default(null),
  is_followed: z.boolean().nullable().default(null),
  collaborative: z.boolean().nullable().default(null),
  provider_uris: providerUrisSchema,
  metadata: metadataSchema,
});

export const albumSchema = z.object({
  id: nullableText,
  title: z.string().max(2_000),
  artists: z.array(z.string().max(1_000)).max(100).default([]),
  release_date: releaseDate,
  release_year: nullableInt,
  upc: z.string().max(32).nullable().default(null),
  track_count: z.number().int().nonnegative().nullable().default(null),
  artwork_uri: nullableText,
  provider_uris: providerUrisSchema,
  metadata: metadataSchema,
  source_item_id: nullableText,
  added_at: isoDateTime,
});

export const artistSchema = z.object({
  id: nullableText,
  name: z.string().max(1_000),
  artwork_uri: nullableText,
  provider_uris: providerUrisSchema,
  metadata: metadataSchema,
  source_item_id: nullableText,
  added_at: isoDateTime,
});

/** What a plugin returns: defaults may be omitted. */
export type TrackInput = z.input<typeof trackSchema>;
export type PlaylistInput = z.input<typeof playlistSchema>;
export type AlbumInput = z.input<typeof albumSchema>;
export type ArtistInput = z.input<typeof artistSchema>;
/** What the engine holds after validation: every field present. */
export type Track = z.output<typeof trackSchema>;
export type Playlist = z.output<typeof playlistSchema>;
export type Album = z.output<typeof albumSchema>;
export type Artist = z.output<typeof artistSchema>;
export type Credit = z.output<typeof creditSchema>;
export type MediaType = z.output<typeof mediaTypeSchema>;
