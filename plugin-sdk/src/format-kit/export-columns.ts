/**
 * The export columns of schema version 1 (SPEC "Export file columns"), shared by CSV and TXT, in
 * order. Part of the stable v1 contract: never reorder,
 * rename or drop an entry.
 */

export const SCHEMA_VERSION = '1';

export const V1_COLUMNS = [
  'schema_version',
  'playlist_id',
  'playlist_name',
  'playlist_description',
  'playlist_kind',
  'playlist_owner_id',
  'playlist_artwork_uri',
  'playlist_created_at',
  'playlist_updated_at',
  'order',
  'source_position',
  'track_id',
  'source_item_id',
  'title',
  'artist',
  'album',
  'duration_seconds',
  'isrc',
  'source_uri',
  'artwork_uri',
  'added_at',
  'media_type',
  'unsupported_reason',
] as const;

export type V1Column = (typeof V1_COLUMNS)[number];

/** Columns that describe the playlist; every row repeats them so each row stands alone. */
export const PLAYLIST_COLUMNS = V1_COLUMNS.slice(1, 9) as readonly V1Column[];

/** Columns that describe the track; all empty on the metadata-only row of an empty playlist. */
export const TRACK_COLUMNS = V1_COLUMNS.slice(9) as readonly V1Column[];
