import { providerKit } from '@opl/plugin-sdk';

/**
 * Careful readers for Spotify's JSON: the SDK's provider-kit readers (every field is read through
 * them, so a missing or mistyped one becomes `null` or `[]`), plus the timestamps the model needs.
 */

export type JsonRecord = providerKit.JsonRecord;
export const { record, text, nonEmpty, integer, finite, flag, list, records } = providerKit;

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;

/** An ISO 8601 timestamp with an offset, as the universal model needs it; null otherwise. */
export function timestamp(value: unknown): string | null {
  return typeof value === 'string' && ISO_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)) ? value : null;
}
