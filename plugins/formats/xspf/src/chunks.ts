/** Largest chunk `serialize` yields, in UTF-8 bytes (the host streams 64 KiB chunks). */
export const MAX_CHUNK_BYTES = 64 * 1024;

function utf8Length(text: string): number {
  let bytes = text.length;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    // Two-byte and three-byte sequences add one or two bytes; a surrogate pair (4 bytes) adds one per half.
    if (code >= 0x80) bytes += code < 0x800 ? 1 : code >= 0xd800 && code <= 0xdfff ? 1 : 2;
  }
  return bytes;
}

/**
 * Joins pieces into chunks of at most `maxBytes` UTF-8 bytes, in order, never splitting a
 * surrogate pair: a piece longer than that (a very long annotation) is cut into several chunks.
 */
export function* chunked(pieces: Iterable<string>, maxBytes: number = MAX_CHUNK_BYTES): Generator<string> {
  let buffer: string[] = [];
  let bufferBytes = 0;
  for (const piece of pieces) {
    const bytes = utf8Length(piece);
    if (bufferBytes + bytes <= maxBytes) {
      buffer.push(piece);
      bufferBytes += bytes;
      continue;
    }
    if (bufferBytes > 0) yield buffer.join('');
    if (bytes <= maxBytes) {
      buffer = [piece];
      bufferBytes = bytes;
      continue;
    }
    // A single oversized piece: cut it by code points, measuring as we go.
    let start = 0;
    let size = 0;
    for (let index = 0; index < piece.length; ) {
      const code = piece.charCodeAt(index);
      const pair = code >= 0xd800 && code <= 0xdbff && index + 1 < piece.length;
      const width = pair ? 4 : code < 0x80 ? 1 : code < 0x800 ? 2 : 3;
      if (size + width > maxBytes) {
        yield piece.slice(start, index);
        start = index;
        size = 0;
      }
      size += width;
      index += pair ? 2 : 1;
    }
    buffer = [piece.slice(start)];
    bufferBytes = size;
  }
  if (bufferBytes > 0) yield buffer.join('');
}
