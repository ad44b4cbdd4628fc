/**
 * How long a migration waits before trying a provider again after a rate limit or a passing
 * failure. A provider that says when (Retry-After) is followed to the second, within a cap: it
 * knows its own limits better than any guess, and waiting less only earns another 429. Without a
 * hint the wait grows exponentially with the attempt, with "equal jitter" (half fixed, half random)
 * so that several jobs stopped by the same outage do not all return in the same second.
 */

export interface BackoffPolicy {
  /** First wait without a hint, in seconds. */
  baseSeconds: number;
  /** No wait is longer than this, hinted or not. */
  capSeconds: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseSeconds: 2, capSeconds: 3_600 };

/**
 * The wait before attempt `attempt + 1` (attempt 0 is the first retry).
 * `random` returns a number in [0, 1) — injectable so tests can pin the jitter.
 */
export function retryDelaySeconds(retryAfterS: number | null, attempt: number, policy: BackoffPolicy = DEFAULT_BACKOFF, random: () => number = Math.random): number {
  if (retryAfterS !== null && Number.isFinite(retryAfterS) && retryAfterS >= 0) return Math.min(policy.capSeconds, Math.max(1, Math.ceil(retryAfterS)));
  // 2 ** 30 already passes any sensible cap; bounding the exponent keeps the arithmetic finite.
  const ceiling = Math.min(policy.capSeconds, policy.baseSeconds * 2 ** Math.min(Math.max(0, attempt), 30));
  const half = ceiling / 2;
  return Math.max(1, Math.round(half + random() * half));
}
