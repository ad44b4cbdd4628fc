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
