import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserLimitReached, UserLimits } from '../../../core/services/user-limits/index.ts';
import { sqlExecutors, type SqlExecute, type SqlTransaction } from '../../../core/storage/sql/executors.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * The admissions of `UserLimits` against PostgreSQL, with the widest race a request can meet: each
 * of 20 parallel transactions is admitted, then takes a while before its row is written and
 * committed. Only the user's advisory lock, held to the commit, keeps the count right; a plain
 * count-then-insert lets most of the 20 in.
 */

let t: TestApp;
let execute: SqlExecute;
let transaction: SqlTransaction;
const limits = new Map<string, UserLimits>();

beforeAll(async () => {
  t = await startTestApp({ OPL_DEPLOYMENT_MODE: 'hosted' }, { http: false, worker: false });
  ({ execute, transaction } = sqlExecutors(t.app.services.database.orm));
}, 60_000);

afterAll(async () => {
  await t?.close();
});

function userLimits(concurrentJobs: number, jobsPerDay: number, importBytesPerDay: number): UserLimits {
  const key = `${concurrentJobs}/${jobsPerDay}/${importBytesPerDay}`;
  if (!limits.has(key)) limits.set(key, new UserLimits({ limits: { concurrentJobs, jobsPerDay, importBytesPerDay, snapshotBytes: 1024 }, execute, transaction }));
  return limits.get(key)!;
}

/** A job insert as the migration service does it: admitted, then (after some work) written, in one transaction. */
function startJob(admission: UserLimits, userId: string): Promise<'started' | 'refused'> {
  return transaction(async (run) => {
    await admission.admitJob(run, userId);
    await run({ text: 'select pg_sleep(0.05)', values: [] });
    await run({ text: `insert into migration_job (owner_id, source_provider, source_account_id, target_provider, target_account_id, selection) values (?, 'spotify', 'a', 'tidal', 'b', '{}'::jsonb)`, values: [userId] });
    return 'started' as const;
  }).catch((error: unknown) => {
    if (error instanceof UserLimitReached) return 'refused' as const;
    throw error;
  });
}

const count = async (userId: string, where = 'true') => Number((await execute({ text: `select count(*)::int as n from migration_job where owner_id = ? and ${where}`, values: [userId] }))[0]!['n']);

describe('user limit admissions under parallel requests', () => {
  it('admits exactly the concurrent-jobs limit of 20 parallel jobs', async () => {
    const user = randomUUID();
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => startJob(userLimits(4, 100, 1024), user)));
    expect(outcomes.filter((outcome) => outcome === 'started')).toHaveLength(4);
    expect(await count(user)).toBe(4);
  });

  it('admits exactly the jobs-per-day limit, ended jobs included', async () => {
    const user = randomUUID();
    await execute({ text: `insert into migration_job (owner_id, source_provider, source_account_id, target_provider, target_account_id, selection, status, outcome) select ?, 'spotify', 'a', 'tidal', 'b', '{}'::jsonb, 'completed', 'completed' from generate_series(1, 3)`, values: [user] });
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => startJob(userLimits(100, 7, 1024), user)));
    expect(outcomes.filter((outcome) => outcome === 'started')).toHaveLength(4);
    expect(await count(user)).toBe(7);
    // A job older than 24 hours no longer counts.
    await execute({ text: `update migration_job set created_at = now() - interval '25 hours' where id = (select id from migration_job where owner_id = ? and status = 'completed' limit 1)`, values: [user] });
    expect(await startJob(userLimits(100, 7, 1024), user)).toBe('started');
  });

  it('admits imports up to the bytes of 24 hours and records only what it admits', async () => {
    const user = randomUUID();
    const admission = userLimits(100, 100, 10_000);
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () =>
        admission.admitImport(user, 1_500).then(
          () => 'admitted',
          (error: unknown) => {
            if (error instanceof UserLimitReached) return error.limit;
            throw error;
          },
        ),
      ),
    );
    expect(outcomes.filter((outcome) => outcome === 'admitted')).toHaveLength(6);
    expect(outcomes.filter((outcome) => outcome === 'import_bytes_per_day')).toHaveLength(14);
    const [used] = await execute({ text: `select sum(amount)::int as n from user_usage where user_id = ?`, values: [user] });
    expect(used!['n']).toBe(9_000);
    // 1,000 bytes are left: a 1,000-byte import fits, one more byte does not.
    await expect(admission.admitImport(user, 1_001)).rejects.toBeInstanceOf(UserLimitReached);
    await admission.admitImport(user, 1_000);
    // Rows past every window are what maintenance deletes; a day later the allowance is whole again.
    await execute({ text: `update user_usage set used_at = now() - interval '26 hours' where user_id = ?`, values: [user] });
    expect(await admission.purge()).toBe(7);
    await admission.admitImport(user, 10_000);
  });
});
