/**
 * How deeply the free-form JSON a file gives us (`metadata`, `provider_metadata`) nests. Values
 * nested thousands deep are cheap to parse (V8's JSON.parse does not recurse) but overflow the
 * stack of every recursive walk after it — the host's JSON.stringify when it stores the import —
 * so the readers keep none deeper than the JSON plugin accepts (`too_deeply_nested`, 64 levels).
 * The object itself is level 1: `{}` is 1, `{"a": []}` 2. Both checks below are iterative and
 * stop as soon as the limit is passed.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * What the XSPF reader keeps instead of a JSON text that nests too deep: the text is never
 * parsed, so a 50 MB `<opl:metadata>` of `[` never becomes millions of arrays in the sandbox.
 */
export const TOO_DEEPLY_NESTED: unique symbol = Symbol('too deeply nested JSON');

/**
 * True when JSON text opens more than `max` arrays/objects inside one another, in one linear
 * pass (the JSON plugin's depth guard does the same for a whole file). Brackets inside strings do
 * not count; malformed text is not judged here (JSON.parse reports it).
 */
export function textNestsDeeper(text: string, max: number = MAX_JSON_DEPTH): boolean {
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
      if (depth > max) return true;
    } else if (char === 0x5d || char === 0x7d) {
      depth -= 1;
    }
  }
  return false;
}

/** True when a parsed value (JSPF's, which arrives parsed) nests more than `max` levels deep. */
export function valueNestsDeeper(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (child !== null && typeof child === 'object') stack.push({ value: child, depth: depth + 1 });
    }
  }
  return false;
}
