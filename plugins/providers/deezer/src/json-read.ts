import { providerKit } from '@opl/plugin-sdk';

/**
 * Careful readers for Deezer's JSON: the SDK's provider-kit readers (every field is read through
 * them, so a missing or mistyped one becomes `null` or `[]`), plus Deezer's own id and time forms.
 */

export type JsonRecord = providerKit.JsonRecord;
export const { record, text, nonEmpty, integer, flag, list, records } = providerKit;

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
