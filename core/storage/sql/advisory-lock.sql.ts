import type { SqlQuery } from './database.sql.ts';

/**
 * Session-level advisory lock keys. The two-int form keeps our keys in their own namespace
 * (class id) so they cannot collide with pg-boss or other users of single-bigint keys.
 */
export const ADVISORY_LOCK_CLASS = 0x6f706c; // "opl"

export const AdvisoryLockKeys = {
  migrations: 1,
} as const;

export function acquireAdvisoryLock(key: number): SqlQuery {
  return { text: 'SELECT pg_advisory_lock($1::int, $2::int)', values: [ADVISORY_LOCK_CLASS, key] };
}

export function releaseAdvisoryLock(key: number): SqlQuery {
  return { text: 'SELECT pg_advisory_unlock($1::int, $2::int)', values: [ADVISORY_LOCK_CLASS, key] };
}
