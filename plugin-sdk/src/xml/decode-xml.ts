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
