import { InvalidInput } from '../errors.ts';
import { OPERATIONS, type OperationInput } from '../operations.schema.ts';
import { fastSerializeInput, MISS } from './fast-result-check.ts';
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
