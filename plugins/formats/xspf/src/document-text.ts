import { InvalidInput, type FormatContext } from '@opl/plugin-sdk';

/**
 * Bytes → text for XML and JSON playlists. A byte order mark decides first (UTF-8, UTF-16);
 * without one, the XML declaration's `encoding` (ASCII-compatible encodings the host decodes);
 * otherwise UTF-8, which must be valid: the host's decoder replaces bad sequences with U+FFFD, so
 * more U+FFFD in the text than EF BF BD sequences in the bytes means the file is not UTF-8 —
 * refused rather than read with replacement characters (XML requires a correct encoding).
 */

const DECLARED_ENCODING = /^<\?xml[^>]{0,200}?\sencoding\s*=\s*["']([A-Za-z][A-Za-z0-9._-]{0,39})["']/;

function countReplacementBytes(bytes: Uint8Array): number {
  let count = 0;
  for (let at = bytes.indexOf(0xef); at !== -1 && at + 2 < bytes.length; at = bytes.indexOf(0xef, at + 1)) {
    if (bytes[at + 1] === 0xbf && bytes[at + 2] === 0xbd) count += 1;
  }
  return count;
}

function countReplacementChars(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\uFFFD'); at !== -1; at = text.indexOf('\uFFFD', at + 1)) count += 1;
  return count;
}

function strictUtf8(bytes: Uint8Array, decode: FormatContext['decodeText']): string {
  const text = decode(bytes, 'utf-8');
  if (text.includes('\uFFFD') && countReplacementChars(text) > countReplacementBytes(bytes)) {
    throw new InvalidInput('the file is not valid UTF-8 text (and declares no other encoding); it may be a binary file or saved in another encoding');
  }
  return text;
}

export function decodeDocument(bytes: Uint8Array, decode: FormatContext['decodeText']): string {
  const [b0, b1, b2] = bytes;
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) return strictUtf8(bytes.slice(3), decode);
  if (b0 === 0xff && b1 === 0xfe) return decode(bytes.slice(2), 'utf-16le');
  if (b0 === 0xfe && b1 === 0xff) return decode(bytes.slice(2), 'utf-16be');
  if (b0 === 0x3c && b1 === 0x00) return decode(bytes, 'utf-16le');
  if (b0 === 0x00 && b1 === 0x3c) return decode(bytes, 'utf-16be');
  const head = String.fromCharCode(...bytes.subarray(0, 256));
  const declared = DECLARED_ENCODING.exec(head)?.[1]?.toLowerCase();
  if (declared === undefined || declared === 'utf-8' || declared === 'utf8') return strictUtf8(bytes, decode);
  if (declared.startsWith('utf-16')) throw new InvalidInput(`the XML declaration says ${declared}, but the file has no UTF-16 byte order mark`);
  try {
    return decode(bytes, declared);
  } catch {
    throw new InvalidInput(`the XML declaration names the encoding "${declared}", which is not supported; save the file as UTF-8`);
  }
}
