/**
 * The token-bucket arithmetic of the central rate limiter, pure so it can be tested without a
 * database. A bucket refills at `rate` tokens per second up to `burst`; a request takes one token;
 * a provider's Retry-After blocks the bucket until then; a daily quota (provider cost units per
 * UTC day) is counted separately and never waited for — it is reported.
 */

export interface BucketState {
  readonly tokens: number;
  readonly refilledAt: Date;
  readonly blockedUntil: Date | null;
  /** `YYYY-MM-DD` (UTC) of `quotaUsed`. */
  readonly quotaDay: string | null;
  readonly quotaUsed: number;
}

export interface BucketRules {
  /** Tokens per second. */
  readonly rate: number;
  readonly burst: number;
  /** Quota units per UTC day, or null. */
  readonly dailyQuota: number | null;
}

export type TakeOutcome =
  | { readonly kind: 'granted'; readonly next: BucketState }
  /** Try again in `waitMs`; `next` records the refill so far (and any new block). */
  | { readonly kind: 'wait'; readonly waitMs: number; readonly next: BucketState }
  | { readonly kind: 'quota_exhausted'; readonly resetsAt: Date; readonly next: BucketState };

export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

function nextUtcMidnight(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1));
}

export function freshBucket(rules: BucketRules, now: Date): BucketState {
  return { tokens: rules.burst, refilledAt: now, blockedUntil: null, quotaDay: utcDay(now), quotaUsed: 0 };
}

/**
 * One attempt to take a token costing `cost` quota units. `retryAfterS` (the provider just
 * answered 429) blocks the bucket first, so every process holds back, not only the caller.
 */
export function takeToken(state: BucketState, rules: BucketRules, cost: number, now: Date, retryAfterS: number | null = null): TakeOutcome {
  const elapsedS = Math.max(0, (now.getTime() - state.refilledAt.getTime()) / 1000);
  const tokens = Math.min(rules.burst, state.tokens + elapsedS * rules.rate);
  let blockedUntil = state.blockedUntil;
  if (retryAfterS !== null && retryAfterS > 0) {
    const until = new Date(now.getTime() + retryAfterS * 1000);
    if (!blockedUntil || until > blockedUntil) blockedUntil = until;
  }
  if (blockedUntil && blockedUntil <= now) blockedUntil = null;
  const today = utcDay(now);
  const quotaUsed = state.quotaDay === today ? state.quotaUsed : 0;
  const base: BucketState = { tokens, refilledAt: now, blockedUntil, quotaDay: today, quotaUsed };

  if (rules.dailyQuota !== null && quotaUsed + cost > rules.dailyQuota) {
    return { kind: 'quota_exhausted', resetsAt: nextUtcMidnight(now), next: base };
  }
  if (blockedUntil) return { kind: 'wait', waitMs: blockedUntil.getTime() - now.getTime(), next: base };
  if (tokens < 1) return { kind: 'wait', waitMs: Math.ceil(((1 - tokens) / rules.rate) * 1000), next: base };
  return { kind: 'granted', next: { ...base, tokens: tokens - 1, quotaUsed: quotaUsed + cost } };
}
