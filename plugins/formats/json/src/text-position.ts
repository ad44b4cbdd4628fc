/** 1-based line and column of a UTF-16 index in `text` (lines end at LF; a CR before it is part of the line). */
export function lineColumn(text: string, index: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let next = text.indexOf('\n'); next !== -1 && next < index; next = text.indexOf('\n', next + 1)) {
    line += 1;
    lineStart = next + 1;
  }
  return { line, column: index - lineStart + 1 };
}

/** The same for a byte offset in raw bytes (used before the bytes could be decoded). */
export function byteLineColumn(bytes: Uint8Array, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let next = bytes.indexOf(0x0a); next !== -1 && next < offset; next = bytes.indexOf(0x0a, next + 1)) {
    line += 1;
    lineStart = next + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
