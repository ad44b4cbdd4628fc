import { findExcessiveNesting, jsonDepthExceeds, MAX_METADATA_DEPTH } from '@opl/plugin-sdk';

/**
 * How deeply the free-form JSON a file gives us (`metadata`, `provider_metadata`) nests. Values
 * nested thousands deep are cheap to parse (V8's JSON.parse does not recurse) but overflow the
 * stack of every recursive walk after it — the host's JSON.stringify when it stores the import —
 * so the readers keep none deeper than the JSON plugin accepts (`too_deeply_nested`, 64 levels).
 * The object itself is level 1: `{}` is 1, `{"a": []}` 2. Both checks below are iterative and
 * stop as soon as the limit is passed.
 */
export const MAX_JSON_DEPTH = MAX_METADATA_DEPTH;

/**
 * What the XSPF reader keeps instead of a JSON text that nests too deep: the text is never
 * parsed, so a 50 MB `<opl:metadata>` of `[` never becomes millions of arrays in the sandbox.
 */
export const TOO_DEEPLY_NESTED: unique symbol = Symbol('too deeply nested JSON');

/**
 * True when JSON text opens more than `max` arrays/objects inside one another, in one linear
 * pass; brackets inside strings do not count, malformed text is not judged (JSON.parse reports it).
 */
export function textNestsDeeper(text: string, max: number = MAX_JSON_DEPTH): boolean {
  return findExcessiveNesting(text, max) !== -1;
}

/** True when a parsed value (JSPF's, which arrives parsed) nests more than `max` levels deep. */
export function valueNestsDeeper(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  return jsonDepthExceeds(value, max);
}
