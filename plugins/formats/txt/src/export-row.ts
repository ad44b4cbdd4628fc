import type { Playlist, Track } from '@opl/plugin-sdk';
import { sanitizeCell } from './cell-sanitizer.ts';
import { guardFormula } from './formula-guard.ts';
import { pickSourceUri } from './source-uri.ts';
import { LINE_END, SCHEMA_VERSION, TXT_V1_COLUMNS, type TxtColumn } from './txt-columns.ts';

/** One exported row as raw values by column; `null` and absent cells are written empty. */
export type RowValues = Partial<Record<TxtColumn, string | number | null>>;

function playlistValues(playlist: Playlist): RowValues {
  return {
    schema_version: SCHEMA_VERSION,
    playlist_id: playlist.id,
    playlist_name: playlist.name,
    playlist_description: playlist.description,
    playlist_kind: playlist.kind,
    playlist_owner_id: playlist.owner_id,
    // The model has both `artwork_uri` and the older `photo`; they name the same image.
    playlist_artwork_uri: playlist.artwork_uri ?? playlist.photo,
    playlist_created_at: playlist.created_at,
    playlist_updated_at: playlist.updated_at,
  };
}

/**
 * The row of one track. `order` is the 1-based position in the exported list (what a reader
 * restores), `source_position` is whatever position the source reported; durations are whole
 * seconds, rounded half up, because the column is named and documented as integer seconds.
 */
export function trackRow(playlist: Playlist, track: Track, order: number, sourceProvider: string | null): RowValues {
  return {
    ...playlistValues(playlist),
    order,
    source_position: track.source_position,
    track_id: track.id,
    source_item_id: track.source_item_id,
    title: track.title,
    artist: track.artist,
    album: track.album,
    duration_seconds: track.duration_s === null ? null : Math.round(track.duration_s),
    isrc: track.isrc,
    source_uri: pickSourceUri(track.provider_uris, sourceProvider),
    artwork_uri: track.artwork_uri,
    added_at: track.added_at,
    media_type: track.media_type,
    unsupported_reason: track.unsupported_reason,
  };
}

/** The single row of a playlist without tracks: playlist columns only (SPEC "Export formats"). */
export function emptyPlaylistRow(playlist: Playlist): RowValues {
  return playlistValues(playlist);
}

function cell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  return guardFormula(sanitizeCell(String(value)));
}

/** Sanitizes (delimiters, line breaks), guards formulas, and joins one row with its line end. */
export function formatRow(values: RowValues): string {
  return TXT_V1_COLUMNS.map((column) => cell(values[column])).join('\t') + LINE_END;
}
