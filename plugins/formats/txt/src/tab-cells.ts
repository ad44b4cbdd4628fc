/**
 * The cells of a tab-separated line (TXT v1 rows and the tabular form).
 *
 * TXT never quotes a cell, but a file re-saved by Excel as "Text (Tab delimited)" does: Excel wraps
 * a cell holding a quote or a comma in quotes and doubles the quotes inside (`'=Road trip, "best"`
 * comes back as `"'=Road trip, ""best"""`). Such a cell is unwrapped: it starts and ends with a
 * quote, every quote inside is doubled, and it holds a doubled quote, a comma or a line break
 * (what made Excel wrap it). A cell that is merely a value in quotes (`"Heroes"`, no comma and no
 * doubled quote inside) is kept as written. The formula guard's apostrophe, which Excel keeps, is
 * removed later by the v1 reader as usual. A wrapped cell holding a line break spans lines: the
 * track table's reader joins them into its row first (table-reader.ts); TXT v1 values never hold one.
 *
 * The writer's side (`wrapCell`) keeps that unwrapping from ever touching our own values: a cell
 * that starts with a quote is written the way Excel writes it, wrapped in quotes with its quotes
 * doubled (`"Summer, baby"` ⇒ `"""Summer, baby"""`). Every other cell is written as it is and
 * cannot look wrapped (it does not start with a quote). So for every value v,
 * `unwrapCell(wrapCell(v)) === v`: TXT v1 round-trips exactly, and Excel, which reads a leading
 * quote as the start of a quoted cell, opens such a cell as the value too.
 */

const QUOTE = 0x22;

export function unwrapCell(cell: string): string {
  if (cell.length < 2 || cell.charCodeAt(0) !== QUOTE || cell.charCodeAt(cell.length - 1) !== QUOTE) return cell;
  const inside = cell.slice(1, -1);
  if (!inside.includes('""') && !inside.includes(',') && !inside.includes('\n')) return cell;
  // Every quote inside is doubled: no quote is left once the pairs are taken out.
  return inside.replaceAll('""', '').includes('"') ? cell : inside.replaceAll('""', '"');
}

/** A cell as the TXT writer writes it (after sanitizing and the formula guard): see above. */
export function wrapCell(cell: string): string {
  return cell.charCodeAt(0) === QUOTE ? `"${cell.replaceAll('"', '""')}"` : cell;
}

/**
 * A cell of a fully quoted track table (`"Title"<TAB>"Artist"`, as tools that quote every field
 * write TSV): any cell wrapped in quotes with every inner quote doubled is unwrapped, whatever it
 * holds. Used for header cells (a column name is never meant in quotes) and for the rows of a
 * table whose header was quoted; never for TXT v1, whose values may be in quotes.
 */
export function unquoteCell(cell: string): string {
  if (cell.length < 2 || cell.charCodeAt(0) !== QUOTE || cell.charCodeAt(cell.length - 1) !== QUOTE) return cell;
  const inside = cell.slice(1, -1);
  return inside.replaceAll('""', '').includes('"') ? cell : inside.replaceAll('""', '"');
}

/** The line's cells, or its first `limit` cells. */
export function tabCells(line: string, limit?: number): string[] {
  return line.split('\t', limit).map(unwrapCell);
}
