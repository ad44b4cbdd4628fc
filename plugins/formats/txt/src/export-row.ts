import { formatKit, type Playlist, type Track } from '@opl/plugin-sdk';
import { sanitizeCell } from './cell-sanitizer.ts';
import { wrapCell } from './tab-cells.ts';
import { LINE_END } from './txt-columns.ts';

/**
 * Rows of the TXT v1 layout: the SDK's v1 export values (`formatKit.playlistValues` /
 * `trackValues`, shared with CSV), each cell sanitized for TSV and formula-guarded. The playlist
 * part (`schema_version` and the eight playlist columns) is formatted once per playlist and reused
 * for each of its rows: a 10,000-character description must not be sanitized again for every track.
 */

/**
 * Sanitizes (delimiter, line breaks), guards formulas and wraps a cell starting with a quote the
 * way Excel does (tab-cells.ts), so the reader never mistakes a value for an Excel-wrapped cell;
 * `null` is an empty cell.
 */
function cell(value: formatKit.CellValue): string {
  if (value === null) return '';
  return wrapCell(formatKit.guardFormula(sanitizeCell(String(value))));
}

/** `schema_version` and the playlist columns, joined, without a trailing tab. */
export function playlistPart(playlist: Playlist): string {
  return formatKit.playlistValues(playlist).map(cell).join('\t');
}

/** The track columns of one track (see `formatKit.trackValues`). */
export function trackPart(track: Track, order: number, sourceProvider: string | null): string {
  return formatKit.trackValues(track, order, sourceProvider).map(cell).join('\t');
}

/** The track part of a playlist without tracks: every track column empty (SPEC "Export formats"). */
export const EMPTY_TRACK_PART = formatKit.EMPTY_TRACK_VALUES.map(cell).join('\t');

export function row(playlistCells: string, trackCells: string): string {
  return `${playlistCells}\t${trackCells}${LINE_END}`;
}
