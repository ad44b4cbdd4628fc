import type { formatKit } from '@opl/plugin-sdk';

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

export function* readRecords(text: string, dialect: Dialect, issues: formatKit.IssueCollector): Generator<CsvRecord> {
  const delimiter = dialect.delimiter.charCodeAt(0);
  const length = text.length;
  let pos = dialect.start;
  let line = dialect.startLine;
  let recoveries = 0;
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
    const recordLine = line;
    const cells: string[] = [];
    let overflow = false;
    let blank = true;
    let broken = false;
    let malformedReported = false;

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
        // Text between the closing quote and the next delimiter or line end is kept, with a warning.
        let end = pos;
        while (end < length) {
          const code = text.charCodeAt(end);
          if (code === delimiter || code === LF || code === CR) break;
          end += 1;
        }
        if (end > pos) {
          value += text.slice(pos, end);
          if (!malformedReported) {
            issues.add(recordLine, 'malformed_quotes', 'a field has text after its closing quote; it was read as part of the value', 'warning', cells.length + 1);
            malformedReported = true;
          }
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
      pos += code === CR && text.charCodeAt(pos + 1) === LF ? 2 : 1;
      line += 1;
      break;
    }
    if (broken || blank) continue;
    yield { line: recordLine, cells, overflow };
  }
}
