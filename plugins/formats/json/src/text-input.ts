import type { FormatContext } from '@opl/plugin-sdk';
import { byteLineColumn } from './text-position.ts';

/**
 * Bytes → JSON text. JSON is UTF-8 (RFC 8259); a UTF-8 byte order mark is skipped, and a file
 * with a UTF-16 mark (some Windows tools save JSON that way) is read as UTF-16. Bytes that are not
 * well-formed UTF-8 are refused with their position rather than guessed at: a bundle is a
 * lossless format, so silently replacing characters would be the wrong kind of leniency.
 */

export type Decoded = { readonly text: string } | { readonly problem: { readonly line: number; readonly column: number; readonly message: string } };

type Codec = Pick<FormatContext, 'decodeText' | 'encodeText'>;

/** First index where `a` and `b` differ (their common length when one is a prefix of the other). */
function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) if (a[index] !== b[index]) return index;
  return length;
}

export function decodeJson(bytes: Uint8Array, codec: Codec): Decoded {
  const [b0, b1, b2] = bytes;
  if (b0 === 0xff && b1 === 0xfe) return { text: codec.decodeText(bytes.slice(2), 'utf-16le') };
  if (b0 === 0xfe && b1 === 0xff) return { text: codec.decodeText(bytes.slice(2), 'utf-16be') };
  const body = b0 === 0xef && b1 === 0xbb && b2 === 0xbf ? bytes.slice(3) : bytes;
  const text = codec.decodeText(body, 'utf-8');
  // The host's decoder turns each malformed sequence into U+FFFD. Without one in the text, the
  // bytes were well-formed; with one, encoding back shows whether it was there to begin with.
  if (text.includes('\uFFFD')) {
    const reencoded = codec.encodeText(text);
    const offset = firstDifference(body, reencoded);
    if (offset < body.length || reencoded.length !== body.length) {
      const skipped = body === bytes ? 0 : 3;
      const { line, column } = byteLineColumn(bytes, offset + skipped);
      return { problem: { line, column, message: `the file is not valid UTF-8: byte ${offset + skipped + 1} (line ${line}) starts a malformed sequence; JSON files must be UTF-8` } };
    }
  }
  return { text };
}
