import type { Playlist, Track } from '@opl/plugin-sdk';
import { sanitizeCell } from './cell-sanitizer.ts';
import { guardFormula } from './formula-guard.ts';
import { pickSourceUri } from './source-uri.ts';
import { LINE_END, SCHEMA_VERSION, TRACK_COLUMNS } from './txt-columns.ts';

/**
 * Rows of the TXT v1 layout. Each row is the playlist part (`schema_version` and the eight
 * playlist columns) followed by the track part (the 14 columns from `order` on), in the order of
 * TXT_V1_COLUMNS. The playlist part is formatted once per playlist and reused for each of its
 * rows: a 10,000-character description must not be sanitized again for every track.
 */

type CellValue = string | number | null;

/** Sanitizes (delimiter, line breaks) and guards formulas; `null` is an empty cell. */
function cell(value: CellValue): string {
  if (value === null) return '';
  return guardFormula(sanitizeCell(String(value)));
}

/** `schema_version` and the playlist columns, joined, without a trailing tab. */
export function playlistPart(playlist: Playlist): string {
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
  ]
    .map(cell)
    .join('\t');
}

/**
 * The track columns of one track. `order` is the 1-based position in the exported list (what a
 * reader restores), `source_position` is whatever position the source reported; durations are
 * whole seconds, rounded half up, because the column is documented as integer seconds.
 */
export function trackPart(track: Track, order: number, sourceProvider: string | null): string {
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
    pickSourceUri(track.provider_uris, sourceProvider),
    track.artwork_uri,
    track.added_at,
    track.media_type,
    track.unsupported_reason,
  ]
    .map(cell)
    .join('\t');
}

/** The track part of a playlist without tracks: every track column empty (SPEC "Export formats"). */
export const EMPTY_TRACK_PART = TRACK_COLUMNS.map(() => '').join('\t');

export function row(playlistCells: string, trackCells: string): string {
  return `${playlistCells}\t${trackCells}${LINE_END}`;
}
