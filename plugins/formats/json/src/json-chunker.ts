/**
 * Packs the writer's pieces into chunks of at most `maxBytes` UTF-8 bytes (the 64 KiB response
 * chunk limit of SPEC "Limits"). The byte size is bounded from above rather than counted exactly:
 * every UTF-16 code unit counts as the most it can take (1, 2 or 3 bytes; a surrogate pair is
 * two 3-byte units for a real 4 bytes), so a chunk never exceeds the limit and the count stays one
 * cheap pass. A piece larger than a chunk is split between code units, never inside a surrogate
 * pair, so each chunk encodes on its own.
 */

export const MAX_CHUNK_BYTES = 64 * 1024;

const NON_ASCII = /[\u0080-\uffff]/g;

function unitBound(code: number): number {
  return code < 0x80 ? 1 : code < 0x800 ? 2 : 3;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

export function* chunkPieces(pieces: Iterable<string>, maxBytes: number = MAX_CHUNK_BYTES): Generator<string> {
  if (!Number.isInteger(maxBytes) || maxBytes < 6) throw new RangeError('a chunk must hold at least one surrogate pair (6 bytes)');
  let parts: string[] = [];
  let buffered = 0;
  for (const piece of pieces) {
    // Fast path: most pieces fit whole; their bound is the length plus 2 per non-ASCII unit.
    const bound = piece.length + 2 * (piece.match(NON_ASCII)?.length ?? 0);
    if (buffered + bound <= maxBytes) {
      parts.push(piece);
      buffered += bound;
      continue;
    }
    let start = 0;
    let index = 0;
    while (index < piece.length) {
      const code = piece.charCodeAt(index);
      const pair = isHighSurrogate(code) && isLowSurrogate(piece.charCodeAt(index + 1));
      const size = pair ? 6 : unitBound(code);
      if (buffered + size > maxBytes) {
        parts.push(piece.slice(start, index));
        yield parts.join('');
        parts = [];
        buffered = 0;
        start = index;
      }
      buffered += size;
      index += pair ? 2 : 1;
    }
    if (start < piece.length) parts.push(start === 0 ? piece : piece.slice(start));
  }
  if (buffered > 0) yield parts.join('');
}
