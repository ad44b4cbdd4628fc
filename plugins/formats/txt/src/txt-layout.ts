import { formatKit } from '@opl/plugin-sdk';
import { tabCells, unquoteCell } from './tab-cells.ts';
import { MAGIC_PATTERN } from './txt-v1-reader.ts';

/**
 * Which reader a file needs, decided once from its first meaningful lines:
 * - `v1`: the first meaningful line is the `# Open Playlist TXT` comment, or the first non-comment
 *   line is a tab-separated header naming `schema_version` (TXT v1 without its comments);
 * - `table`: the first line that is not blank or a `#` comment without a tab is a table header
 *   (`isTableHeader`), as Excel's "Text (Tab delimited)", a copy from a spreadsheet or a DJ
 *   program's export gives it — also when its first cell is `#` (Rekordbox's track-number column)
 *   or its cells are in quotes. The table reader reads it, or refuses it with
 *   `unrecognized_columns` when it names neither a title nor a link column;
 * - `plain`: anything else, a hand-made list of `Artist - Title` lines (a title holding a tab
 *   stays a line of the list: its cells name no columns).
 */
export type TxtLayout = 'v1' | 'table' | 'plain';

/** A header naming more columns than this is no header (as CSV's record limit): a hostile line is not split whole. */
const MAX_HEADER_CELLS = 1_000;

/** The cells of a line read as a header (quotes around names removed), or null when it has no tab or too many cells. */
export function headerCells(text: string): string[] | null {
  if (!text.includes('\t')) return null;
  const cells = tabCells(text, MAX_HEADER_CELLS + 1);
  return cells.length > MAX_HEADER_CELLS ? null : cells.map(unquoteCell);
}

/**
 * A tab-separated line is a track table's header when its cells look like column names: it names
 * a title or link column the track-table mapping knows (`Title`, `Track Title`, `Song`, `Name`,
 * `URL`, `Spotify URI`, …), or at least two columns it knows of any kind (`Artist`, `Album`,
 * `Time`, …).
 */
export function isTableHeader(cells: readonly string[]): boolean {
  return formatKit.trackTableColumns(cells) !== null || formatKit.knownTrackTableColumns(cells) >= 2;
}

export function detectLayout(lines: Iterable<formatKit.TextLine>): TxtLayout {
  for (const line of lines) {
    const trimmed = line.text.trim();
    if (trimmed === '') continue;
    if (MAGIC_PATTERN.test(trimmed)) return 'v1';
    const cells = headerCells(line.text);
    if (cells !== null && !trimmed.startsWith('#') && cells.some((cell) => cell.trim() === 'schema_version')) return 'v1';
    if (cells !== null && isTableHeader(cells)) return 'table';
    if (trimmed.startsWith('#')) continue;
    return 'plain';
  }
  return 'plain';
}
