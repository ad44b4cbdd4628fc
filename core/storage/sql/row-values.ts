/**
 * Column values of raw SQL rows, as the views turn them into API shapes. The pg driver answers
 * timestamps as Date and json columns as parsed values, but rows that pass through a CTE's
 * `row_to_json` or a NOTIFY payload arrive as strings: both spellings are accepted.
 */

/** A timestamp column as an ISO string; null stays null. */
export function isoOrNull(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return (value instanceof Date ? value : new Date(value as string)).toISOString();
}

/** A json/jsonb column's value, `fallback` when null. */
export function jsonColumn<T>(value: unknown, fallback: T): T {
  if (value === null || value === undefined) return fallback;
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}
