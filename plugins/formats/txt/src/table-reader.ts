import { formatKit, type PlaylistInput } from '@opl/plugin-sdk';
import { tabCells, unquoteCell } from './tab-cells.ts';
import { headerCells, isTableHeader } from './txt-layout.ts';

/** At most this many lines after a row's first are joined into it: more is no cell but a stray quote. */
const MAX_JOINED_LINES = 20;
const QUOTE = 0x22;
const TAB = 0x09;

/**
 * Whether a row's line ends inside a cell wrapped in quotes (`open`), one line at a time so a row
 * joined from many lines is scanned once. `continued`: the line continues such a cell from the
 * line before. `broken` when a cell that spans lines is closed by a quote followed by other text
 * than a tab or the line's end (`"Heroes` on one line, `"Fame"` on the next: two rows, no cell);
 * else `closed`. A cell that merely starts with a quoted word on one line (`"Heroes" (Live)`) is closed.
 */
function quoteState(line: string, continued: boolean): 'open' | 'closed' | 'broken' {
  let index = 0;
  let quoted = continued;
  for (;;) {
    const spans = quoted;
    if (!quoted && line.charCodeAt(index) === QUOTE) {
      quoted = true;
      index += 1;
    }
    if (quoted) {
      for (;;) {
        const close = line.indexOf('"', index);
        if (close === -1) return 'open';
        if (line.charCodeAt(close + 1) !== QUOTE) {
          index = close + 1;
          break;
        }
        // A doubled quote inside the cell.
        index = close + 2;
      }
      quoted = false;
      if (spans && index < line.length && line.charCodeAt(index) !== TAB) return 'broken';
    }
    const tab = line.indexOf('\t', index);
    if (tab === -1) return 'closed';
    index = tab + 1;
  }
}

/**
 * The text of the row starting at `first`: its line, or its line joined with the next ones when
 * it opens a wrapped cell that closes on one of them. Lines read ahead but not joined go back.
 */
function rowText(first: formatKit.TextLine, next: () => formatKit.TextLine | undefined, putBack: (lines: formatKit.TextLine[]) => void): string {
  if (quoteState(first.text, false) !== 'open') return first.text;
  const read: formatKit.TextLine[] = [];
  let text = first.text;
  while (read.length < MAX_JOINED_LINES) {
    const line = next();
    if (line === undefined) break;
    read.push(line);
    text += `\n${line.text}`;
    const state = quoteState(line.text, true);
    if (state === 'closed') return text;
    if (state === 'broken') break;
  }
  putBack(read);
  return first.text;
}

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
 * skipped with a `too_many_cells` error, unless the extra cells are empty (trailing tabs shift
 * nothing). A row with fewer cells is kept, the missing cells empty,
 * with a `too_few_cells` warning. Either way its neighbours are read.
 *
 * A cell holding a line break (Alt+Enter in Excel) is written by Excel in quotes over several
 * lines: a row whose last cell opens a quote that does not close on its line is joined with the
 * lines after it until the quote closes before a tab or the line's end (`rowText`), so the cell
 * is one value with its line breaks, not several malformed rows. A quote typed by hand that never
 * closes that way leaves every line a row of its own, as before.
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
  // Lines read ahead for a wrapped cell and not joined, read again first.
  const pending: formatKit.TextLine[] = [];
  const nextLine = (): formatKit.TextLine | undefined => {
    if (pending.length > 0) return pending.shift();
    const next = lines.next();
    return next.done === true ? undefined : next.value;
  };
  for (let line = nextLine(); line !== undefined; line = nextLine()) {
    if (line.text.trim() === '' || (line.text.trimStart().startsWith('#') && !line.text.includes('\t'))) continue;
    const cells = cellsOf(rowText(line, nextLine, (lines) => pending.unshift(...lines)));
    // Empty cells after the last column (trailing tabs) shift nothing.
    if (cells.length > columns.width && cells.slice(columns.width).some((cell) => cell.trim() !== '')) {
      issues.add(line.number, 'too_many_cells', `the row has ${cells.length} tab-separated cells but the header names ${columns.width}; its values cannot be matched to columns, so the row was skipped`, 'error', columns.width + 1);
      continue;
    }
    if (cells.length < columns.width) {
      issues.add(line.number, 'too_few_cells', `the row has ${cells.length} tab-separated cells but the header names ${columns.width}; the missing cells were read as empty`, 'warning', cells.length + 1);
    }
    table.add(line.number, cells);
  }
  const tracks = table.finish();
  formatKit.markLocalFiles(tracks);
  if (tracks.length === 0) issues.add(null, 'no_tracks', 'the file has a header row but no track rows', 'warning');
  return [{ name, tracks }];
}
