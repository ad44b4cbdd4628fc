/**
 * Careful readers for InnerTube JSON. Its answers are deep, renderer-keyed trees that change
 * without notice, and the plugin runs without zod: every field is read through these, so a missing
 * or reshaped branch becomes `null` or `[]` rather than a crash or a wrong type.
 */

export type JsonRecord = Record<string, unknown>;

export function record(value: unknown): JsonRecord | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonRecord) : null;
}

export function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export function nonEmpty(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? (value as unknown[]) : [];
}

export function records(value: unknown): JsonRecord[] {
  return list(value).flatMap((entry) => {
    const found = record(entry);
    return found ? [found] : [];
  });
}

/**
 * Follows a path of keys and array indexes: `at(answer, 'contents', 'tabs', 0, 'tabRenderer')`.
 * Any missing step yields undefined.
 */
export function at(value: unknown, ...path: (string | number)[]): unknown {
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

/** The `runs` of a formatted text object (`{runs: [{text}]}`). */
export function runs(value: unknown): JsonRecord[] {
  return records(record(value)?.['runs']);
}

/** All run texts of a formatted text joined, or its `simpleText`. */
export function joinedText(value: unknown): string | null {
  const found = record(value);
  if (!found) return null;
  const simple = nonEmpty(found['simpleText']);
  if (simple) return simple;
  const parts = runs(found).map((run) => text(run['text']) ?? '');
  return parts.length > 0 ? parts.join('') : null;
}

/** The only key of a renderer wrapper (`{musicResponsiveListItemRenderer: {…}}` → its name and body). */
export function rendererOf(value: unknown): { name: string; body: JsonRecord } | null {
  const found = record(value);
  if (!found) return null;
  const [name] = Object.keys(found);
  const body = name ? record(found[name]) : null;
  return name && body ? { name, body } : null;
}
