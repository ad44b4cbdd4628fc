import { formatKit } from '@opl/plugin-sdk';
import { tabCells } from './tab-cells.ts';
import { MAGIC_PATTERN } from './txt-v1-reader.ts';

/**
 * Which reader a file needs, decided once from its first meaningful lines:
 * - `v1`: the first meaningful line is the `# Open Playlist TXT` comment, or the first non-comment
 *   line is a tab-separated header naming `schema_version` (TXT v1 without its comments);
 * - `table`: the first non-comment line is a tab-separated header naming a title column the track
 *   table mapping knows (`Title`, `Track`, `Song`, `Name`, `Titel`, …), as Excel's
 *   "Text (Tab delimited)" or a copy from a spreadsheet gives it;
 * - `plain`: anything else, a hand-made list of `Artist - Title` lines.
 */
export type TxtLayout = 'v1' | 'table' | 'plain';

/** A header naming more columns than this is no header (as CSV's record limit): a hostile line is not split whole. */
const MAX_HEADER_CELLS = 1_000;

export function detectLayout(lines: Iterable<formatKit.TextLine>): TxtLayout {
  for (const line of lines) {
    const trimmed = line.text.trim();
    if (trimmed === '') continue;
    if (MAGIC_PATTERN.test(trimmed)) return 'v1';
    if (trimmed.startsWith('#')) continue;
    if (!line.text.includes('\t')) return 'plain';
    const cells = tabCells(line.text, MAX_HEADER_CELLS + 1);
    if (cells.length > MAX_HEADER_CELLS) return 'plain';
    if (cells.some((cell) => cell.trim() === 'schema_version')) return 'v1';
    return formatKit.trackTableColumns(cells) === null ? 'plain' : 'table';
  }
  return 'plain';
}
