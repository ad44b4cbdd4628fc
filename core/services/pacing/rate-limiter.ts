import { RateLimited, type Pacing } from '@opl/plugin-sdk';
import type { AcquirePermit } from '@opl/plugin-sdk/sandbox';
import type { Execute } from '../../plugins/plugin-store.ts';
import { bucketBudget, bucketNames, DEFAULT_BUCKET, exhaustQuota, priceRequest, quotaBucketKey, takeQuota, type QuotaRequestInfo, type QuotaState } from './quota-bucket.ts';
import { nextQuotaReset } from './quota-day.ts';
import { quotaForecast, type QuotaForecast, type QuotaForecastOptions, type QuotaUsage } from './quota-forecast.ts';
import { ensureBucket, ensureQuotaBucket, lockBucket, lockQuotaBucket, readQuotaBuckets, saveBucket, saveQuotaBucket } from './rate-limiter.sql.ts';
import { takeToken, type BucketRules, type BucketState, type TakeOutcome } from './token-bucket.ts';

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

/**
 * A permit, optionally with the request it is for (method and URL) so a declared quota can price
 * it; the request may also come as `acquire`'s second argument (the plugin host passes it so).
 */
export interface PacedPermit extends AcquirePermit {
  readonly request?: QuotaRequestInfo | null;
}

/**
 * The day's budget cannot pay for the request: it is refused before it is sent. The message
 * starts with the quota marker (see RateLimited.quotaMarker), which survives every hop to the
 * plugin and back, so the call fails as a `RateLimited` with `quota` set.
 */
export class QuotaExhausted extends Error {
  readonly resetsAt: Date;
  readonly bucket: string;
  constructor(resetsAt: Date, quota: number, bucket = DEFAULT_BUCKET) {
    super(
      `${RateLimited.quotaMarker({ bucket, resets_at: resetsAt.toISOString() })} the provider's daily quota${bucket === DEFAULT_BUCKET ? '' : ` for ${bucket}`} of ${quota} units is used up until ${resetsAt.toISOString()}`,
    );
    this.name = 'QuotaExhausted';
    this.resetsAt = resetsAt;
    this.bucket = bucket;
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

/** A request waiting for a token of its bucket. */
interface Waiter {
  readonly cost: number;
  /** The provider's Retry-After that sent this request back here, applied once. */
  retryAfterS: number | null;
  waited: number;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

export class RateLimiter {
  readonly #options: RateLimiterOptions;
  /** Per bucket, the requests of this process waiting to be decided. */
  readonly #waiting = new Map<string, Waiter[]>();
  readonly #draining = new Set<string>();
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #random: () => number;

  constructor(options: RateLimiterOptions) {
    this.#options = options;
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.#random = options.random ?? Math.random;
  }

  /** Resolves when the request may go out; rejects when the quota is exhausted or the wait too long. */
  async acquire(permit: PacedPermit, request: QuotaRequestInfo | null = null): Promise<void> {
    const pacing = this.#options.pacingFor(permit.pluginId);
    if (!pacing) return;
    if (pacing.quota) return this.#acquireWithQuota(permit, request ?? permit.request ?? null, pacing);
    const rules: BucketRules = { rate: pacing.requests_per_second, burst: pacing.burst, dailyQuota: pacing.daily_quota };
    const key = bucketKey(permit.pluginId, permit.accountId);
    await new Promise<void>((resolve, reject) => {
      const waiting = this.#waiting.get(key);
      const waiter: Waiter = { cost: permit.cost, retryAfterS: permit.retryAfterS ?? null, waited: 0, resolve, reject };
      if (waiting) waiting.push(waiter);
      else this.#waiting.set(key, [waiter]);
      if (!this.#draining.has(key)) {
        this.#draining.add(key);
        // Started on the next turn, so that requests asked for together are decided together.
        setImmediate(() => void this.#drain(key, rules));
      }
    });
    if (pacing.jitter) await this.#sleep(Math.floor(this.#random() * Math.min(2_000, 1_000 / rules.rate)));
  }

  /**
   * Decides the waiting requests of one bucket in batches: one transaction (one row lock) takes a
   * token for each waiter in turn, as if they had asked one after another at the same instant, so
   * the bucket arithmetic and its sharing between processes are those of single requests. The
   * waiters that got no token sleep until the next one is due and join the next batch, with those
   * that arrived meanwhile.
   */
  async #drain(key: string, rules: BucketRules): Promise<void> {
    const maxWait = this.#options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
    try {
      for (;;) {
        const batch = this.#waiting.get(key) ?? [];
        this.#waiting.delete(key);
        if (batch.length === 0) return;
        let outcomes: TakeOutcome[];
        try {
          outcomes = await this.#takeTokens(key, rules, batch);
        } catch (error) {
          for (const waiter of batch) waiter.reject(error);
          continue;
        }
        const stillWaiting: Waiter[] = [];
        let pauseMs = Infinity;
        batch.forEach((waiter, index) => {
          const outcome = outcomes[index]!;
          waiter.retryAfterS = null;
          if (outcome.kind === 'granted') waiter.resolve();
          else if (outcome.kind === 'quota_exhausted') waiter.reject(new QuotaExhausted(outcome.resetsAt, rules.dailyQuota ?? 0));
          else if (waiter.waited + outcome.waitMs > maxWait) waiter.reject(new RateLimitWaitTooLong(outcome.waitMs));
          else {
            stillWaiting.push(waiter);
            pauseMs = Math.min(pauseMs, outcome.waitMs);
          }
        });
        if (stillWaiting.length === 0) continue;
        // A little spread so processes woken together do not collide again.
        const pause = pauseMs + Math.floor(this.#random() * 50);
        for (const waiter of stillWaiting) waiter.waited += pause;
        await this.#sleep(pause);
        this.#waiting.set(key, [...stillWaiting, ...(this.#waiting.get(key) ?? [])]);
      }
    } finally {
      this.#draining.delete(key);
      // A waiter that arrived between the last empty check and here is decided by a new drain.
      if (this.#waiting.has(key)) {
        this.#draining.add(key);
        setImmediate(() => void this.#drain(key, rules));
      }
    }
  }

  /** One transaction: each waiter's token taken in turn from the locked bucket row. */
  async #takeTokens(key: string, rules: BucketRules, batch: readonly Waiter[]): Promise<TakeOutcome[]> {
    return this.#options.transaction(async (execute) => {
      await execute(ensureBucket(key, rules.burst));
      const [row] = await execute(lockBucket(key));
      let state: BucketState = {
        tokens: Number(row!['tokens']),
        refilledAt: new Date(row!['refilled_at'] as string),
        blockedUntil: row!['blocked_until'] ? new Date(row!['blocked_until'] as string) : null,
        quotaDay: (row!['quota_day'] as string | null) ?? null,
        quotaUsed: Number(row!['quota_used']),
      };
      const now = new Date(row!['now'] as string);
      const outcomes = batch.map((waiter) => {
        const outcome = takeToken(state, rules, waiter.cost, now, waiter.retryAfterS);
        state = outcome.next;
        return outcome;
      });
      await execute(saveBucket(key, state));
      return outcomes;
    });
  }

  /**
   * Pacing with a declared quota: the token row paces the account's requests, and the request's
   * quota bucket row (per account, or one per engine for `client`-scoped quotas) pays for it. The
   * quota is checked first, so a refused request never takes a token.
   */
  async #acquireWithQuota(permit: PacedPermit, request: QuotaRequestInfo | null, pacing: Pacing): Promise<void> {
    const quota = pacing.quota!;
    const timeZone = quota.reset.time_zone;
    const priced = priceRequest(quota, request, permit.cost);
    const budget = bucketBudget(quota, priced.bucket) ?? quota.daily_units;
    const bucket = bucketBudget(quota, priced.bucket) === null ? DEFAULT_BUCKET : priced.bucket;
    const rules: BucketRules = { rate: pacing.requests_per_second, burst: pacing.burst, dailyQuota: null };
    const key = bucketKey(permit.pluginId, permit.accountId);
    const quotaKey = quotaBucketKey(permit.pluginId, permit.accountId, quota, bucket);
    const maxWait = this.#options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
    let retryAfter = permit.retryAfterS ?? null;
    let waited = 0;
    for (;;) {
      const outcome = await this.#options.transaction(async (execute) => {
        await execute(ensureBucket(key, rules.burst));
        await execute(ensureQuotaBucket(quotaKey));
        const [row] = await execute(lockBucket(key));
        const [quotaRow] = await execute(lockQuotaBucket(quotaKey));
        const now = new Date(quotaRow!['now'] as string);
        const spent = takeQuota(quotaStateOf(quotaRow!), budget, priced.units, now, timeZone);
        const tokenState: BucketState = {
          tokens: Number(row!['tokens']),
          refilledAt: new Date(row!['refilled_at'] as string),
          blockedUntil: row!['blocked_until'] ? new Date(row!['blocked_until'] as string) : null,
          quotaDay: null,
          quotaUsed: 0,
        };
        if (spent.kind === 'quota_exhausted') {
          await execute(saveQuotaBucket(quotaKey, spent.next));
          return spent;
        }
        const taken = takeToken(tokenState, rules, 0, now, retryAfter);
        await execute(saveBucket(key, taken.next));
        if (taken.kind === 'granted') await execute(saveQuotaBucket(quotaKey, spent.next));
        return taken;
      });
      retryAfter = null;
      if (outcome.kind === 'granted') break;
      if (outcome.kind === 'quota_exhausted') throw new QuotaExhausted(outcome.resetsAt, budget, bucket);
      if (waited + outcome.waitMs > maxWait) throw new RateLimitWaitTooLong(outcome.waitMs);
      const pause = outcome.waitMs + Math.floor(this.#random() * 50);
      waited += pause;
      await this.#sleep(pause);
    }
    if (pacing.jitter) await this.#sleep(Math.floor(this.#random() * Math.min(2_000, 1_000 / rules.rate)));
  }

  /**
   * The provider itself answered that a daily quota is used up: the bucket counts as spent until
   * it resets, so no process sends another request of that bucket today. Resolves with the reset
   * time, or null when the plugin declares no daily quota (nothing to mark).
   */
  async markExhausted(pluginId: string, accountId: string | null, bucket: string = DEFAULT_BUCKET): Promise<Date | null> {
    const pacing = this.#options.pacingFor(pluginId);
    if (!pacing) return null;
    const quota = pacing.quota;
    if (!quota) {
      if (pacing.daily_quota === null) return null;
      const key = bucketKey(pluginId, accountId);
      const dailyQuota = pacing.daily_quota;
      return this.#options.transaction(async (execute) => {
        await execute(ensureBucket(key, pacing.burst));
        const [row] = await execute(lockBucket(key));
        const now = new Date(row!['now'] as string);
        const state: BucketState = {
          tokens: Number(row!['tokens']),
          refilledAt: new Date(row!['refilled_at'] as string),
          blockedUntil: row!['blocked_until'] ? new Date(row!['blocked_until'] as string) : null,
          ...exhaustQuota(quotaStateOf(row!), dailyQuota, now, 'UTC'),
        };
        await execute(saveBucket(key, state));
        return nextQuotaReset(now, 'UTC');
      });
    }
    const known = bucketBudget(quota, bucket) === null ? DEFAULT_BUCKET : bucket;
    const budget = bucketBudget(quota, known)!;
    const quotaKey = quotaBucketKey(pluginId, accountId, quota, known);
    return this.#options.transaction(async (execute) => {
      await execute(ensureQuotaBucket(quotaKey));
      const [row] = await execute(lockQuotaBucket(quotaKey));
      const now = new Date(row!['now'] as string);
      await execute(saveQuotaBucket(quotaKey, exhaustQuota(quotaStateOf(row!), budget, now, quota.reset.time_zone)));
      return nextQuotaReset(now, quota.reset.time_zone);
    });
  }

  /** Today's usage of each quota bucket of a plugin for an account, with the database clock. */
  async quotaUsage(pluginId: string, accountId: string | null): Promise<{ usage: QuotaUsage; now: Date }> {
    const pacing = this.#options.pacingFor(pluginId);
    const quota = pacing?.quota ?? null;
    const keys = new Map<string, string>();
    if (quota) for (const name of bucketNames(quota)) keys.set(quotaBucketKey(pluginId, accountId, quota, name), name);
    else keys.set(bucketKey(pluginId, accountId), DEFAULT_BUCKET);
    const rows = await this.#options.transaction((execute) => execute(readQuotaBuckets([...keys.keys()])));
    const usage: Record<string, QuotaState> = {};
    let now = new Date();
    for (const row of rows) {
      if (row['now']) now = new Date(row['now'] as string);
      const name = typeof row['bucket_key'] === 'string' ? keys.get(row['bucket_key']) : undefined;
      if (name) usage[name] = quotaStateOf(row);
    }
    return { usage, now };
  }

  /** "How many songs fit today" for one account (see quotaForecast); unlimited for unknown plugins. */
  async forecast(pluginId: string, accountId: string | null, options: QuotaForecastOptions = {}): Promise<QuotaForecast> {
    const pacing = this.#options.pacingFor(pluginId);
    const { usage, now } = await this.quotaUsage(pluginId, accountId);
    if (!pacing) return quotaForecast({ requests_per_second: 1, burst: 1, jitter: false, search_quota_cost: 0, write_quota_cost: 0, daily_quota: null, quota: null }, usage, now, options);
    return quotaForecast(pacing, usage, now, options);
  }
}

function quotaStateOf(row: Record<string, unknown>): QuotaState {
  return { quotaDay: (row['quota_day'] as string | null) ?? null, quotaUsed: Number(row['quota_used'] ?? 0) };
}
