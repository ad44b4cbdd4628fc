/**
 * How many tracks a file declares, counted over its bytes before any format plugin reads it, so
 * that a file far over OPL_IMPORT_MAX_TRACKS is refused before the expensive work: a 2.8 MB M3U
 * of 1,400,000 one-character lines kept the engine's event loop busy for 9 s and drove it to
 * 1.7 GB, and the reader's sandbox to its memory limit, only to be refused by the count after.
 *
 * The count is an estimate, not a parse: each format's entry marker (a location line of M3U, a
 * `FileN=` of PLS, a `<media` of WPL, a `<track` of XSPF, a `"title"` of JSON, a row of TXT or
 * CSV outside quoted cells). Rows a reader skips (malformed, comments it knows) are counted all
 * the same, so callers refuse only well beyond the limit. An iTunes library is not estimated: its
 * playlists name tracks by id and the built-in lists it skips hold them again, so no count of
 * markers says how many it keeps. Pure and linear in the bytes; no I/O.
 */

/** Line-oriented formats whose every non-blank, non-comment line is one entry. */
const LINE_FORMATS = new Set(['m3u8', 'txt']);

/** The text of an upload as one character per byte (markers are ASCII), or decoded when UTF-16. */
function textOf(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0b || code === 0x0c || code === 0xa0 || code === 0xfeff;
}

/** Lines that hold something other than white space and do not start with `#` (or, for PLS, that start with `FileN=`). */
function countLines(text: string, accept: (text: string, start: number) => boolean): number {
  let count = 0;
  let start = 0;
  const length = text.length;
  while (start < length) {
    let end = start;
    while (end < length) {
      const code = text.charCodeAt(end);
      if (code === 0x0a || code === 0x0d) break;
      end++;
    }
    let first = start;
    while (first < end && isSpace(text.charCodeAt(first))) first++;
    if (first < end && accept(text, first)) count++;
    // \r\n, \n and a lone \r each end a line.
    start = end + (text.charCodeAt(end) === 0x0d && text.charCodeAt(end + 1) === 0x0a ? 2 : 1);
  }
  return count;
}

/** Non-blank CSV records: line breaks inside a quoted cell do not end one. The header is one of them. */
function countCsvRecords(text: string): number {
  let count = 0;
  let quoted = false;
  let filled = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x22) {
      quoted = !quoted;
      filled = true;
    } else if (!quoted && (code === 0x0a || code === 0x0d)) {
      if (filled) count++;
      filled = false;
    } else if (!filled && !isSpace(code) && code !== 0x2c && code !== 0x3b && code !== 0x09) {
      filled = true;
    }
  }
  return filled ? count + 1 : count;
}

/** Occurrences of `<name` followed by white space, `>` or `/` (so `<trackList>` is not a `<track`). */
function countElements(text: string, name: string): number {
  const open = `<${name}`;
  let count = 0;
  for (let index = text.indexOf(open); index !== -1; index = text.indexOf(open, index + open.length)) {
    const next = text.charCodeAt(index + open.length);
    if (next === 0x3e || next === 0x2f || next === 0x20 || next === 0x09 || next === 0x0a || next === 0x0d) count++;
  }
  return count;
}

function countOccurrences(text: string, needle: string): number {
  let count = 0;
  for (let index = text.indexOf(needle); index !== -1; index = text.indexOf(needle, index + needle.length)) count++;
  return count;
}

/**
 * The entries `bytes` declares for the reader of `format` (a format plugin's name: csv, txt,
 * m3u8, pls, wpl, xspf, xml, json), or null when the format is not estimated.
 */
export function estimateEntries(format: string, bytes: Uint8Array): number | null {
  const name = format.toLowerCase();
  if (!LINE_FORMATS.has(name) && !['csv', 'pls', 'wpl', 'xspf', 'xml', 'json'].includes(name)) return null;
  const text = textOf(bytes);
  if (LINE_FORMATS.has(name)) return countLines(text, (line, first) => line.charCodeAt(first) !== 0x23);
  switch (name) {
    case 'pls':
      return countLines(text, (line, first) => /^file\d/i.test(line.slice(first, first + 5)));
    case 'csv':
      // The header names the columns; every other record is a row.
      return Math.max(0, countCsvRecords(text) - 1);
    case 'wpl':
      return countElements(text, 'media');
    case 'xml':
      return countElements(text, 'track');
    case 'xspf':
      // JSPF (JSON) is read by the XSPF reader too: its tracks are objects with a title or a location.
      return /^\s*[[{]/.test(text.slice(0, 1_024)) ? countOccurrences(text, '"title"') : countElements(text, 'track');
    default:
      return countOccurrences(text, '"title"');
  }
}
