/**
 * Content sniffing for uploads whose name says nothing about the format. Only the first bytes are
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

/**
 * XML playlists by their root: WPL (`<?wpl …?>` — Zune and Groove Music: `<?zpl …?>` — then `<smil>`), an iTunes / Apple Music library
 * (a `<plist>` whose top dict has `Tracks` or `Playlists`; both keys come before any track, well
 * inside the sniffed head), XSPF (`<playlist>` or its namespace).
 */
function sniffXml(text: string): string | undefined {
  if (/^<\?[wz]pl[\s?]/.test(text) || /<smil[\s>]/.test(text)) return 'wpl';
  if (/<plist[\s>]/.test(text) && /<key>\s*(?:Tracks|Playlists)\s*<\/key>/.test(text)) return 'itunes-library';
  if (/<playlist[\s>]/.test(text) || text.includes('xspf.org')) return 'xspf';
  return undefined;
}

/** The format the content looks like, or undefined when it looks like none of them. */
export function sniffFormat(head: Uint8Array): string | undefined {
  const decoded = decodeHead(head);
  if (decoded === undefined) return undefined;
  const text = decoded.replace(/^\uFEFF/, '').trimStart();
  if (text === '' || controlRatio(text) > 0.01) return undefined;
  if (/^#EXTM3U/i.test(text)) return 'm3u8';
  if (/^\[playlist\]/i.test(text)) return 'pls';
  if (text.startsWith('<')) return sniffXml(text);
  if (text.startsWith('{') || text.startsWith('[')) {
    // JSPF wraps one object under "playlist"; the Open Playlist bundle has "playlists".
    if (/^\{\s*"playlist"\s*:\s*\{/.test(text)) return 'xspf';
    return 'json';
  }
  if (/^# Open Playlist TXT/i.test(text)) return 'txt';
  const first = firstMeaningfulLine(text, true);
  if (first === undefined) return 'txt';
  if (first.includes('\t') && first.toLowerCase().includes('schema_version')) return 'txt';
  if (isTabularHeader(first)) return 'csv';
  if (/^#EXTINF/im.test(text)) return 'm3u8';
  return 'txt';
}
