import { providerKit } from '@opl/plugin-sdk';

/**
 * Careful readers for InnerTube JSON. Its answers are deep, renderer-keyed trees that change
 * without notice: every field is read through the SDK's provider-kit readers, so a missing or
 * reshaped branch becomes `null` or `[]` rather than a crash; `at` follows a path of keys and
 * indexes. The formatted-text and renderer readers below are InnerTube's own.
 */

export type JsonRecord = providerKit.JsonRecord;
export const { record, text, nonEmpty, list, records, at } = providerKit;

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
