/**
 * Packs lines into string chunks the host can stream: at most 64 KiB of UTF-8 each (SPEC
 * "Limits"). A UTF-16 code unit never takes more than 3 UTF-8 bytes (a surrogate pair: 2 units,
 * 4 bytes), so a chunk of at most 21,845 code units is always within the limit — no byte counting
 * needed. A longer line is split between code units, never inside a surrogate pair.
 */

export const MAX_CHUNK_UNITS = Math.floor((64 * 1024) / 3);

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

export function* chunkLines(lines: Iterable<string>, maxUnits: number = MAX_CHUNK_UNITS): Generator<string> {
  let buffer = '';
  for (const line of lines) {
    if (buffer.length + line.length <= maxUnits) {
      buffer += line;
      continue;
    }
    let rest = buffer + line;
    while (rest.length > maxUnits) {
      const cut = isHighSurrogate(rest.charCodeAt(maxUnits - 1)) ? maxUnits - 1 : maxUnits;
      yield rest.slice(0, cut);
      rest = rest.slice(cut);
    }
    buffer = rest;
  }
  if (buffer !== '') yield buffer;
}
