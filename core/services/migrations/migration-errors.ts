import { PluginError, RateLimited } from '@opl/plugin-sdk';
import { ConnectionError } from '../connections/connection.service.ts';

/**
 * How a failure during a migration affects the job. Provider trouble never turns into "no match"
 * or a failed item by itself: an expired connection pauses the job until the user reconnects, a
 * used-up daily quota pauses it until the reset, a rate limit or a passing provider failure makes
 * the worker try again later. Only what retrying cannot fix fails.
 */

export type FailureClass =
  | { kind: 'pause'; code: 'auth_expired' | 'quota_exhausted'; message: string; resumeAt: Date | null }
  /** `retryAfterS`: the provider's own Retry-After, or null (then the wait backs off by attempt, see retry-backoff.ts). */
  | { kind: 'retry'; code: 'rate_limited' | 'provider_unavailable'; message: string; retryAfterS: number | null }
  | { kind: 'fatal'; code: string; message: string };

/** Waits shorter than this are slept through in the worker; longer ones reschedule the job. */
export const INLINE_WAIT_LIMIT_S = 30;

export function classifyFailure(error: unknown): FailureClass {
  if (error instanceof ConnectionError) {
    if (error.code === 'auth_expired') return { kind: 'pause', code: 'auth_expired', message: error.message, resumeAt: null };
    return { kind: 'fatal', code: error.code, message: error.message };
  }
  if (error instanceof RateLimited) {
    if (error.quota) {
      const resumeAt = error.quota.resets_at ? new Date(error.quota.resets_at) : new Date(Date.now() + 3_600_000);
      return { kind: 'pause', code: 'quota_exhausted', message: `The target provider's daily quota is used up until ${resumeAt.toISOString()}; the migration continues by itself then.`, resumeAt };
    }
    return { kind: 'retry', code: 'rate_limited', message: error.message, retryAfterS: error.retryAfterSeconds ?? null };
  }
  if (error instanceof PluginError) {
    if (error.type === 'AuthExpired') return { kind: 'pause', code: 'auth_expired', message: error.message, resumeAt: null };
    if (error.type === 'ProviderError') return { kind: 'retry', code: 'provider_unavailable', message: error.message, retryAfterS: null };
    return { kind: 'fatal', code: `provider_${error.type.toLowerCase()}`, message: error.message };
  }
  if (error instanceof Error && /timed out|timeout|ECONNRESET|ECONNREFUSED|socket hang up|plugin host (?:crashed|restarted)/i.test(error.message)) {
    return { kind: 'retry', code: 'provider_unavailable', message: error.message, retryAfterS: null };
  }
  return { kind: 'fatal', code: 'internal_error', message: error instanceof Error ? error.message : String(error) };
}

/** Thrown inside the pipeline to stop the run and let the runner apply the class. */
export class StopRun extends Error {
  readonly failure: FailureClass;
  constructor(failure: FailureClass) {
    super(failure.message);
    this.name = 'StopRun';
    this.failure = failure;
  }
}

/** Whether a write failed in a way that leaves it unknown whether the provider applied it. */
export function uncertainWrite(error: unknown): boolean {
  if (error instanceof RateLimited) return false;
  if (error instanceof PluginError) return error.type === 'ProviderError';
  if (error instanceof ConnectionError) return false;
  return true;
}
