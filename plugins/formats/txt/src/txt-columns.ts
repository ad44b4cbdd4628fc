/**
 * The TXT v1 layout: two comment lines, then a header row naming the export columns of schema
 * version 1 (SPEC "Export file columns", shared with CSV), then one tab-delimited row per track.
 * The column list is part of the stable v1 contract: never reorder, rename or drop an entry.
 */

export const SCHEMA_VERSION = '1';

export const TXT_V1_COLUMNS = [
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

export type TxtColumn = (typeof TXT_V1_COLUMNS)[number];

/** Columns that describe the playlist; every row repeats them so each row stands alone. */
export const PLAYLIST_COLUMNS = TXT_V1_COLUMNS.slice(1, 9) as readonly TxtColumn[];

/** Columns that describe the track; all empty on the metadata-only row of an empty playlist. */
export const TRACK_COLUMNS = TXT_V1_COLUMNS.slice(9) as readonly TxtColumn[];

/** First line of every file; readers recognise the format by it (or by the header row). */
export const MAGIC_LINE = '# Open Playlist TXT v1';

/** Second line: the schema version readers check, plus enough prose for a human opening the file. */
export const SCHEMA_LINE = `# schema_version=${SCHEMA_VERSION}; tab-separated columns named on the next line; one row per track in playlist order; a playlist without tracks has one row with empty track columns`;

export const LINE_END = '\n';
