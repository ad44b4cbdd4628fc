import type { Pacing } from '@opl/plugin-sdk';
import { bucketBudget, bucketNames, DEFAULT_BUCKET, quotaTimeZone, usedToday, type QuotaState } from './quota-bucket.ts';
import { nextQuotaReset } from './quota-day.ts';

/**
 * "How many songs fit today": from a provider's declared quota and today's usage of its buckets
 * (the `rate_limit_bucket` rows, see RateLimiter.quotaUsage), how many track inserts and searches
 * the rest of the day still allows. Pure, so a preflight can call it with what it read.
 *
 * Each figure assumes the remaining budget is spent on that kind of request alone: inserts and
 * searches that share a bucket compete for it, and reads cost a little too.
 */

/** Today's usage per bucket name; a missing bucket has used nothing. */
export type QuotaUsage = Readonly<Record<string, QuotaState>>;

export interface BucketForecast {
  readonly daily_units: number;
  readonly used_units: number;
  readonly remaining_units: number;
}

export interface QuotaForecast {
  /** False when the provider declares no daily quota: every figure below is then null. */
  readonly limited: boolean;
  /** Units left today in the default bucket. */
  readonly remaining_units: number | null;
  /** Track inserts that still fit today (each insert request adds `tracksPerInsert` tracks). */
  readonly tracks_fit_today: number | null;
  /** Track searches that still fit today. */
  readonly searches_fit_today: number | null;
  /** When today's budgets reset (ISO 8601). */
  readonly resets_at: string | null;
  /** True when not even one more track insert fits: the job should wait for `resets_at`. */
  readonly exhausted: boolean;
  readonly buckets: Readonly<Record<string, BucketForecast>>;
}

export interface QuotaForecastOptions {
  /** Tracks one insert request carries (the manifest's `max_add_batch` when the plugin fills batches). Default 1. */
  readonly tracksPerInsert?: number;
}

const UNLIMITED: QuotaForecast = { limited: false, remaining_units: null, tracks_fit_today: null, searches_fit_today: null, resets_at: null, exhausted: false, buckets: {} };

function fit(remaining: number, units: number, per: number): number | null {
  if (units <= 0) return null;
  return Math.max(0, Math.floor(remaining / units)) * per;
}

export function quotaForecast(pacing: Pacing, usage: QuotaUsage, now: Date, options: QuotaForecastOptions = {}): QuotaForecast {
  const per = Math.max(1, Math.floor(options.tracksPerInsert ?? 1));
  const timeZone = quotaTimeZone(pacing);
  const quota = pacing.quota;
  const state = (bucket: string): QuotaState => usage[bucket] ?? { quotaDay: null, quotaUsed: 0 };

  if (!quota) {
    if (pacing.daily_quota === null) return UNLIMITED;
    const used = usedToday(state(DEFAULT_BUCKET), now, timeZone);
    const remaining = Math.max(0, pacing.daily_quota - used);
    const tracks = fit(remaining, pacing.write_quota_cost, per);
    return {
      limited: true,
      remaining_units: remaining,
      tracks_fit_today: tracks,
      searches_fit_today: fit(remaining, pacing.search_quota_cost, 1),
      resets_at: nextQuotaReset(now, timeZone).toISOString(),
      exhausted: tracks === 0,
      buckets: { [DEFAULT_BUCKET]: { daily_units: pacing.daily_quota, used_units: used, remaining_units: remaining } },
    };
  }

  const buckets: Record<string, BucketForecast> = {};
  for (const name of bucketNames(quota)) {
    const daily = bucketBudget(quota, name)!;
    const used = usedToday(state(name), now, timeZone);
    buckets[name] = { daily_units: daily, used_units: used, remaining_units: Math.max(0, daily - used) };
  }
  const kindFit = (kind: 'track_insert' | 'search', perRequest: number): number | null => {
    const rule = quota.costs.find((candidate) => candidate.counts_as === kind);
    const bucket = rule?.bucket ?? DEFAULT_BUCKET;
    return fit(buckets[bucket]!.remaining_units, rule?.units ?? quota.default_units, perRequest);
  };
  const tracks = kindFit('track_insert', per);
  return {
    limited: true,
    remaining_units: buckets[DEFAULT_BUCKET]!.remaining_units,
    tracks_fit_today: tracks,
    searches_fit_today: kindFit('search', 1),
    resets_at: nextQuotaReset(now, timeZone).toISOString(),
    exhausted: tracks === 0,
    buckets,
  };
}
