/**
 * Deepest nesting of a metadata object of the model, itself counted as level 1. A plugin result
 * crosses the sandbox boundary as JSON text, which parses at any depth; metadata nested 20,000
 * deep (120 kB of a playlist file) then overflowed the stack of the engine's next JSON.stringify.
 * The JSON bundle reader refuses files nested deeper than 64, so no bundle it accepts comes near.
 */
export const MAX_METADATA_DEPTH = 64;

/**
 * How deeply a parsed JSON value nests (a scalar 0, `{}` or `[]` 1, `{"a":[]}` 2), counted
 * without recursion so that a hostile document cannot exhaust the stack; stops counting once
 * `limit` is passed. Values nested thousands deep are cheap to parse but overflow the stack of
 * every recursive walk after it (JSON.stringify, structured clone, PostgreSQL's jsonb), so the
 * model bounds them and the interchange import refuses them.
 */
export function jsonDepthExceeds(value: unknown, limit: number): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth + 1 > limit) return true;
    const children = Array.isArray(current) ? current : Object.values(current);
    for (const child of children) if (child !== null && typeof child === 'object') stack.push({ value: child, depth: depth + 1 });
  }
  return false;
}

/**
 * Finds where JSON text nests deeper than `maxDepth` arrays/objects, in one linear pass and
 * without recursion, before anything parses it: a "JSON bomb" of a million `[` is refused with
 * its position instead of exhausting the sandbox's stack. Strings are skipped whole (a bracket
 * inside a string does not nest). It allocates nothing, so a 50 MB file of `[` is refused before
 * JSON.parse would build millions of arrays and break the sandbox's memory limit.
 * Malformed text is not judged here; JSON.parse reports it afterwards. Returns the index of the
 * first bracket beyond `maxDepth`, or -1 when the text nests no deeper.
 */
export function findExcessiveNesting(text: string, maxDepth: number): number {
  // A plain code-unit loop: measured faster than regex jumps, about half the time of JSON.parse.
  let depth = 0;
  const length = text.length;
  for (let index = 0; index < length; index++) {
    const char = text.charCodeAt(index);
    if (char === 0x22) {
      // Skip the string: a backslash escapes the next unit, the first unescaped quote ends it.
      for (index++; index < length; index++) {
        const inner = text.charCodeAt(index);
        if (inner === 0x5c) index++;
        else if (inner === 0x22) break;
      }
    } else if (char === 0x5b || char === 0x7b) {
      depth += 1;
      if (depth > maxDepth) return index;
    } else if (char === 0x5d || char === 0x7d) {
      depth -= 1;
    }
  }
  return -1;
}
