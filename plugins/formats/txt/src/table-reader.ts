import { formatKit, type PlaylistInput } from '@opl/plugin-sdk';
import { tabCells } from './tab-cells.ts';

/**
 * The tabular form: a tab-separated header row naming columns (`Title`, `Artist`, `Album`,
 * `Duration`, `ISRC`, `URL`, …), then one track per line, as Excel's "Text (Tab delimited)" writes
 * a sheet. Read through the same column mapping and row reader as CSV's generic layout
 * (`formatKit.trackTableColumns`, `formatKit.TrackTableReader`); cells Excel wrapped in quotes are
 * unwrapped. The file is one playlist named after the upload.
 *
 * Rows: blank lines, lines holding only tabs and `#` lines without a tab (comments) are skipped. A
 * row with more cells than the header names has shifted columns (a tab inside a value): it is
 * skipped with a `too_many_cells` error. A row with fewer cells is kept, the missing cells empty,
 * with a `too_few_cells` warning. Either way its neighbours are read.
 */
export function readTable(lines: Iterator<formatKit.TextLine>, filename: string | null, issues: formatKit.IssueCollector): PlaylistInput[] {
  let header: formatKit.TextLine | undefined;
  // Read by hand rather than with for…of: leaving a for…of would close the iterator the rows come from.
  for (let next = lines.next(); !next.done; next = lines.next()) {
    const trimmed = next.value.text.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    header = next.value;
    break;
  }
  const columns = header === undefined ? null : formatKit.trackTableColumns(tabCells(header.text));
  const name = formatKit.playlistNameFromFilename(filename);
  if (columns === null) return [{ name, tracks: [] }];
  const table = new formatKit.TrackTableReader(columns, issues);
  for (let next = lines.next(); !next.done; next = lines.next()) {
    const line = next.value;
    if (line.text.trim() === '' || (line.text.trimStart().startsWith('#') && !line.text.includes('\t'))) continue;
    const cells = tabCells(line.text);
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
