import { decodeXmlDocument, formatKit, InvalidInput, xmlEncoding, type FormatContext } from '@opl/plugin-sdk';

/**
 * Bytes → the text of a library, forgiving the two kinds of damage real libraries carry, so that a
 * bad byte or character in one track name does not cost the user a library of 60,000 songs:
 *
 * - **Bytes that are not UTF-8** (a library read as UTF-8: a UTF-8 byte order mark, or no other
 *   encoding declared). Each malformed sequence is read as U+FFFD, the replacement character,
 *   exactly as the WHATWG decoder the host offers replaces it — one U+FFFD per maximal bad
 *   subpart, and a bad sequence never swallows the ASCII byte after it. Every byte of markup
 *   (`<`, `>`, `&`, quotes, names) is ASCII, so the document's structure is exactly what it was:
 *   only the damaged text changes, and the same bytes always give the same result. Each affected
 *   line gets an `invalid_utf8` warning naming the line, the byte in it and the text around it.
 * - **Characters XML 1.0 does not allow** (C0 controls other than tab, LF and CR; U+FFFE,
 *   U+FFFF) in character data — element text, CDATA sections, comments — are replaced with U+FFFD
 *   before the XML is parsed, one `invalid_character` warning per affected line. Other tools write
 *   them raw into track names; XML forbids them, and refusing the library for one would be worse.
 *   In markup (a tag name, an attribute, the DOCTYPE, a processing instruction) they are left
 *   alone: the XML parser refuses the document there, with the line and column, as before.
 *
 * Nothing else is relaxed: the DOCTYPE rule, entity references and every other XML check are the
 * SDK parser's, unchanged (a replacement only ever turns one forbidden character into U+FFFD, which
 * is never markup). At most `LISTED_LINES` lines are listed per kind, then one summary warning
 * with the number of further lines. A file that is binary rather than damaged text (a binary
 * property list, the app's `.itl` database, an image) is refused as before.
 */

/** Lines listed per kind of damage; further lines are counted in one summary warning. */
export const LISTED_LINES = 50;
/** Characters of context shown on each side of the first damaged place of a line. */
const CONTEXT = 30;

/** What XML 1.0's Char production excludes and a decoded text can hold (decoding leaves no lone surrogate). */
// eslint-disable-next-line no-control-regex -- control characters are what is detected here
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
// eslint-disable-next-line no-control-regex -- control characters are what is detected here
const FORBIDDEN_ALL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
/** A start tag, end tag or declaration up to its `>`, with `>` allowed inside quoted values (sticky). */
const TAG = /<[^"'>]*(?:(?:"[^"]*"|'[^']*')[^"'>]*)*>?/y;
const BINARY_PLIST = [0x62, 0x70, 0x6c, 0x69, 0x73, 0x74]; // "bplist"

interface Damage {
  readonly line: number;
  /** 1-based: a byte of the line for `invalid_utf8`, a UTF-16 code unit for `invalid_character`. */
  readonly column: number;
  count: number;
  readonly excerpt: string;
  /** The first forbidden character (`invalid_character` only). */
  readonly character: number | null;
}

/** Damaged places, in document order, grouped by line; `LISTED_LINES` lines kept in detail. */
class DamagedLines {
  readonly listed: Damage[] = [];
  /** Lines past the listed ones, and the last of them. */
  moreLines = 0;
  lastLine = 0;
  #currentLine = 0;

  /** A damaged place on `line` (never before the previous one); `detail` is only built for a listed line. */
  add(line: number, detail: () => Omit<Damage, 'count'>): void {
    if (line === this.#currentLine) {
      if (this.moreLines === 0) this.listed[this.listed.length - 1]!.count += 1;
      return;
    }
    this.#currentLine = line;
    if (this.listed.length < LISTED_LINES) this.listed.push({ ...detail(), count: 1 });
    else {
      this.moreLines += 1;
      this.lastLine = line;
    }
  }
}

const quoted = (text: string): string => `"${text}"`;

/** `text` without what a one-line message should not hold (forbidden characters, CR, tab). */
function printable(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is replaced here
  return text.replace(/[\u0000-\u001F\u007F\uFFFE\uFFFF]/g, (char) => (char === '\t' || char === '\r' || char === '\n' ? ' ' : '\uFFFD')).trim();
}

/**
 * The text around `text[at]` on its line (`lineStart`…`lineEnd`), `CONTEXT` characters each side,
 * with an ellipsis where it was cut (or where `cutBefore` / `cutAfter` say the line goes on),
 * never splitting a surrogate pair.
 */
function excerptOf(text: string, at: number, lineStart: number, lineEnd: number, cutBefore = false, cutAfter = false): string {
  let start = Math.max(lineStart, at - CONTEXT);
  let end = Math.min(lineEnd, at + CONTEXT + 1);
  const code = (index: number): number => text.charCodeAt(index);
  if (start > lineStart && code(start) >= 0xdc00 && code(start) <= 0xdfff) start += 1;
  if (end < lineEnd && code(end - 1) >= 0xd800 && code(end - 1) <= 0xdbff) end -= 1;
  return `${start > lineStart || cutBefore ? '…' : ''}${printable(text.slice(start, end))}${end < lineEnd || cutAfter ? '…' : ''}`;
}

/**
 * Where the host's UTF-8 decoder puts a U+FFFD (WHATWG "UTF-8 decode"): a byte that cannot start
 * a sequence, or a sequence cut short, which then ends before the byte that broke it (that byte is
 * read again, so an ASCII byte such as `<` or a line feed is never lost). `bytes[start…]` is read.
 */
function findInvalidUtf8(bytes: Uint8Array, start: number, decode: FormatContext['decodeText']): DamagedLines {
  const damage = new DamagedLines();
  // A byte order mark (`start` 3) holds no line feed.
  let line = 1;
  let lineStart = 0;
  const size = bytes.length;
  const bad = (offset: number): void => {
    damage.add(line, () => {
      let lineEnd = bytes.indexOf(0x0a, offset);
      if (lineEnd === -1) lineEnd = size;
      // Context in bytes (up to 4 per character), cut at character starts, then decoded as the text is.
      let from = Math.max(lineStart, offset - CONTEXT * 4);
      while (from < offset && (bytes[from]! & 0xc0) === 0x80) from += 1;
      let to = Math.min(lineEnd, offset + CONTEXT * 4);
      while (to < lineEnd && (bytes[to]! & 0xc0) === 0x80) to += 1;
      const before = decode(bytes.slice(from, offset));
      const text = before + decode(bytes.slice(offset, to));
      const excerpt = excerptOf(text, before.length, 0, text.length, from > lineStart, to < lineEnd);
      return { line, column: offset - lineStart + 1, excerpt, character: null };
    });
  };
  let index = start;
  while (index < size) {
    const lead = bytes[index]!;
    if (lead < 0x80) {
      if (lead === 0x0a) {
        line += 1;
        lineStart = index + 1;
      }
      index += 1;
      continue;
    }
    const sequence = formatKit.utf8SequenceAt(bytes, index);
    if (sequence < 0) bad(index);
    index += Math.abs(sequence);
  }
  return damage;
}

/** Where the text of a document read as UTF-8 (the SDK's `xmlEncoding` decides) starts; null for another encoding. */
function utf8Body(bytes: Uint8Array): number | null {
  const { encoding, start } = xmlEncoding(bytes);
  return encoding === 'utf-8' ? start : null;
}

/** Refuses a file that is not text at all, naming what it probably is. */
function refuseBinary(firstBad: Damage | undefined): never {
  const where = firstBad === undefined ? '' : ` (line ${firstBad.line}, byte ${firstBad.column} of the line, is the first that is not UTF-8)`;
  throw new InvalidInput(`the file is not text: it looks like a binary file${where}, not an exported library (export it with File › Library › Export Library…; the app's own .itl database cannot be read)`);
}

/** Text of the character data where XML forbids a character, with it replaced by U+FFFD. */
function replaceForbidden(text: string): { readonly text: string; readonly damage: DamagedLines } {
  const damage = new DamagedLines();
  const pieces: string[] = [];
  let copied = 0;
  // The token covering [tokenStart, tokenEnd): character data (text, CDATA, comment) or markup.
  let tokenEnd = 0;
  let tokenIsText = true;
  let line = 1;
  let lineStart = 0;
  let counted = 0;
  FORBIDDEN_ALL.lastIndex = 0;
  for (let match = FORBIDDEN_ALL.exec(text); match !== null; match = FORBIDDEN_ALL.exec(text)) {
    const at = match.index;
    while (at >= tokenEnd) {
      const start = tokenEnd;
      if (text.charCodeAt(start) !== 0x3c) {
        const next = text.indexOf('<', start);
        tokenEnd = next === -1 ? text.length : next;
        tokenIsText = true;
      } else if (text.startsWith('<!--', start)) {
        const end = text.indexOf('-->', start + 4);
        tokenEnd = end === -1 ? text.length : end + 3;
        tokenIsText = true;
      } else if (text.startsWith('<![CDATA[', start)) {
        const end = text.indexOf(']]>', start + 9);
        tokenEnd = end === -1 ? text.length : end + 3;
        tokenIsText = true;
      } else if (text.startsWith('<?', start)) {
        const end = text.indexOf('?>', start + 2);
        tokenEnd = end === -1 ? text.length : end + 2;
        tokenIsText = false;
      } else {
        TAG.lastIndex = start;
        TAG.exec(text);
        tokenEnd = Math.max(TAG.lastIndex, start + 1);
        tokenIsText = false;
      }
    }
    // Markup: left for the XML parser to refuse with its position.
    if (!tokenIsText) continue;
    for (let next = text.indexOf('\n', counted); next !== -1 && next < at; next = text.indexOf('\n', next + 1)) {
      line += 1;
      lineStart = next + 1;
    }
    counted = at;
    damage.add(line, () => {
      const lineEnd = text.indexOf('\n', at);
      return { line, column: at - lineStart + 1, excerpt: excerptOf(text, at, lineStart, lineEnd === -1 ? text.length : lineEnd), character: text.charCodeAt(at) };
    });
    pieces.push(text.slice(copied, at), '\uFFFD');
    copied = at + 1;
  }
  if (copied === 0) return { text, damage };
  pieces.push(text.slice(copied));
  return { text: pieces.join(''), damage };
}

const codePoint = (code: number): string => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
const plural = (count: number, one: string, many: string): string => (count === 1 ? one : many);

type Warning = readonly [line: number | null, code: string, message: string, column: number | null];

function utf8Warnings(damage: DamagedLines): Warning[] {
  const warnings: Warning[] = damage.listed.map(({ line, column, count, excerpt }) => {
    const what = count === 1 ? 'a byte sequence that is not UTF-8 was' : `${count} byte sequences that are not UTF-8 were`;
    return [line, 'invalid_utf8', `line ${line}, byte ${column} of the line: ${what} read as U+FFFD (\uFFFD): ${quoted(excerpt)}`, column];
  });
  if (damage.moreLines > 0) {
    warnings.push([null, 'invalid_utf8', `${damage.moreLines} more ${plural(damage.moreLines, 'line holds', 'lines hold')} bytes that are not UTF-8 (the last is line ${damage.lastLine}); each bad sequence was read as U+FFFD`, null]);
  }
  return warnings;
}

function forbiddenWarnings(damage: DamagedLines): Warning[] {
  const warnings: Warning[] = damage.listed.map(({ line, column, count, excerpt, character }) => {
    const what = count === 1 ? `a character XML does not allow (${codePoint(character!)}) was` : `${count} characters XML does not allow (the first ${codePoint(character!)}) were`;
    return [line, 'invalid_character', `line ${line}, column ${column}: ${what} replaced with U+FFFD (\uFFFD): ${quoted(excerpt)}`, column];
  });
  if (damage.moreLines > 0) {
    warnings.push([null, 'invalid_character', `${damage.moreLines} more ${plural(damage.moreLines, 'line holds', 'lines hold')} control characters XML does not allow (the last is line ${damage.lastLine}); each was replaced with U+FFFD`, null]);
  }
  return warnings;
}

/** Both kinds in line order (bytes before characters on the same line), the summaries last. */
function report(warnings: Warning[], issues: formatKit.IssueCollector): void {
  const order = (line: number | null): number => line ?? Number.MAX_SAFE_INTEGER;
  // Array#sort is stable: on the same line the UTF-8 warning (listed first) stays first.
  warnings.sort((a, b) => order(a[0]) - order(b[0]));
  for (const [line, code, message, column] of warnings) issues.warn(line, code, message, column);
}

/** The library's text, ready for the XML parser; damage found on the way is reported into `issues`. */
export function decodeLibrary(bytes: Uint8Array, decode: FormatContext['decodeText'], issues: formatKit.IssueCollector): string {
  if (BINARY_PLIST.every((byte, index) => bytes[index] === byte)) {
    throw new InvalidInput('this is a binary property list, not the XML library: export the library from the app with File › Library › Export Library… (an .xml file)');
  }
  const start = utf8Body(bytes);
  let text: string;
  let invalid: DamagedLines | null = null;
  if (start === null) {
    text = decodeXmlDocument(bytes, decode);
  } else {
    const body = start === 0 ? bytes : bytes.slice(start);
    if (!formatKit.isValidUtf8(body)) invalid = findInvalidUtf8(bytes, start, decode);
    text = decode(body, 'utf-8');
  }
  if (invalid === null && !FORBIDDEN.test(text)) return text;
  if (formatKit.looksBinary(text, { nulIsBinary: false })) refuseBinary(invalid?.listed[0]);
  const replaced = replaceForbidden(text);
  report([...(invalid === null ? [] : utf8Warnings(invalid)), ...forbiddenWarnings(replaced.damage)], issues);
  return replaced.text;
}
