import { ProviderError } from '../errors.ts';
import { OPERATIONS, type OperationName, type OperationResult } from '../operations.schema.ts';
import { parseBoundaryJson } from './boundary-json.ts';
import { fastResult, MISS } from './fast-result-check.ts';
import { issuesText } from './zod-issues.ts';

/** Checks a result against its operation's output schema (defaults filled in); a mismatch is a `ProviderError`. */
export function validateResult<N extends OperationName>(pluginId: string, op: N, value: unknown): OperationResult<N> {
  const parsed = OPERATIONS[op].output.safeParse(value);
  if (!parsed.success) throw new ProviderError(`${pluginId} returned data that does not match the ${op} contract: ${issuesText(parsed.error.issues)}`);
  return parsed.data as OperationResult<N>;
}

/**
 * Parses a result's JSON text as it came across the boundary and checks it against its operation's
 * output schema: the tracks of track-heavy results by the fast check, everything else (and every
 * value the fast check does not vouch for) by zod. The one parse and the one validation of a result.
 */
export function validateResultText<N extends OperationName>(pluginId: string, op: N, text: string): OperationResult<N> {
  let value: unknown;
  try {
    value = parseBoundaryJson(text);
  } catch {
    throw new ProviderError(`${pluginId}: the result of ${op} is not JSON`);
  }
  const fast = fastResult(op, value);
  return fast === MISS ? validateResult(pluginId, op, value) : (fast as OperationResult<N>);
}
