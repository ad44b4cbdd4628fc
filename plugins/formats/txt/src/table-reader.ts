import { formatKit, type PlaylistInput } from '@opl/plugin-sdk';
import { tabCells, unquoteCell } from './tab-cells.ts';
import { headerCells, isTableHeader } from './txt-layout.ts';

/**
 * The tabular form: a tab-separated header row naming columns (`Title`, `Artist`, `Album`,
 * `Duration`, `ISRC`, `URL`, …), then one track per line, as Excel's "Text (Tab delimited)" writes
 * a sheet. Read through the same column mapping and row reader as CSV's generic layout
 * (`formatKit.trackTableColumns`, `formatKit.TrackTableReader`); cells Excel wrapped in quotes are
 * unwrapped. The header is the first line that is not blank or a `#` comment; a `#` line that is
 * itself a header (Rekordbox's first column is `#`) is the header. Quotes around header names are
 * removed, and a header in quotes (`"Title"<TAB>"Artist"`) makes the rows' quoted cells unquoted
 * too. A header naming neither a title nor a link column (`Artist<TAB>Album`) is refused with one
 * `unrecognized_columns` error, as CSV refuses it; a link column without a title column gives
 * tracks by link. The file is one playlist named after the upload.
 *
 * Rows: blank lines, lines holding only tabs and `#` lines without a tab (comments) are skipped. A
 * row with more cells than the header names has shifted columns (a tab inside a value): it is
 * skipped with a `too_many_cells` error. A row with fewer cells is kept, the missing cells empty,
 * with a `too_few_cells` warning. Either way its neighbours are read.
 */
export function readTable(lines: Iterator<formatKit.TextLine>, filename: string | null, issues: formatKit.IssueCollector): PlaylistInput[] {
  let header: { readonly line: number; readonly cells: string[]; readonly quoted: boolean } | undefined;
  // Read by hand rather than with for…of: leaving a for…of would close the iterator the rows come from.
  for (let next = lines.next(); !next.done; next = lines.next()) {
    const trimmed = next.value.text.trim();
    if (trimmed === '') continue;
    const cells = headerCells(next.value.text);
    // The header the layout detection found: the first line that is no comment, or a `#` line that is a header.
    if (trimmed.startsWith('#') && (cells === null || !isTableHeader(cells))) continue;
    const raw = next.value.text.split('\t', cells?.length ?? 1);
    header = { line: next.value.number, cells: cells ?? [], quoted: raw.some((cell) => cell.length >= 2 && cell.startsWith('"') && cell.endsWith('"')) };
    break;
  }
  const name = formatKit.playlistNameFromFilename(filename);
  if (header === undefined) return [{ name, tracks: [] }];
  const columns = formatKit.trackTableColumns(header.cells);
  if (columns === null) {
    issues.add(
      header.line,
      'unrecognized_columns',
      `the first row (tab-separated: ${formatKit.shownHeaderCells(header.cells)}) names no title or link column this reader knows (Title, Track, Song, Name, URL, Spotify URI, …); nothing was imported`,
    );
    return [];
  }
  // A header in quotes means every cell is quoted: the rows' quotes are removed too (see tab-cells.ts).
  const cellsOf = header.quoted ? (text: string) => text.split('\t').map(unquoteCell) : (text: string) => tabCells(text);
  const table = new formatKit.TrackTableReader(columns, issues);
  for (let next = lines.next(); !next.done; next = lines.next()) {
    const line = next.value;
    if (line.text.trim() === '' || (line.text.trimStart().startsWith('#') && !line.text.includes('\t'))) continue;
    const cells = cellsOf(line.text);
    if (cells.length > columns.width) {
      issues.add(line.number, 'too_many_cells', `the row has ${cells.length} tab-separated cells but the header names ${columns.width}; its values cannot be matched to columns, so the row was skipped`, 'error', columns.width + 1);
      continue;
    }
    if (cells.length < columns.width) {
      issues.add(line.number, 'too_few_cells', `the row has ${cells.length} tab-separated cells but the header names ${columns.width}; the missing cells were read as empty`, 'warning', cells.length + 1);
    }
    table.add(line.number, cells);
  }
  const tracks = table.finish();
  if (tracks.length === 0) issues.add(null, 'no_tracks', 'the file has a header row but no track rows', 'warning');
  return [{ name, tracks }];
}
