/**
 * Parses JSON text that came out of a sandbox. Two kinds of value are changed on the way in:
 * - `JSON.parse` turns a `"__proto__"` key into an own property, which is harmless until some
 *   later merge or `Object.assign` copies it onto a prototype; such keys are dropped, so plugin
 *   data can never carry one into the engine.
 * - Text PostgreSQL cannot store (a NUL character, or half of a UTF-16 surrogate pair, which is
 *   not Unicode at all) would fail the first write of a parsed file or a provider's answer as a
 *   server error. Each such character, in keys and values, becomes U+FFFD (the replacement
 *   character), as a text decoder does with bytes that are not valid UTF-8.
 * The reviver is slow on large pages, so it runs only when the text could spell either: a
 * `__proto__` key, or a `\u` escape (JSON.stringify writes NUL and lone surrogates as escapes).
 */
export function parseBoundaryJson(text: string): unknown {
  if (!text.includes('__proto__') && !text.includes('\\u')) return JSON.parse(text);
  return JSON.parse(text, (key, value: unknown) => {
    if (key === '__proto__') return undefined;
    if (typeof value === 'string') return storableText(value);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return withStorableKeys(value as Record<string, unknown>);
    return value;
  });
}

/** The text with every NUL and unpaired surrogate replaced by U+FFFD; the same string when there is none. */
export function storableText(text: string): string {
  const wellFormed = text.isWellFormed() ? text : text.toWellFormed();
  return wellFormed.includes('\0') ? wellFormed.replaceAll('\0', '\uFFFD') : wellFormed;
}

/** The object itself, or (only when a key needs it) a copy with every key made storable, in the same order. */
function withStorableKeys(object: Record<string, unknown>): Record<string, unknown> {
  let unstorable = false;
  for (const key of Object.keys(object)) {
    if (storableText(key) !== key) {
      unstorable = true;
      break;
    }
  }
  if (!unstorable) return object;
  const copy: Record<string, unknown> = {};
  // Two keys may become the same one ("a\0" and "a\ud800"): the later value wins, as with any repeated JSON key.
  for (const [key, value] of Object.entries(object)) copy[storableText(key)] = value;
  return copy;
}
