import type { Pacing } from '@opl/plugin-sdk';
import { nextQuotaReset, quotaDay } from './quota-day.ts';

/**
 * The quota side of pacing, pure: which bucket a request draws from and how many units it costs
 * (from the manifest's `pacing.quota` rules), and the daily arithmetic of one bucket. A request
 * that would take a bucket past its daily budget is refused before it is sent; nothing waits a
 * day — the refusal says when the budget resets.
 */

export const DEFAULT_BUCKET = 'default';

/** A manifest's declared quota (`pacing.quota`). */
export type Quota = NonNullable<Pacing['quota']>;
export type QuotaCostRule = Quota['costs'][number];

/** The request a permit is for, as the plugin host saw it. */
export interface QuotaRequestInfo {
  readonly method: string;
  readonly url: string;
}

export interface PricedRequest {
  readonly bucket: string;
  readonly units: number;
  readonly countsAs: QuotaCostRule['counts_as'];
}

function pathMatches(path: string, prefix: string): boolean {
  if (path === prefix) return true;
  return path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`);
}

/**
 * The bucket and units of one request. Without request details (an older host) the operation's
 * coarse cost (`fallbackUnits`) is charged to the default bucket.
 */
export function priceRequest(quota: Quota, request: QuotaRequestInfo | null, fallbackUnits: number): PricedRequest {
  if (!request) return { bucket: DEFAULT_BUCKET, units: fallbackUnits, countsAs: null };
  let path: string;
  try {
    path = new URL(request.url).pathname;
  } catch {
    return { bucket: DEFAULT_BUCKET, units: quota.default_units, countsAs: null };
  }
  const method = request.method.toUpperCase();
  let best: QuotaCostRule | null = null;
  for (const rule of quota.costs) {
    if (rule.methods && !rule.methods.includes(method as (typeof rule.methods)[number])) continue;
    if (!pathMatches(path, rule.path_prefix)) continue;
    if (!best || rule.path_prefix.length > best.path_prefix.length) best = rule;
  }
  return best ? { bucket: best.bucket, units: best.units, countsAs: best.counts_as } : { bucket: DEFAULT_BUCKET, units: quota.default_units, countsAs: null };
}

/** Daily budget of a bucket; null when the manifest does not declare it. */
export function bucketBudget(quota: Quota, bucket: string): number | null {
  if (bucket === DEFAULT_BUCKET) return quota.daily_units;
  return quota.buckets[bucket]?.daily_units ?? null;
}

/** Every bucket of a quota, the default first. */
export function bucketNames(quota: Quota): string[] {
  return [DEFAULT_BUCKET, ...Object.keys(quota.buckets)];
}

/**
 * Row key of a quota bucket in `rate_limit_bucket` (beside the token rows, which are keyed
 * `plugin|account`). A `client`-scoped quota is one budget for every account of the engine.
 */
export function quotaBucketKey(pluginId: string, accountId: string | null, quota: Pick<Quota, 'scope'>, bucket: string): string {
  const owner = quota.scope === 'client' ? '*' : (accountId ?? '-');
  return `${pluginId}|${owner}|quota:${bucket}`;
}

export interface QuotaState {
  /** `YYYY-MM-DD` in the quota's time zone of `quotaUsed`. */
  readonly quotaDay: string | null;
  readonly quotaUsed: number;
}

export type QuotaOutcome =
  | { readonly kind: 'granted'; readonly next: QuotaState }
  | { readonly kind: 'quota_exhausted'; readonly resetsAt: Date; readonly next: QuotaState };

/** Units already used today (0 once the day has turned over). */
export function usedToday(state: QuotaState, now: Date, timeZone: string): number {
  return state.quotaDay === quotaDay(now, timeZone) ? state.quotaUsed : 0;
}

/** Takes `cost` units from a bucket with `dailyUnits` per day, or reports when it resets. */
export function takeQuota(state: QuotaState, dailyUnits: number, cost: number, now: Date, timeZone: string): QuotaOutcome {
  const today = quotaDay(now, timeZone);
  const used = usedToday(state, now, timeZone);
  if (used + cost > dailyUnits) return { kind: 'quota_exhausted', resetsAt: nextQuotaReset(now, timeZone), next: { quotaDay: today, quotaUsed: used } };
  return { kind: 'granted', next: { quotaDay: today, quotaUsed: used + cost } };
}

/** The provider said the budget is gone: today's usage becomes the whole budget. */
export function exhaustQuota(state: QuotaState, dailyUnits: number, now: Date, timeZone: string): QuotaState {
  return { quotaDay: quotaDay(now, timeZone), quotaUsed: Math.max(dailyUnits, usedToday(state, now, timeZone)) };
}

/** The manifest's time zone of the quota day (UTC for the legacy `daily_quota`). */
export function quotaTimeZone(pacing: Pacing): string {
  return pacing.quota?.reset.time_zone ?? 'UTC';
}
