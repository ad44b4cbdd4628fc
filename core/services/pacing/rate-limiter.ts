import type { Pacing } from '@opl/plugin-sdk';
import type { AcquirePermit } from '@opl/plugin-sdk/sandbox';
import type { Execute } from '../../plugins/plugin-store.ts';
import { ensureBucket, lockBucket, saveBucket } from './rate-limiter.sql.ts';
import { takeToken, type BucketRules, type BucketState } from './token-bucket.ts';

/**
 * The central rate limiter: every request a provider plugin makes waits here first. Buckets live
 * in PostgreSQL, one per plugin and account, so every engine process (API and workers) shares
 * them; the database clock decides. A 429's Retry-After blocks the whole bucket. Unofficial
 * providers get random jitter so the engine never looks like a metronome.
 */

export type Transaction = <T>(work: (execute: Execute) => Promise<T>) => Promise<T>;

export interface RateLimiterOptions {
  readonly transaction: Transaction;
  /** The pacing hints of a loaded plugin's manifest; null for plugins without any (format plugins). */
  readonly pacingFor: (pluginId: string) => Pacing | null;
  /** Longest a request may wait before it is refused (ms). */
  readonly maxWaitMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly random?: () => number;
}

export class QuotaExhausted extends Error {
  readonly resetsAt: Date;
  constructor(resetsAt: Date, quota: number) {
    super(`the provider's daily quota of ${quota} units is used up until ${resetsAt.toISOString()}`);
    this.name = 'QuotaExhausted';
    this.resetsAt = resetsAt;
  }
}

export class RateLimitWaitTooLong extends Error {
  constructor(waitMs: number) {
    super(`the provider asked to wait ${Math.ceil(waitMs / 1000)} s, longer than the engine waits within one request`);
    this.name = 'RateLimitWaitTooLong';
  }
}

const DEFAULT_MAX_WAIT_MS = 5 * 60_000;

export function bucketKey(pluginId: string, accountId: string | null): string {
  return `${pluginId}|${accountId ?? '-'}`;
}

export class RateLimiter {
  readonly #options: RateLimiterOptions;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #random: () => number;

  constructor(options: RateLimiterOptions) {
    this.#options = options;
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.#random = options.random ?? Math.random;
  }

  /** Resolves when the request may go out; rejects when the quota is exhausted or the wait too long. */
  async acquire(permit: AcquirePermit): Promise<void> {
    const pacing = this.#options.pacingFor(permit.pluginId);
    if (!pacing) return;
    const rules: BucketRules = { rate: pacing.requests_per_second, burst: pacing.burst, dailyQuota: pacing.daily_quota };
    const key = bucketKey(permit.pluginId, permit.accountId);
    const maxWait = this.#options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
    let retryAfter = permit.retryAfterS ?? null;
    let waited = 0;
    for (;;) {
      const outcome = await this.#options.transaction(async (execute) => {
        await execute(ensureBucket(key, rules.burst));
        const [row] = await execute(lockBucket(key));
        const state: BucketState = {
          tokens: Number(row!['tokens']),
          refilledAt: new Date(row!['refilled_at'] as string),
          blockedUntil: row!['blocked_until'] ? new Date(row!['blocked_until'] as string) : null,
          quotaDay: (row!['quota_day'] as string | null) ?? null,
          quotaUsed: Number(row!['quota_used']),
        };
        const result = takeToken(state, rules, permit.cost, new Date(row!['now'] as string), retryAfter);
        await execute(saveBucket(key, result.next));
        return result;
      });
      retryAfter = null;
      if (outcome.kind === 'granted') break;
      if (outcome.kind === 'quota_exhausted') throw new QuotaExhausted(outcome.resetsAt, rules.dailyQuota ?? 0);
      if (waited + outcome.waitMs > maxWait) throw new RateLimitWaitTooLong(outcome.waitMs);
      // A little spread so processes woken together do not collide again.
      const pause = outcome.waitMs + Math.floor(this.#random() * 50);
      waited += pause;
      await this.#sleep(pause);
    }
    if (pacing.jitter) await this.#sleep(Math.floor(this.#random() * Math.min(2_000, 1_000 / rules.rate)));
  }
}
