import type { FormatContext } from '../context.ts';
import { repairMixedUtf8 } from './mixed-encoding.ts';
import { decodeWellFormedUtf8, isValidUtf8 } from './utf8-validator.ts';

/**
 * Picks the encoding of an uploaded text file. Exports are UTF-8, but hand-made lists come from
 * everywhere: a byte order mark decides first (UTF-8, UTF-16 LE/BE); without one, bytes that are
 * well-formed UTF-8 are read as UTF-8, and anything else as windows-1252, the encoding older
 * Windows tools write and a superset of the printable ISO-8859-1 ("Latin-1") range — except a
 * UTF-8 file with a few stray bytes of it, which stays UTF-8 (mixed-encoding.ts).
 */

export type DetectedEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

export interface Detection {
  readonly encoding: DetectedEncoding;
  /** Bytes of the byte order mark to skip (decoders differ on whether they drop it). */
  readonly bomLength: number;
}

/** The encoding a byte order mark names, or null without one. */
function bomEncoding(bytes: Uint8Array): Detection | null {
  const [b0, b1, b2] = bytes;
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) return { encoding: 'utf-8', bomLength: 3 };
  if (b0 === 0xff && b1 === 0xfe) return { encoding: 'utf-16le', bomLength: 2 };
  if (b0 === 0xfe && b1 === 0xff) return { encoding: 'utf-16be', bomLength: 2 };
  return null;
}

export function detectEncoding(bytes: Uint8Array): Detection {
  return bomEncoding(bytes) ?? { encoding: isValidUtf8(bytes) ? 'utf-8' : 'windows-1252', bomLength: 0 };
}

/** The `legacy_encoding` warning's message, for a file read as windows-1252 because it was not UTF-8. */
export const LEGACY_ENCODING_WARNING = 'the file is not valid UTF-8 and has no byte order mark, so it was read as windows-1252; check accented letters';

/** How a file's bytes became text: what its reader warns about (`decodingWarning`). */
export interface Decoding {
  readonly encoding: DetectedEncoding;
  /** A UTF-8 file with stray windows-1252 bytes: how many were read so, and the line of the first; else null. */
  readonly repaired: { readonly bytes: number; readonly line: number } | null;
}

export interface DecodedText extends Decoding {
  readonly text: string;
}

/** A file that was UTF-8 and nothing else: what a reader assumes without being told. */
export const PLAIN_UTF8: Decoding = { encoding: 'utf-8', repaired: null };

/** The warning a reader gives about how its file was decoded (`legacy_encoding`, `mixed_encoding`), or null when there is nothing to say. */
export function decodingWarning(decoding: Decoding): { line: number | null; code: 'legacy_encoding' | 'mixed_encoding'; message: string } | null {
  if (decoding.encoding === 'windows-1252') return { line: null, code: 'legacy_encoding', message: LEGACY_ENCODING_WARNING };
  if (decoding.repaired === null) return null;
  const { bytes, line } = decoding.repaired;
  return {
    line,
    code: 'mixed_encoding',
    message: `the file is UTF-8 but ${bytes === 1 ? '1 byte is' : `${bytes} bytes are`} not (the first on this line): ${bytes === 1 ? 'it was' : 'they were'} read as windows-1252; check the accented letters there`,
  };
}

/** Decides as `detectEncoding` does, but a file without a byte order mark is decoded as UTF-8 before it is checked (see `decodeWellFormedUtf8`). */
export function decodeFile(bytes: Uint8Array, decodeText: FormatContext['decodeText']): DecodedText {
  const marked = bomEncoding(bytes);
  let encoding: DetectedEncoding;
  let text: string;
  let repaired: Decoding['repaired'] = null;
  if (marked !== null) {
    encoding = marked.encoding;
    // A copy rather than a view: the sandbox copies arguments to the host, and a plain array is
    // what every transfer path handles the same way.
    text = decodeText(bytes.slice(marked.bomLength), encoding);
  } else {
    const utf8 = decodeWellFormedUtf8(bytes, decodeText);
    const repair = utf8 === null ? repairMixedUtf8(bytes) : null;
    encoding = utf8 === null && repair === null ? 'windows-1252' : 'utf-8';
    if (repair !== null) repaired = { bytes: repair.strayBytes, line: repair.firstLine };
    text = utf8 ?? decodeText(repair?.bytes ?? bytes, encoding);
  }
  // A second mark (a file saved twice by a BOM-adding editor) is not content either.
  return { text: text.startsWith('\uFEFF') ? text.slice(1) : text, encoding, repaired };
}
