/**
 * Content sniffing: for uploads whose name says nothing about the format, and (contentSignature)
 * for content that declares its format whatever the name says. Only the first bytes are
 * looked at; the answer is a format name as the format plugins declare it (`m3u8`, `xspf`, …).
 * Pure: no I/O, deterministic.
 */

/** How much of the upload the sniffer reads. */
export const SNIFF_BYTES = 64 * 1024;

/** Column names that make a first line a spreadsheet header rather than an "Artist - Title" line. */
const HEADER_WORDS = new Set([
  'schema_version',
  'title',
  'track',
  'track name',
  'track title',
  'song',
  'song name',
  'name',
  'titel',
  'titre',
  'artist',
  'artist name',
  'artist name(s)',
  'artists',
  'album',
  'isrc',
]);

function decodeHead(head: Uint8Array): string | undefined {
  const bytes = head.subarray(0, SNIFF_BYTES);
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder('utf-8').decode(bytes.subarray(3));
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  // NUL bytes without a UTF-16 byte order mark: binary, not a playlist.
  if (bytes.includes(0)) return undefined;
  return new TextDecoder('windows-1252').decode(bytes);
}

/** The cells of a header line, split on its most frequent delimiter (`,`, `;` or tab). */
export function headerCells(line: string): string[] | undefined {
  const counts = [',', ';', '\t'].map((delimiter) => ({ delimiter, count: line.split(delimiter).length - 1 }));
  counts.sort((a, b) => b.count - a.count);
  const best = counts[0]!;
  if (best.count === 0) return undefined;
  return line.split(best.delimiter).map((cell) => cell.trim().replace(/^"(.*)"$/, '$1').trim().toLowerCase());
}

/** True when the first meaningful line is a spreadsheet header naming a title-like column. */
export function isTabularHeader(line: string): boolean {
  if (/^sep=.$/i.test(line.trim())) return true;
  const cells = headerCells(line);
  return cells !== undefined && cells.length >= 2 && cells.some((cell) => HEADER_WORDS.has(cell));
}

function firstMeaningfulLine(text: string, skipComments: boolean): string | undefined {
  for (const line of text.split(/\r\n|\n|\r/)) {
    const trimmed = line.trim();
    if (trimmed === '' || (skipComments && trimmed.startsWith('#'))) continue;
    return line;
  }
  return undefined;
}

/** Share of characters that no text file has (C0 controls other than tab and line ends). */
function controlRatio(text: string): number {
  if (text.length === 0) return 0;
  let controls = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) controls++;
  }
  return controls / text.length;
}

/** What comes before an XML document's root element: white space, the declaration and other processing instructions, comments, a DOCTYPE. */
const XML_PROLOGUE_ITEM = /^(?:\s+|<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE(?:[^[>]*\[[\s\S]*?\])?[^>]*>)/i;

/**
 * An XML document's first processing instruction's target and its root element's local name
 * (without a namespace prefix), as far as the sniffed head shows them.
 */
function xmlStart(text: string): { instruction: string | undefined; root: string | undefined; rootTag: string } {
  let rest = text;
  let instruction: string | undefined;
  for (let step = 0; step < 1_000; step++) {
    const item = XML_PROLOGUE_ITEM.exec(rest);
    if (item === null) break;
    // The first instruction after the XML declaration (`<?wpl?>` follows `<?xml?>` in some files).
    const target = item[0].startsWith('<?') ? /^<\?([A-Za-z_][\w.-]*)/.exec(item[0])?.[1]?.toLowerCase() : undefined;
    if (target !== undefined && target !== 'xml') instruction ??= target;
    rest = rest.slice(item[0].length);
  }
  const root = /^<(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)[\s/>]/.exec(rest)?.[1];
  // The root's start tag, as far as the head shows it (attribute values hold no `>` in the files that matter here).
  const end = rest.indexOf('>');
  return { instruction, root, rootTag: end === -1 ? rest : rest.slice(0, end + 1) };
}

/**
 * A `<playlist>` root is XSPF when it says so: the XSPF namespace, a `version` attribute (XSPF
 * requires one) or a `<trackList>`. Otherwise it is the generic shape other tools export
 * (`<playlist name="…"><track …/></playlist>`), read by the generic XML reader.
 */
function isXspfPlaylist(rootTag: string, text: string): boolean {
  return /xspf\.org\/ns\//i.test(rootTag) || /\sversion\s*=/.test(rootTag) || /<(?:[A-Za-z_][\w.-]*:)?trackList[\s/>]/.test(text);
}

/**
 * XML playlists by their start: WPL (`<?wpl …?>` — Zune and Groove Music: `<?zpl …?>` — or a
 * `<smil>` root), an iTunes / Apple Music library (a `<plist>` root whose top dict has `Tracks` or
 * `Playlists`; both keys come before any track, well inside the sniffed head), XSPF (a
 * `<playlist>` root that says it is XSPF, see isXspfPlaylist), and the generic shape (`xml`: a
 * `<playlists>` root, or a `<playlist>` root that is no XSPF). By the root element, not by a name
 * anywhere in the text: a title may say `<smil>`.
 */
function sniffXml(text: string): string | undefined {
  const { instruction, root, rootTag } = xmlStart(text);
  if (instruction === 'wpl' || instruction === 'zpl' || root === 'smil') return 'wpl';
  if (root === 'plist' && /<key>\s*(?:Tracks|Playlists)\s*<\/key>/.test(text)) return 'itunes-library';
  if (root === 'playlist') return isXspfPlaylist(rootTag, text) ? 'xspf' : 'xml';
  if (root === 'playlists') return 'xml';
  return undefined;
}

/**
 * The format a file's content declares beyond doubt, whatever its name says: an XML root (see
 * sniffXml), JSPF's `{"playlist": {`, M3U's `#EXTM3U`, PLS's `[playlist]`, our TXT export's
 * header. A `.xml`, `.json` or `.txt` name says little (XSPF, WPL and libraries are all saved as
 * `.xml`; JSPF as `.json`; M3U lists as `.txt`), so this decides before the name. Undefined when
 * the content has no such mark (then the name, the media type and sniffFormat's guesses decide).
 */
export function contentSignature(head: Uint8Array): string | undefined {
  const text = sniffableText(head);
  return text === undefined ? undefined : signatureOf(text);
}

/** contentSignature of text already decoded by sniffableText. */
function signatureOf(text: string): string | undefined {
  if (/^#EXTM3U/i.test(text)) return 'm3u8';
  if (/^\[playlist\]/i.test(text)) return 'pls';
  if (text.startsWith('<')) return sniffXml(text);
  // JSPF wraps one object under "playlist"; the Open Playlist bundle has "playlists".
  if (/^\{\s*"playlist"\s*:\s*\{/.test(text)) return 'xspf';
  if (/^# Open Playlist TXT/i.test(text)) return 'txt';
  return undefined;
}

/** The head as text without byte order mark and leading white space, or undefined when it is binary. */
function sniffableText(head: Uint8Array): string | undefined {
  const decoded = decodeHead(head);
  if (decoded === undefined) return undefined;
  const text = decoded.replace(/^\uFEFF/, '').trimStart();
  return text === '' || controlRatio(text) > 0.01 ? undefined : text;
}

/** The format the content looks like, or undefined when it looks like none of them. */
export function sniffFormat(head: Uint8Array): string | undefined {
  const text = sniffableText(head);
  if (text === undefined) return undefined;
  const declared = signatureOf(text);
  if (declared !== undefined) return declared;
  if (text.startsWith('<')) return undefined;
  if (text.startsWith('{') || text.startsWith('[')) return 'json';
  const first = firstMeaningfulLine(text, true);
  if (first === undefined) return 'txt';
  if (first.includes('\t') && first.toLowerCase().includes('schema_version')) return 'txt';
  if (isTabularHeader(first)) return 'csv';
  if (/^#EXTINF/im.test(text)) return 'm3u8';
  return 'txt';
}
