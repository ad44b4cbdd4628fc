/**
 * Finds where JSON text nests deeper than `maxDepth` arrays/objects, in one linear pass and
 * without recursion, before anything parses it: a "JSON bomb" of a million `[` is refused with
 * its position instead of exhausting the sandbox's stack. Strings are skipped whole (a bracket
 * inside a string does not nest), so the scan costs little even for a 50 MB string value.
 * Malformed text is not judged here; JSON.parse reports it afterwards.
 */

/** Index of the first bracket beyond `maxDepth`, or -1 when the text nests no deeper. */
export function findExcessiveNesting(text: string, maxDepth: number): number {
  let depth = 0;
  const pattern = /["[\]{}]/g;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const at = match.index;
    const char = text.charCodeAt(at);
    if (char === 0x22) {
      // Find the closing quote: one preceded by an even number of backslashes.
      let end = text.indexOf('"', at + 1);
      for (;;) {
        if (end === -1) return -1;
        let backslashes = 0;
        while (text.charCodeAt(end - 1 - backslashes) === 0x5c) backslashes += 1;
        if (backslashes % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      pattern.lastIndex = end + 1;
    } else if (char === 0x5b || char === 0x7b) {
      depth += 1;
      if (depth > maxDepth) return at;
    } else {
      depth -= 1;
    }
  }
  return -1;
}
