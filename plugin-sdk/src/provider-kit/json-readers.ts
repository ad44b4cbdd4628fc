/**
 * Careful readers for a provider's JSON. Plugins run without zod (bundle size), and answers are
 * data from outside: read every field through these, so a missing or mistyped field becomes
 * `null`, `[]` or `undefined` instead of a crash or a wrong type in the universal model.
 */

export type JsonRecord = Record<string, unknown>;

/** A plain object (not an array, not null), or null. */
export function record(value: unknown): JsonRecord | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonRecord) : null;
}

export function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** A string that carries something: empty and blank strings are treated as absent. */
export function nonEmpty(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

export function integer(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) ? value : null;
}

export function finite(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export function flag(value: unknown): boolean | null {
  return typeof value === 'boolean' ? value : null;
}

export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? (value as unknown[]) : [];
}

/** The records of an array, skipping anything else. */
export function records(value: unknown): JsonRecord[] {
  return list(value).flatMap((entry) => {
    const found = record(entry);
    return found ? [found] : [];
  });
}

/**
 * Follows a path of keys and array indexes: `at(answer, 'contents', 'tabs', 0, 'tabRenderer')`.
 * A key step needs a record and an index step an array; any missing step yields undefined.
 */
export function at(value: unknown, ...path: readonly (string | number)[]): unknown {
  let current: unknown = value;
  for (const step of path) {
    if (typeof step === 'number') {
      if (!Array.isArray(current)) return undefined;
      current = (current as unknown[])[step];
    } else {
      const found = record(current);
      if (!found) return undefined;
      current = found[step];
    }
  }
  return current;
}
