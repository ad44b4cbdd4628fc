import type { FormatContext } from '@opl/plugin-sdk';

/**
 * Picks the encoding of an M3U file. A byte order mark decides first (UTF-8, UTF-16 LE/BE).
 * Without one the bytes are read as UTF-8 when they are well-formed UTF-8; otherwise as
 * windows-1252, the "Latin-1" that plain `.m3u` files traditionally use (a superset of the
 * printable ISO-8859-1 range).
 *
 * Well-formedness is checked without a validator of our own: the host's UTF-8 decoder replaces
 * every malformed sequence with U+FFFD, so the decoded text holds more U+FFFD characters than the
 * bytes hold encoded ones (EF BF BD) exactly when some sequence was malformed. Both counts are one
 * linear pass.
 */

export type M3uEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

export interface DecodedText {
  readonly text: string;
  readonly encoding: M3uEncoding;
}

type Decode = FormatContext['decodeText'];

function countEncodedReplacements(bytes: Uint8Array): number {
  let count = 0;
  for (let index = bytes.indexOf(0xef); index !== -1 && index + 2 < bytes.length; index = bytes.indexOf(0xef, index + 1)) {
    if (bytes[index + 1] === 0xbf && bytes[index + 2] === 0xbd) count += 1;
  }
  return count;
}

function countReplacements(text: string): number {
  let count = 0;
  for (let index = text.indexOf('\uFFFD'); index !== -1; index = text.indexOf('\uFFFD', index + 1)) count += 1;
  return count;
}

function withoutBom(text: string): string {
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

export function decodeM3u(bytes: Uint8Array, decode: Decode): DecodedText {
  const [b0, b1, b2] = bytes;
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) return { text: withoutBom(decode(bytes.slice(3), 'utf-8')), encoding: 'utf-8' };
  if (b0 === 0xff && b1 === 0xfe) return { text: withoutBom(decode(bytes.slice(2), 'utf-16le')), encoding: 'utf-16le' };
  if (b0 === 0xfe && b1 === 0xff) return { text: withoutBom(decode(bytes.slice(2), 'utf-16be')), encoding: 'utf-16be' };
  const utf8 = decode(bytes, 'utf-8');
  if (countReplacements(utf8) === countEncodedReplacements(bytes)) return { text: utf8, encoding: 'utf-8' };
  return { text: decode(bytes, 'windows-1252'), encoding: 'windows-1252' };
}
