/**
 * Parses JSON text that came out of a sandbox. `JSON.parse` turns a `"__proto__"` key into an own
 * property, which is harmless until some later merge or `Object.assign` copies it onto a
 * prototype; such keys are dropped here so plugin data can never carry one into the engine. The
 * reviver (slow on large pages) only runs when the text could spell that key at all.
 */
export function parseBoundaryJson(text: string): unknown {
  if (!text.includes('__proto__') && !text.includes('\\u')) return JSON.parse(text);
  return JSON.parse(text, (key, value: unknown) => (key === '__proto__' ? undefined : value));
}
