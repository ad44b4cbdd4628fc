import type { SqlStatement } from '../../storage/sql/executors.ts';

/**
 * Advisory-lock class of a user's limits: every admission of one user (a job, an import) takes
 * `pg_advisory_xact_lock(USER_LIMITS_LOCK, hashtext(user id))` before counting, so parallel
 * requests of one user — in any engine process — count one after another, each seeing what the
 * ones before it committed.
 */
export const USER_LIMITS_LOCK = 1_937_041;

/** Jobs that hold a place in the concurrent-jobs limit: waiting for or using a worker. */
export const ACTIVE_JOB_STATUSES = ['queued', 'running'] as const;

export function lockUserLimits(userId: string): SqlStatement {
  return { text: `select pg_advisory_xact_lock(${USER_LIMITS_LOCK}, hashtext(?))`, values: [userId] };
}

/** The user's active migration jobs and the jobs created in the last 24 hours. */
export function selectJobUsage(userId: string): SqlStatement {
  return {
    text: `select count(*) filter (where status in ('queued', 'running'))::int as active,
                  count(*) filter (where created_at > now() - interval '24 hours')::int as today
             from migration_job
            where owner_id = ? and (status in ('queued', 'running') or created_at > now() - interval '24 hours')`,
    values: [userId],
  };
}

/**
 * When the jobs-per-day window has room again: `over` jobs of the window must leave it (the count
 * minus the limit, plus one), so the time the `over`-th oldest one turns 24 hours old.
 */
export function selectJobWindowReset(userId: string, over: number): SqlStatement {
  return {
    text: `select created_at + interval '24 hours' as resets_at from migration_job
            where owner_id = ? and created_at > now() - interval '24 hours'
            order by created_at offset ? limit 1`,
    values: [userId, over - 1],
  };
}

export function selectUsageInWindow(userId: string, kind: string): SqlStatement {
  return {
    text: `select coalesce(sum(amount), 0)::bigint as used from user_usage where user_id = ? and kind = ? and used_at > now() - interval '24 hours'`,
    values: [userId, kind],
  };
}

/** When at least `freed` units of the window have left it: the usage rows in order, summed up. */
export function selectUsageWindowReset(userId: string, kind: string, freed: number): SqlStatement {
  return {
    text: `select used_at + interval '24 hours' as resets_at from (
             select used_at, id, sum(amount) over (order by used_at, id) as leaving
               from user_usage where user_id = ? and kind = ? and used_at > now() - interval '24 hours'
           ) window_rows
            where leaving >= ? order by used_at, id limit 1`,
    values: [userId, kind, freed],
  };
}

export function insertUsage(userId: string, kind: string, amount: number): SqlStatement {
  return { text: `insert into user_usage (user_id, kind, amount, used_at) values (?, ?, ?, now())`, values: [userId, kind, amount] };
}

/** Usage rows no window looks at any more (run by the hourly maintenance). */
export function deleteExpiredUsage(): SqlStatement {
  return { text: `delete from user_usage where used_at < now() - interval '25 hours' returning 1`, values: [] };
}

/** Bytes of the snapshot archives the user keeps. */
export function selectSnapshotBytes(userId: string): SqlStatement {
  return { text: `select coalesce(sum(archive_bytes), 0)::bigint as used from snapshot where owner_id = ?`, values: [userId] };
}
