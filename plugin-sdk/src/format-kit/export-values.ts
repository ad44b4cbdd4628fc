import type { Playlist, Track } from '../model.schema.ts';
import { SCHEMA_VERSION, TRACK_COLUMNS } from './export-columns.ts';
import { trackSourceUri } from './source-uri.ts';

/** A cell before formatting; `null` is an empty cell. */
export type CellValue = string | number | null;

/** `schema_version` and the eight playlist columns. */
export function playlistValues(playlist: Playlist): CellValue[] {
  return [
    SCHEMA_VERSION,
    playlist.id,
    playlist.name,
    playlist.description,
    playlist.kind,
    playlist.owner_id,
    // The model has both `artwork_uri` and the older `photo`; they name the same image.
    playlist.artwork_uri ?? playlist.photo,
    playlist.created_at,
    playlist.updated_at,
  ];
}

/**
 * The 14 track columns. `order` is the 1-based position in the exported list, `source_position`
 * whatever the source reported; durations are whole seconds, rounded half up.
 */
export function trackValues(track: Track, order: number, sourceProvider: string | null): CellValue[] {
  return [
    order,
    track.source_position,
    track.id,
    track.source_item_id,
    track.title,
    track.artist,
    track.album,
    track.duration_s === null ? null : Math.round(track.duration_s),
    track.isrc,
    trackSourceUri(track, sourceProvider),
    track.artwork_uri,
    track.added_at,
    track.media_type,
    track.unsupported_reason,
  ];
}

/** The track part of a playlist without tracks: every track column empty. */
export const EMPTY_TRACK_VALUES: readonly CellValue[] = TRACK_COLUMNS.map(() => null);
