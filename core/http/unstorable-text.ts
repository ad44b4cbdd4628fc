/**
 * Finds text in a JSON request body that PostgreSQL cannot store: a NUL character (U+0000) or an
 * unpaired UTF-16 surrogate (valid JSON — `"\u0000"`, `"\ud800"` — but not text a `jsonb` or
 * `text` column takes). Refused at the HTTP boundary with where it is, instead of failing the
 * first database write as a server error. Files are different: their parsers' results are made
 * storable at the plugin boundary (parseBoundaryJson), since a user cannot always fix a file.
 */

export interface UnstorableText {
  /** Where in the body, e.g. `body.provider_data.tracks[0].title` (or `body.metadata["k\u0000"] (the key)`). */
  readonly path: string;
  readonly what: 'a NUL character (U+0000)' | 'an unpaired UTF-16 surrogate';
}

function problemOf(text: string): UnstorableText['what'] | null {
  if (text.includes('\0')) return 'a NUL character (U+0000)';
  return text.isWellFormed() ? null : 'an unpaired UTF-16 surrogate';
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function member(path: string, key: string): string {
  return IDENTIFIER.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key.slice(0, 60).toWellFormed())}]`;
}

/** The first unstorable text in a parsed JSON value (depth first, document order), or null. */
export function findUnstorableText(value: unknown, path = 'body'): UnstorableText | null {
  // An explicit stack: a deeply nested body must not exhaust the call stack.
  const stack: [unknown, string][] = [[value, path]];
  while (stack.length > 0) {
    const [current, where] = stack.pop()!;
    if (typeof current === 'string') {
      const what = problemOf(current);
      if (what) return { path: where, what };
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--) stack.push([current[index], `${where}[${index}]`]);
    } else if (current !== null && typeof current === 'object' && Object.getPrototypeOf(current) === Object.prototype) {
      const keys = Object.keys(current);
      for (const key of keys) {
        const what = problemOf(key);
        if (what) return { path: `${member(where, key)} (the key)`, what };
      }
      for (let index = keys.length - 1; index >= 0; index--) stack.push([(current as Record<string, unknown>)[keys[index]!], member(where, keys[index]!)]);
    }
  }
  return null;
}
