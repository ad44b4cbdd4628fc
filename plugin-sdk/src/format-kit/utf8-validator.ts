/**
 * Strict UTF-8 well-formedness (RFC 3629): the decoder the host offers replaces bad sequences
 * instead of failing, so telling UTF-8 from a legacy 8-bit encoding needs this check first.
 * Rejects overlong forms, UTF-16 surrogates, code points above U+10FFFF and truncated sequences.
 */

function isContinuation(byte: number | undefined): boolean {
  return byte !== undefined && (byte & 0xc0) === 0x80;
}

/**
 * The UTF-8 sequence starting at `index` (RFC 3629): its length in bytes when it is well formed
 * (1 for ASCII), else minus the length of its maximal ill-formed part — the bytes a WHATWG
 * decoder turns into one U+FFFD (at least 1). One reading of the byte rules for the strict check
 * below and for readers that locate every bad sequence (the iTunes library reader).
 */
export function utf8SequenceAt(bytes: Uint8Array, index: number): number {
  const lead = bytes[index] as number;
  if (lead < 0x80) return 1;
  let length: number;
  // The allowed range of the second byte narrows for leads where it decides validity.
  let low = 0x80;
  let high = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    if (lead === 0xe0) low = 0xa0; // overlong below U+0800
    if (lead === 0xed) high = 0x9f; // U+D800–U+DFFF surrogates
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    if (lead === 0xf0) low = 0x90; // overlong below U+10000
    if (lead === 0xf4) high = 0x8f; // above U+10FFFF
  } else {
    return -1; // stray continuation byte, overlong 0xC0/0xC1 lead, or 0xF5–0xFF
  }
  const second = bytes[index + 1];
  if (second === undefined || second < low || second > high) return -1;
  let read = 2;
  while (read < length && isContinuation(bytes[index + read])) read += 1;
  return read < length ? -read : length;
}

/** Bytes 0–3 of a word: set high bits mean a non-ASCII byte among the four. */
const HIGH_BITS = 0x80808080;

export function isValidUtf8(bytes: Uint8Array): boolean {
  const size = bytes.length;
  // A playlist file is mostly ASCII: runs of it are checked four bytes at a time through an
  // aligned 32-bit view of the same memory (a quarter of the steps of the byte loop below).
  const wordStart = (4 - (bytes.byteOffset & 3)) & 3;
  const wordCount = size > wordStart ? (size - wordStart) >>> 2 : 0;
  const words = wordCount === 0 ? new Uint32Array(0) : new Uint32Array(bytes.buffer, bytes.byteOffset + wordStart, wordCount);
  let index = 0;
  while (index < size) {
    const lead = bytes[index] as number;
    if (lead < 0x80) {
      index += 1;
      if (index >= wordStart && ((index - wordStart) & 3) === 0) {
        let word = (index - wordStart) >>> 2;
        while (word < wordCount && ((words[word] as number) & HIGH_BITS) === 0) word += 1;
        index = Math.max(index, wordStart + word * 4);
      }
      continue;
    }
    const sequence = utf8SequenceAt(bytes, index);
    if (sequence < 0) return false;
    index += sequence;
  }
  return true;
}

/**
 * The bytes decoded as UTF-8 when they are well-formed UTF-8, else null. The host's decoder turns
 * every ill-formed sequence into U+FFFD, so text without one came from well-formed bytes: only a
 * text that holds U+FFFD (a damaged file, or one that really contains the character) pays for the
 * byte-by-byte check. Decoding first saves that pass over every good file.
 */
export function decodeWellFormedUtf8(bytes: Uint8Array, decode: (bytes: Uint8Array, encoding: 'utf-8') => string): string | null {
  const text = decode(bytes, 'utf-8');
  return !text.includes('\uFFFD') || isValidUtf8(bytes) ? text : null;
}
