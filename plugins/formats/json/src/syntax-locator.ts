/**
 * Where JSON text first breaks the grammar (RFC 8259), for the issue's line and column: V8's
 * JSON.parse names a position for some errors only. Run only after JSON.parse has failed, on
 * text the depth guard has already bounded, so the explicit stack stays small; linear, no recursion.
 */

const WHITESPACE = /[ \t\n\r]*/y;
// eslint-disable-next-line no-control-regex -- JSON strings may not hold raw U+0000–U+001F: they end the run
const STRING_RUN = /[^"\\\u0000-\u001f]*/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPE = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y;
const LITERALS = ['true', 'false', 'null'];

function skip(pattern: RegExp, text: string, from: number): number {
  pattern.lastIndex = from;
  return pattern.test(text) ? pattern.lastIndex : from;
}

/** Index just past the string starting at `from` (a `"`), or the index of what breaks it, negated minus one. */
function scanString(text: string, from: number): number {
  let index = from + 1;
  for (;;) {
    index = skip(STRING_RUN, text, index);
    const char = text[index];
    if (char === '"') return index + 1;
    if (char !== '\\') return -index - 1; // end of text or a raw control character
    ESCAPE.lastIndex = index;
    if (!ESCAPE.test(text)) return -index - 1;
    index = ESCAPE.lastIndex;
  }
}

/** Index of the first character that makes `text` invalid JSON, or -1 when it is valid. */
export function findSyntaxError(text: string): number {
  const open: string[] = [];
  let state: 'value' | 'key' | 'after' = 'value';
  let index = 0;
  for (;;) {
    index = skip(WHITESPACE, text, index);
    const char = text[index];
    if (state === 'after') {
      const top = open.at(-1);
      if (top === undefined) return index < text.length ? index : -1;
      if (char === ',') state = top === '[' ? 'value' : 'key';
      else if ((char === ']' && top === '[') || (char === '}' && top === '{')) open.pop();
      else return index;
      index += 1;
      continue;
    }
    if (state === 'key') {
      if (char !== '"') return index;
      const end = scanString(text, index);
      if (end < 0) return -end - 1;
      index = skip(WHITESPACE, text, end);
      if (text[index] !== ':') return index;
      index += 1;
      state = 'value';
      continue;
    }
    if (char === '[' || char === '{') {
      open.push(char);
      index = skip(WHITESPACE, text, index + 1);
      const closing = char === '[' ? ']' : '}';
      if (text[index] === closing) {
        open.pop();
        index += 1;
        state = 'after';
      } else state = char === '[' ? 'value' : 'key';
      continue;
    }
    if (char === '"') {
      const end = scanString(text, index);
      if (end < 0) return -end - 1;
      index = end;
    } else {
      NUMBER.lastIndex = index;
      const literal = LITERALS.find((word) => text.startsWith(word, index));
      if (literal !== undefined) index += literal.length;
      else if (NUMBER.test(text)) index = NUMBER.lastIndex;
      else return index;
    }
    state = 'after';
  }
}
