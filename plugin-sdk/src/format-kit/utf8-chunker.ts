/**
 * Groups text pieces into chunks of at most `maxBytes` UTF-8 bytes. The host encodes string
 * chunks as UTF-8 and streams each as it arrives, so the byte size (not the string length) is
 * what the 64 KiB response chunk limit (SPEC "Limits") is about. Pieces are packed together to keep
 * the number of boundary crossings low; a piece larger than a chunk is split between code points,
 * never inside a surrogate pair, so every chunk is valid text on its own.
 */

export const MAX_CHUNK_BYTES = 64 * 1024;

/** UTF-8 size of one UTF-16 code unit at `index`; a surrogate pair counts 4 on its high half, 0 on its low. */
function unitBytes(text: string, index: number): number {
  const code = text.charCodeAt(index);
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  if (code >= 0xd800 && code <= 0xdbff) {
    const next = text.charCodeAt(index + 1);
    return next >= 0xdc00 && next <= 0xdfff ? 4 : 3;
  }
  if (code >= 0xdc00 && code <= 0xdfff) {
    const previous = index > 0 ? text.charCodeAt(index - 1) : 0;
    return previous >= 0xd800 && previous <= 0xdbff ? 0 : 3;
  }
  return 3;
}

export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) bytes += unitBytes(text, index);
  return bytes;
}

/** Splits one string into parts of at most `maxBytes` UTF-8 bytes each. */
function* splitText(text: string, maxBytes: number): Generator<string> {
  let start = 0;
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const size = unitBytes(text, index);
    // A low surrogate adds 0 and so never starts a new part: the pair stays together.
    if (bytes + size > maxBytes && index > start) {
      yield text.slice(start, index);
      start = index;
      bytes = 0;
    }
    bytes += size;
  }
  if (start < text.length) yield text.slice(start);
}

export function* chunkUtf8(pieces: Iterable<string>, maxBytes: number = MAX_CHUNK_BYTES): Generator<string> {
  if (!Number.isInteger(maxBytes) || maxBytes < 4) throw new RangeError('a chunk must hold at least one code point (4 bytes)');
  let buffer: string[] = [];
  let buffered = 0;
  for (const piece of pieces) {
    const size = utf8ByteLength(piece);
    if (buffered + size <= maxBytes) {
      buffer.push(piece);
      buffered += size;
      continue;
    }
    if (buffered > 0) yield buffer.join('');
    if (size <= maxBytes) {
      buffer = [piece];
      buffered = size;
      continue;
    }
    const parts = [...splitText(piece, maxBytes)];
    const tail = parts.pop() ?? '';
    yield* parts;
    // The tail of a split piece may still share a chunk with what follows.
    buffer = [tail];
    buffered = utf8ByteLength(tail);
  }
  if (buffered > 0) yield buffer.join('');
}
