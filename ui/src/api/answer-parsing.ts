/**
 * The small checks every API client module parses the engine's answers with. An answer that does
 * not have the expected shape parses to `undefined`, and the page shows it as an unusable answer
 * instead of guessing.
 */

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const isString = (value: unknown): value is string => typeof value === 'string';

/** Fields a newer engine added: absent means "not reported", which reads as null. */
export const nullableString = (value: unknown): string | null | undefined => (value === undefined || value === null ? null : isString(value) ? value : undefined);

/** A string field read leniently: anything else (absent, wrong type) reads as null. */
export const stringOrNull = (value: unknown): string | null => (isString(value) ? value : null);

/** A finite number, else null. */
export const finiteNumber = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

export const stringList = (value: unknown): string[] | undefined => (Array.isArray(value) && value.every(isString) ? [...value] : undefined);

/** Parses every element or none: one malformed element makes the whole list unusable. */
export function listOf<T>(value: unknown, parse: (item: unknown, index: number) => T | undefined): T[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const parsed: T[] = [];
  for (const [index, item] of value.entries()) {
    const one = parse(item, index);
    if (one === undefined) return undefined;
    parsed.push(one);
  }
  return parsed;
}
