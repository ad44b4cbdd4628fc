import type { FormatContext } from '../context.ts';
import { InvalidInput } from '../errors.ts';
import { decodeWellFormedUtf8 } from '../format-kit/utf8-validator.ts';

/**
 * Bytes → text for an XML document, as XML 1.0 (appendix F) says to find its encoding: a byte
 * order mark decides first (UTF-8, UTF-16 LE/BE; `<` in UTF-16 without one too); otherwise the XML
 * declaration's `encoding` (ASCII-compatible encodings the host decodes); otherwise UTF-8, which
 * must be well-formed — refused rather than read with U+FFFD replacement characters (the host's
 * decoder would replace bad sequences silently). Every XML format plugin reads its bytes this way.
 */

const DECLARED_ENCODING = /^<\?xml[^>]{0,200}?\sencoding\s*=\s*["']([A-Za-z][A-Za-z0-9._-]{0,39})["']/;

function strictUtf8(bytes: Uint8Array, decode: FormatContext['decodeText']): string {
  const text = decodeWellFormedUtf8(bytes, decode);
  if (text === null) {
    throw new InvalidInput('the file is not valid UTF-8 text (and declares no other encoding); it may be a binary file or saved in another encoding');
  }
  return text;
}

/** The encoding of an XML document's bytes, found as `decodeXmlDocument` finds it. */
export interface XmlEncoding {
  /** The label for the host's decoder, in lower case (`utf-8`, `utf-16le`, `windows-1252`, …). */
  readonly encoding: string;
  /** Bytes of a byte order mark before the text (0 when there is none). */
  readonly start: number;
  /** What decided: the first bytes (a byte order mark, or `<` in UTF-16), the XML declaration, or neither (UTF-8). */
  readonly source: 'bytes' | 'declaration' | 'default';
}

/**
 * XML 1.0 appendix F: a byte order mark decides first (UTF-8, UTF-16 LE/BE; `<` in UTF-16 without
 * one too); otherwise the XML declaration's `encoding`; otherwise UTF-8. For a reader that decodes
 * in its own way (the iTunes reader forgives damaged UTF-8) but must agree with everyone else on
 * what the encoding is.
 */
export function xmlEncoding(bytes: Uint8Array): XmlEncoding {
  const [b0, b1, b2] = bytes;
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) return { encoding: 'utf-8', start: 3, source: 'bytes' };
  if (b0 === 0xff && b1 === 0xfe) return { encoding: 'utf-16le', start: 2, source: 'bytes' };
  if (b0 === 0xfe && b1 === 0xff) return { encoding: 'utf-16be', start: 2, source: 'bytes' };
  if (b0 === 0x3c && b1 === 0x00) return { encoding: 'utf-16le', start: 0, source: 'bytes' };
  if (b0 === 0x00 && b1 === 0x3c) return { encoding: 'utf-16be', start: 0, source: 'bytes' };
  const declared = DECLARED_ENCODING.exec(String.fromCharCode(...bytes.subarray(0, 256)))?.[1]?.toLowerCase();
  if (declared === undefined) return { encoding: 'utf-8', start: 0, source: 'default' };
  return { encoding: declared === 'utf8' ? 'utf-8' : declared, start: 0, source: 'declaration' };
}

export function decodeXmlDocument(bytes: Uint8Array, decode: FormatContext['decodeText']): string {
  const { encoding, start, source } = xmlEncoding(bytes);
  const body = start === 0 ? bytes : bytes.slice(start);
  if (encoding === 'utf-8') return strictUtf8(body, decode);
  if (source === 'bytes') return decode(body, encoding);
  if (encoding.startsWith('utf-16')) throw new InvalidInput(`the XML declaration says ${encoding}, but the file has no UTF-16 byte order mark`);
  try {
    return decode(bytes, encoding);
  } catch {
    throw new InvalidInput(`the XML declaration names the encoding "${encoding}", which is not supported; save the file as UTF-8`);
  }
}

/** Bytes decoded per piece by `decodeXmlPieces` (the host decodes each in one call). */
export const XML_PIECE_BYTES = 1 << 20;

/** A UTF-8 byte that continues a sequence (never the first byte of a character). */
const isUtf8Continuation = (byte: number | undefined): boolean => byte !== undefined && (byte & 0xc0) === 0x80;

/**
 * Where the piece starting at `start` ends: about `size` bytes on, moved back to the first byte
 * of a character (at most three continuation bytes: a well-formed file has no more in a row, and
 * an ill-formed one is refused whichever piece holds the damage), and past a U+FEFF that would
 * start the next piece — the host's decoder drops a byte order mark at the start of each call,
 * and in the middle of a document that character is text.
 */
function utf8PieceEnd(bytes: Uint8Array, start: number, size: number): number {
  let end = start + size;
  if (end >= bytes.length) return bytes.length;
  for (let back = 0; back < 3 && isUtf8Continuation(bytes[end]) && end - 1 > start; back += 1) end -= 1;
  while (bytes[end] === 0xef && bytes[end + 1] === 0xbb && bytes[end + 2] === 0xbf) end += 3;
  return Math.min(end, bytes.length);
}

/** As `utf8PieceEnd` for UTF-16: an even cut, never between the two halves of a surrogate pair, past a U+FEFF. */
function utf16PieceEnd(bytes: Uint8Array, start: number, size: number, littleEndian: boolean): number {
  let end = start + size - (size % 2);
  if (end >= bytes.length) return bytes.length;
  const unitAt = (at: number): number => (littleEndian ? bytes[at]! | (bytes[at + 1]! << 8) : (bytes[at]! << 8) | bytes[at + 1]!);
  const last = unitAt(end - 2);
  if (last >= 0xd800 && last <= 0xdbff && end - 2 > start) end -= 2;
  while (end + 1 < bytes.length && unitAt(end) === 0xfeff) end += 2;
  return Math.min(end, bytes.length);
}

/**
 * A document's text as it is decoded, a piece at a time (about `pieceBytes` bytes each), for a
 * reader that parses as it decodes (`parseXml` takes the function): the decision and the
 * refusals are `decodeXmlDocument`'s, but neither the host nor the sandbox ever holds the whole
 * text — for a large file the decoded text is the largest thing a parse holds (a UTF-16 string
 * twice the size of mostly-ASCII bytes, once on each side of the sandbox boundary). UTF-8 (strict:
 * each piece is checked as `decodeWellFormedUtf8` checks a whole file, so invalid bytes are
 * refused when their piece is reached) and UTF-16 are cut at character boundaries; another
 * declared encoding is decoded whole, as one piece. Each call of the returned function starts
 * again from the first byte, so the text can be read a second time (to explain a refusal).
 */
export function decodeXmlPieces(bytes: Uint8Array, decode: FormatContext['decodeText'], pieceBytes: number = XML_PIECE_BYTES): () => Iterable<string> {
  const { encoding, start, source } = xmlEncoding(bytes);
  const size = Math.max(4, Math.floor(pieceBytes));
  if (encoding === 'utf-8') {
    return function* utf8Pieces() {
      for (let at = start; at < bytes.length; ) {
        const end = utf8PieceEnd(bytes, at, size);
        // A copy rather than a view: the sandbox copies arguments to the host (see decodeFile).
        yield strictUtf8(bytes.slice(at, end), decode);
        at = end;
      }
    };
  }
  if (source === 'bytes') {
    const littleEndian = encoding === 'utf-16le';
    return function* utf16Pieces() {
      for (let at = start; at < bytes.length; ) {
        const end = utf16PieceEnd(bytes, at, size, littleEndian);
        yield decode(bytes.slice(at, end), encoding);
        at = end;
      }
    };
  }
  return () => [decodeXmlDocument(bytes, decode)];
}
