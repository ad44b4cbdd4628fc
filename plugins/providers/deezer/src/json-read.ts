/**
 * Careful readers for Deezer's JSON. The plugin runs without zod (bundle size), and answers are
 * data from outside: every field is read through these, so a missing or mistyped field becomes
 * `null` or `[]` instead of a crash or a wrong type in the universal model.
 */

export type JsonRecord = Record<string, unknown>;

export function record(value: unknown): JsonRecord | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonRecord) : null;
}

export function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** A string that carries something: empty strings are treated as absent. */
export function nonEmpty(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

export function integer(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) ? value : null;
}

export function flag(value: unknown): boolean | null {
  return typeof value === 'boolean' ? value : null;
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

/** Deezer ids are numbers (sometimes strings); the model keeps them as decimal strings. */
export function idOf(value: unknown): string | null {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return String(value);
  if (typeof value === 'string' && /^\d{1,20}$/.test(value) && !/^0+$/.test(value)) return value;
  return null;
}

/** Unix seconds (Deezer's `time_add`, `time_mod`) as an ISO timestamp; null otherwise. */
export function unixTime(value: unknown): string | null {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > 32_503_680_000) return null;
  return new Date(value * 1000).toISOString();
}
