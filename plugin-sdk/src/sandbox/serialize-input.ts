import { InvalidInput } from '../errors.ts';
import type { Track } from '../model.schema.ts';
import { MAX_SERIALIZE_SLICE_TRACKS, OPERATIONS, serializeLateOptionsSchema, serializeSliceSchema, type OperationInput } from '../operations.schema.ts';
import { fastSerializeInput, fastTracks, MISS } from './fast-result-check.ts';
import { issuesText } from './zod-issues.ts';

/**
 * A serialize input as `OPERATIONS.serialize.input` outputs it (defaults filled in), for a host
 * that received it as plain data — JSON, or a structured clone of JSON-like values such as the
 * engine's message to its plugin-host process — and hands it on with `Sandbox.serializeChecked`.
 * The tracks go through the fast check, which for a 10,000-track playlist costs a fraction of
 * zod's pass (a quarter of a whole export's time); zod decides, and words the refusal, whenever
 * the fast check does not vouch for the value. `Sandbox.serialize` keeps zod for any caller.
 */
export function serializeInputOf(value: unknown): OperationInput<'serialize'> {
  const fast = fastSerializeInput(value);
  if (fast !== MISS) return fast as OperationInput<'serialize'>;
  const parsed = OPERATIONS.serialize.input.safeParse(value ?? {});
  if (!parsed.success) throw new InvalidInput(`invalid serialize input: ${issuesText(parsed.error.issues)}`);
  return parsed.data as OperationInput<'serialize'>;
}

/** One slice of `serializePlaylist`'s tracks as the host hands it to the writer: more tracks in order, or the end with the late options. */
export type SerializeSlice = { readonly done: false; readonly tracks: readonly Track[] } | { readonly done: true; readonly late: Readonly<Record<string, unknown>> };

/** Where `serializePlaylist` pulls its slices from, one call per slice, until one says `done`. */
export type SliceSource = () => Promise<SerializeSlice>;

/**
 * A slice as the writer may receive it, from plain data (a structured clone from the engine): the
 * tracks through the fast check, zod deciding and wording the refusal whenever it does not vouch.
 */
export function serializeSliceOf(value: unknown): SerializeSlice {
  if (typeof value !== 'object' || value === null) throw new InvalidInput('invalid serialize slice: not an object');
  const slice = value as { done?: unknown; tracks?: unknown; late?: unknown };
  if (slice.done === true) {
    const late = serializeLateOptionsSchema.safeParse(slice.late ?? {});
    if (!late.success) throw new InvalidInput(`invalid serialize slice: late options: ${issuesText(late.error.issues)}`);
    return { done: true, late: late.data };
  }
  const fast = fastTracks(slice.tracks, MAX_SERIALIZE_SLICE_TRACKS);
  if (fast !== MISS && slice.tracks !== undefined) return { done: false, tracks: fast };
  const parsed = serializeSliceSchema.safeParse(slice.tracks);
  if (!parsed.success) throw new InvalidInput(`invalid serialize slice: ${issuesText(parsed.error.issues)}`);
  return { done: false, tracks: parsed.data };
}
