import type { SqlStatement } from '../../plugins/plugin-store.sql.ts';
import type { QuotaState } from './quota-bucket.ts';
import type { BucketState } from './token-bucket.ts';

/** SQL of the shared token buckets (`?` placeholders). Run inside one transaction per attempt. */

export function ensureBucket(key: string, tokens: number): SqlStatement {
  return { text: `INSERT INTO rate_limit_bucket (bucket_key, tokens, refilled_at, quota_used) VALUES (?, ?, now(), 0) ON CONFLICT (bucket_key) DO NOTHING`, values: [key, tokens] };
}

/** Locks the bucket row until the transaction ends: one process at a time decides on a bucket. */
export function lockBucket(key: string): SqlStatement {
  return { text: `SELECT tokens, refilled_at, blocked_until, quota_day, quota_used, clock_timestamp() AS now FROM rate_limit_bucket WHERE bucket_key = ? FOR UPDATE`, values: [key] };
}

export function saveBucket(key: string, state: BucketState): SqlStatement {
  return {
    text: `UPDATE rate_limit_bucket SET tokens = ?, refilled_at = ?, blocked_until = ?, quota_day = ?, quota_used = ? WHERE bucket_key = ?`,
    values: [state.tokens, state.refilledAt, state.blockedUntil, state.quotaDay, state.quotaUsed, key],
  };
}

/** A quota bucket row: only its day and usage matter (its token columns stay unused). */
export function ensureQuotaBucket(key: string): SqlStatement {
  return { text: `INSERT INTO rate_limit_bucket (bucket_key, tokens, refilled_at, quota_used) VALUES (?, 0, now(), 0) ON CONFLICT (bucket_key) DO NOTHING`, values: [key] };
}

export function lockQuotaBucket(key: string): SqlStatement {
  return { text: `SELECT quota_day, quota_used, clock_timestamp() AS now FROM rate_limit_bucket WHERE bucket_key = ? FOR UPDATE`, values: [key] };
}

export function saveQuotaBucket(key: string, state: QuotaState): SqlStatement {
  return { text: `UPDATE rate_limit_bucket SET quota_day = ?, quota_used = ? WHERE bucket_key = ?`, values: [state.quotaDay, state.quotaUsed, key] };
}

/** Today's usage of some buckets (absent keys have used nothing), with the database clock. */
export function readQuotaBuckets(keys: readonly string[]): SqlStatement {
  // The database clock comes back even when no row exists yet (LEFT JOIN on a one-row clock).
  const placeholders = keys.map(() => '?').join(', ');
  return {
    text: `SELECT b.bucket_key, b.quota_day, b.quota_used, c.now FROM (SELECT clock_timestamp() AS now) c LEFT JOIN rate_limit_bucket b ON b.bucket_key IN (${placeholders || 'NULL'})`,
    values: [...keys],
  };
}
