import { formatKit } from '@opl/plugin-sdk';

/**
 * An RFC 4180 record reader over the decoded text, in one linear pass.
 *
 * - Fields are separated by the dialect's delimiter (`,`, `;` or tab); records end at CRLF, LF or
 *   a lone CR (old Mac files).
 * - A field that starts with `"` is quoted: it runs to the next `"` not doubled, and may contain
 *   the delimiter, line breaks and `""` (one quote). Line breaks inside stay part of the value.
 * - Lenient where real files are sloppy, with a warning where data may be off: a `"` inside an
 *   unquoted field is kept as a character; text after a closing quote (`"a"b`) is appended.
 * - A quote that never closes would swallow the rest of the file: that record is dropped with an
 *   error and reading resumes on the line after the one where the quote opened (a bounded number
 *   of times, so a hostile file cannot make the reader rescan it again and again).
 * - A stray quote at the start of a field (`"Broken,A`) that a later quote happens to close would
 *   swallow the rows in between into one cell. A quoted field spanning lines is a cell with line
 *   breaks (Alt+Enter in Excel) only when the row it makes is well-formed; it is a stray quote
 *   (`unbalanced_quote`: the row's first line is dropped with an error and reading resumes on the
 *   next line, so the swallowed rows are read as the rows they are) when text follows the quote
 *   that closes it (`Good3",D`), when the row gets more cells than the header names, or when the
 *   row gets fewer and a line inside the field has as many cells as the header, i.e. is a row of
 *   its own. A well-formed multi-line cell is never second-guessed: its row has the header's width
 *   and nothing after its closing quote. Rescanning is bounded: recoveries may re-read at most as
 *   many characters as the file has, so the reader stays linear.
 * - A record longer than MAX_LINE_LENGTH characters (a 50 MB "row" of garbage) is dropped with a
 *   `line_too_long` error naming its line and length; a header that long ends the reading.
 * - Blank lines are no records. Records report the physical line they start on (1-based).
 * - A record keeps at most MAX_CELLS cells; the reader still scans to its end and flags it.
 */

export type Delimiter = ',' | ';' | '\t';

export interface CsvRecord {
  readonly line: number;
  readonly cells: string[];
  /** More cells than MAX_CELLS: only the first ones were kept. */
  readonly overflow: boolean;
}

export const MAX_CELLS = 1_000;
const MAX_QUOTE_RECOVERIES = 3;

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

export interface Dialect {
  readonly delimiter: Delimiter;
  /** Where records start: after an Excel `sep=` line when there is one. */
  readonly start: number;
  readonly startLine: number;
}

const DELIMITER_NAMES: Record<Delimiter, string> = { ',': 'comma', ';': 'semicolon', '\t': 'tab' };

export function delimiterName(delimiter: Delimiter): string {
  return DELIMITER_NAMES[delimiter];
}

/**
 * The delimiter, from the header line: whichever of `,`, `;` and tab occurs most often outside
 * quotes in the first non-blank line (ties: comma, then semicolon, then tab; none: comma, a one-
 * column file). An Excel `sep=X` first line names it outright.
 */
export function detectDialect(text: string): Dialect {
  const sep = /^sep=([,;\t])[ \t]*(\r\n|\n|\r|$)/i.exec(text.slice(0, 16));
  if (sep) return { delimiter: sep[1] as Delimiter, start: sep[0].length, startLine: sep[2] === '' ? 1 : 2 };
  const counts = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  let seenContent = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === QUOTE) {
      quoted = !quoted;
      seenContent = true;
    } else if (quoted) {
      continue;
    } else if (code === LF || code === CR) {
      if (seenContent) break;
    } else {
      const char = text[index] as string;
      if (char === ',' || char === ';' || char === '\t') counts[char] += 1;
      if (char !== ' ' && char !== '\t') seenContent = true;
    }
  }
  let best: Delimiter = ',';
  for (const candidate of [';', '\t'] as const) if (counts[candidate] > counts[best]) best = candidate;
  return { delimiter: best, start: 0, startLine: 1 };
}

/** Line breaks in text[from, to): LF, CRLF and lone CR each count once. */
function countBreaks(text: string, from: number, to: number): number {
  let breaks = 0;
  for (let index = from; index < to; index++) {
    const code = text.charCodeAt(index);
    if (code === LF) breaks += 1;
    else if (code === CR && text.charCodeAt(index + 1) !== LF) breaks += 1;
  }
  return breaks;
}

/** Index just after the line break that ends the physical line containing `index` (or the text's end). */
function nextLineStart(text: string, index: number): number {
  for (let at = index; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === LF) return at + 1;
    if (code === CR) return text.charCodeAt(at + 1) === LF ? at + 2 : at + 1;
  }
  return text.length;
}

/** Whether a line inside a quoted field, read as a row of its own, has at least `width` cells. */
function holdsRow(text: string, from: number, to: number, delimiter: string, width: number): boolean {
  // The field's first line is the broken row itself: only the lines after it count.
  let at = nextLineStart(text, from);
  while (at < to) {
    const end = Math.min(nextLineStart(text, at), to);
    let cells = 1;
    for (let index = text.indexOf(delimiter, at); index !== -1 && index < end; index = text.indexOf(delimiter, index + 1)) {
      if (++cells >= width) return true;
    }
    at = end;
  }
  return false;
}

/** What the reading skipped for length: a reader that ends up with nothing else refuses the file. */
export interface RecordStats {
  longRecords: number;
}

export function* readRecords(text: string, dialect: Dialect, issues: formatKit.IssueCollector, stats: RecordStats = { longRecords: 0 }): Generator<CsvRecord> {
  const delimiter = dialect.delimiter.charCodeAt(0);
  const length = text.length;
  let pos = dialect.start;
  let line = dialect.startLine;
  let recoveries = 0;
  // Characters that stray-quote recoveries may still read a second time (see above).
  let rescanBudget = length;
  // The header's width, once the header (the first record) has been read.
  let width: number | null = null;
  // The first LF and CR at or after the last search (-1: none left). Quoted fields rarely hold a
  // line break: counting is only needed when one of them lies before the closing quote.
  let nextLf = text.indexOf('\n', pos);
  let nextCr = text.indexOf('\r', pos);
  const breaksBefore = (from: number, to: number): number => {
    if (nextLf !== -1 && nextLf < from) nextLf = text.indexOf('\n', from);
    if (nextCr !== -1 && nextCr < from) nextCr = text.indexOf('\r', from);
    const first = nextLf === -1 ? nextCr : nextCr === -1 ? nextLf : Math.min(nextLf, nextCr);
    return first === -1 || first >= to ? 0 : countBreaks(text, first, to);
  };

  while (pos < length) {
    const recordStart = pos;
    const recordLine = line;
    const cells: string[] = [];
    let overflow = false;
    let blank = true;
    let broken = false;
    // The first text after a closing quote: reported once the record is kept.
    let malformedColumn: number | null = null;
    // The first quoted field that spans lines: where its content runs, and whether text follows its close.
    let span: { readonly from: number; readonly to: number; readonly column: number } | null = null;
    let textAfterSpan = false;
    let recordEnd = length;

    for (;;) {
      // One field, starting at pos.
      let value: string;
      if (text.charCodeAt(pos) === QUOTE) {
        blank = false;
        const openLine = line;
        const openAt = pos;
        // The value, joined piece by piece only when it holds a doubled quote (one slice otherwise).
        value = '';
        pos += 1;
        for (;;) {
          const close = text.indexOf('"', pos);
          if (close === -1) {
            broken = true;
            break;
          }
          line += breaksBefore(pos, close);
          const piece = text.slice(pos, close);
          value = value === '' ? piece : value + piece;
          if (text.charCodeAt(close + 1) === QUOTE) {
            value += '"';
            pos = close + 2;
            continue;
          }
          pos = close + 1;
          break;
        }
        if (broken) {
          if (recoveries < MAX_QUOTE_RECOVERIES) {
            recoveries += 1;
            issues.add(openLine, 'unterminated_quote', `a quoted field opened on line ${openLine} never closes; line ${openLine} was skipped and reading went on with the next line`, 'error', cells.length + 1);
            pos = nextLineStart(text, openAt);
            line = openLine + 1;
          } else {
            issues.add(openLine, 'unterminated_quote', `a quoted field opened on line ${openLine} never closes; the rest of the file was not read`, 'error', cells.length + 1);
            pos = length;
          }
          break;
        }
        const spans = line > openLine;
        if (spans && span === null) span = { from: openAt, to: pos, column: cells.length + 1 };
        // Text between the closing quote and the next delimiter or line end is kept, with a warning.
        let end = pos;
        while (end < length) {
          const code = text.charCodeAt(end);
          if (code === delimiter || code === LF || code === CR) break;
          end += 1;
        }
        if (end > pos) {
          value += text.slice(pos, end);
          malformedColumn ??= cells.length + 1;
          if (spans) textAfterSpan = true;
          pos = end;
        }
      } else {
        let end = pos;
        while (end < length) {
          const code = text.charCodeAt(end);
          if (code === delimiter || code === LF || code === CR) break;
          end += 1;
        }
        value = text.slice(pos, end);
        if (value.trim() !== '') blank = false;
        pos = end;
      }
      if (cells.length < MAX_CELLS) cells.push(value);
      else overflow = true;

      if (pos >= length) break;
      const code = text.charCodeAt(pos);
      if (code === delimiter) {
        blank = false;
        pos += 1;
        // A delimiter at the very end of the text still opens one (empty) last field.
        if (pos >= length) {
          if (cells.length < MAX_CELLS) cells.push('');
          else overflow = true;
          break;
        }
        continue;
      }
      // A line break ends the record.
      recordEnd = pos;
      pos += code === CR && text.charCodeAt(pos + 1) === LF ? 2 : 1;
      line += 1;
      break;
    }
    if (broken || blank) continue;

    if (span !== null && width !== null) {
      const extra = overflow || (cells.length > width && cells.slice(width).some((cell) => cell.trim() !== ''));
      const reason = textAfterSpan
        ? 'text follows the quote that would close it'
        : extra
          ? `closing it there would make a row of ${overflow ? `more than ${MAX_CELLS}` : cells.length} cells where the header names ${width}`
          : cells.length < width && holdsRow(text, span.from, span.to, dialect.delimiter, width)
            ? 'lines it would take in are rows of their own'
            : null;
      const resume = reason === null ? pos : nextLineStart(text, recordStart);
      if (reason !== null && pos - resume <= rescanBudget) {
        rescanBudget -= pos - resume;
        issues.add(
          recordLine,
          'unbalanced_quote',
          `line ${recordLine} opens a quoted field that does not close on that line, and the quote further down cannot close it (${reason}); line ${recordLine} was skipped and reading went on with the next line`,
          'error',
          span.column,
        );
        pos = resume;
        line = recordLine + 1;
        // Searched again from here: the line ends already passed lie ahead once more.
        nextLf = text.indexOf('\n', pos);
        nextCr = text.indexOf('\r', pos);
        continue;
      }
    }
    if (recordEnd - recordStart > formatKit.MAX_LINE_LENGTH) {
      stats.longRecords += 1;
      const what = width === null ? 'header row' : 'row';
      issues.add(
        recordLine,
        'line_too_long',
        `the ${what} starting on line ${recordLine} is ${recordEnd - recordStart} characters long (at most ${formatKit.MAX_LINE_LENGTH} are read) and was skipped${width === null ? '; without a header no row can be read, so nothing was imported' : ''}`,
        'error',
      );
      if (width === null) return;
      continue;
    }
    if (malformedColumn !== null) issues.add(recordLine, 'malformed_quotes', 'a field has text after its closing quote; it was read as part of the value', 'warning', malformedColumn);
    width ??= cells.length;
    yield { line: recordLine, cells, overflow };
  }
}
