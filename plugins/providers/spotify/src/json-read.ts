/**
 * Careful readers for provider JSON. The plugin runs without zod (bundle size), and Spotify's
 * answers are data from outside: every field is read through these, so a missing or mistyped field
 * becomes `null` or `[]` instead of a crash or a wrong type in the universal model.
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

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;

/** An ISO 8601 timestamp with an offset, as the universal model needs it; null otherwise. */
export function timestamp(value: unknown): string | null {
  return typeof value === 'string' && ISO_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)) ? value : null;
}
