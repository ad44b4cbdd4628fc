import type { IssueCollector } from './issue-collector.ts';

/** One physical line of a decoded file with its 1-based number, as issues report it. */
export interface TextLine {
  readonly number: number;
  readonly text: string;
}

/**
 * The physical lines of decoded text, split on LF, CRLF or a lone CR (old Mac files), one at a
 * time. A file is never held as an array of its lines: for a 100,000-track playlist that array
 * and its strings outlive several young-generation collections, and copying and marking them was
 * a large part of a parse. A final line end does not open another (empty) line; empty text has
 * no lines.
 */
export function* textLines(text: string): Generator<TextLine, void, undefined> {
  const length = text.length;
  // The next LF and CR at or after `start` (-1: none left); each is searched again only once passed.
  let lf = text.indexOf('\n');
  let cr = text.indexOf('\r');
  let start = 0;
  let number = 0;
  while (start < length) {
    if (lf !== -1 && lf < start) lf = text.indexOf('\n', start);
    if (cr !== -1 && cr < start) cr = text.indexOf('\r', start);
    const end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
    number += 1;
    if (end === -1) {
      yield { number, text: text.slice(start) };
      return;
    }
    yield { number, text: text.slice(start, end) };
    start = end === cr && lf === end + 1 ? end + 2 : end + 1;
  }
}

/** Whether the text's first line is exactly `line` (ended by CR, LF, CRLF or the end of the text). */
export function firstLineIs(text: string, line: string): boolean {
  if (!text.startsWith(line)) return false;
  const next = text.charCodeAt(line.length);
  return Number.isNaN(next) || next === 0x0a || next === 0x0d;
}

/**
 * Longest line (or CSV record) a line-based reader reads. Far above any row or entry the model can
 * hold (a CSV v1 row with every column at its limit is about 200,000 characters), and far below a
 * file-sized "line" of garbage (a 50 MB upload without a line break), which would otherwise
 * become one track named by noise.
 */
export const MAX_LINE_LENGTH = 1_000_000;

/** Reports a line longer than MAX_LINE_LENGTH as the error that names its line and length. */
export function reportLongLine(issues: IssueCollector, number: number, length: number, consequence = ''): void {
  issues.error(number, 'line_too_long', `line ${number} is ${length} characters long (at most ${MAX_LINE_LENGTH} are read) and was skipped${consequence}`);
}

/**
 * Refuses a file from which nothing was read once its over-long lines were skipped: what is left
 * is no playlist, and an empty import would hide that. The reader returns no playlists with it.
 */
export function refuseLongLinesOnly(issues: IssueCollector, skipped: number): void {
  const lines = skipped === 1 ? '1 line was' : `${skipped} lines were`;
  issues.error(null, 'nothing_readable', `nothing was imported: ${lines} longer than ${MAX_LINE_LENGTH} characters and skipped, and no other line holds a track; check that this is the playlist file you meant to upload`);
}

/**
 * `textLines` without the lines longer than MAX_LINE_LENGTH. With an issue collector each such line
 * is reported (`reportLongLine`) and counted in `skipped`; without one it is passed over silently
 * (a first look at the file, such as choosing its layout, before the reading that reports).
 */
export class ReadableLines implements Iterable<TextLine> {
  readonly #text: string;
  readonly #issues: IssueCollector | null;
  #skipped = 0;

  constructor(text: string, issues: IssueCollector | null) {
    this.#text = text;
    this.#issues = issues;
  }

  /** Lines skipped for their length so far (counted only when reporting). */
  get skipped(): number {
    return this.#skipped;
  }

  *[Symbol.iterator](): Generator<TextLine, void, undefined> {
    for (const line of textLines(this.#text)) {
      if (line.text.length <= MAX_LINE_LENGTH) {
        yield line;
      } else if (this.#issues !== null) {
        this.#skipped += 1;
        reportLongLine(this.#issues, line.number, line.text.length);
      }
    }
  }
}
