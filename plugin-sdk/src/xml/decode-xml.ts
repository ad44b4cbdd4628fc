import type { FormatContext } from '../context.ts';
import { InvalidInput } from '../errors.ts';
import { isValidUtf8 } from '../format-kit/utf8-validator.ts';

/**
 * Bytes → text for an XML document, as XML 1.0 (appendix F) says to find its encoding: a byte
 * order mark decides first (UTF-8, UTF-16 LE/BE; `<` in UTF-16 without one too); otherwise the XML
 * declaration's `encoding` (ASCII-compatible encodings the host decodes); otherwise UTF-8, which
 * must be well-formed — refused rather than read with U+FFFD replacement characters (the host's
 * decoder would replace bad sequences silently). Every XML format plugin reads its bytes this way.
 */

const DECLARED_ENCODING = /^<\?xml[^>]{0,200}?\sencoding\s*=\s*["']([A-Za-z][A-Za-z0-9._-]{0,39})["']/;

function strictUtf8(bytes: Uint8Array, decode: FormatContext['decodeText']): string {
  if (!isValidUtf8(bytes)) {
    throw new InvalidInput('the file is not valid UTF-8 text (and declares no other encoding); it may be a binary file or saved in another encoding');
  }
  return decode(bytes, 'utf-8');
}

export function decodeXmlDocument(bytes: Uint8Array, decode: FormatContext['decodeText']): string {
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
