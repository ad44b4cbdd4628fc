/**
 * The cells of a tab-separated line (TXT v1 rows and the tabular form).
 *
 * TXT never quotes a cell, but a file re-saved by Excel as "Text (Tab delimited)" does: Excel wraps
 * a cell holding a quote or a comma in quotes and doubles the quotes inside (`'=Road trip, "best"`
 * comes back as `"'=Road trip, ""best"""`). Such a cell is unwrapped: it starts and ends with a
 * quote, every quote inside is doubled, and it holds a doubled quote or a comma (what made Excel
 * wrap it). A cell that is merely a value in quotes (`"Heroes"`, as the TXT writer writes that
 * title) is kept as written. The formula guard's apostrophe, which Excel keeps, is removed later
 * by the v1 reader as usual. Excel's line breaks inside a wrapped cell are not joined: such a cell
 * spans lines, and its pieces are reported as malformed rows.
 */

const QUOTE = 0x22;

export function unwrapCell(cell: string): string {
  if (cell.length < 2 || cell.charCodeAt(0) !== QUOTE || cell.charCodeAt(cell.length - 1) !== QUOTE) return cell;
  const inside = cell.slice(1, -1);
  if (!inside.includes('""') && !inside.includes(',')) return cell;
  // Every quote inside is doubled: no quote is left once the pairs are taken out.
  return inside.replaceAll('""', '').includes('"') ? cell : inside.replaceAll('""', '"');
}

/** The line's cells, or its first `limit` cells. */
export function tabCells(line: string, limit?: number): string[] {
  return line.split('\t', limit).map(unwrapCell);
}
