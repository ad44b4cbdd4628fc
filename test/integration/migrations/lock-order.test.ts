import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../core/logging/logger.ts';
import { cleanUpMigrationHistory } from '../../../core/services/migrations/migration-retention.ts';
import { MigrationRecovery } from '../../../core/services/migrations/migration-recovery.ts';
import { insertJob, updateJobPhase } from '../../../core/services/migrations/migration-jobs.sql.ts';
import { JobLockOrderError, MigrationStore } from '../../../core/services/migrations/migration-store.ts';
import { openDatabase, type Database } from '../../../core/storage/index.ts';
import { sqlExecutors } from '../../../core/storage/sql/executors.ts';
import { createTestDatabase, testConfig, type TestDatabase } from '../support/test-database.ts';

/**
 * The lock order of the migration engine (see MigrationStore): whoever changes a job's rows takes
 * the job's progress lock before any row lock. Each case below holds the lock the way the runner
 * does (an `inJob` transaction that is about to change the job row), starts one of the engine's
 * other writers of that row while the lock is held, waits until that writer is blocked, and only
 * then lets the first transaction change the row. Taken in the wrong order, the writer holds the
 * row and waits in the progress trigger for the lock, the lock's holder waits for the row, and
 * PostgreSQL breaks the cycle by failing one of them (deadlock detected, 40P01) — the failure the
 * crash-safety test once hit with the lease renewal.
 */

const silent = createLogger({ level: 'silent' });
const WORKER = 'worker-a';
let testDb: TestDatabase;
let database: Database;
let store: MigrationStore;

beforeAll(async () => {
  testDb = await createTestDatabase();
  database = await openDatabase(testConfig(), silent);
  const { execute, transaction } = sqlExecutors(database.orm);
  store = new MigrationStore(execute, transaction);
}, 120_000);

afterAll(async () => {
  await database?.close();
  await testDb?.drop();
});

async function runningJob(fields: { status?: string; resumeAtPast?: boolean; completed?: boolean } = {}): Promise<string> {
  const id = randomUUID();
  await store.inJob(id, (execute) =>
    execute(
      insertJob({
        id,
        ownerId: 'owner',
        sourceProvider: 'spotify',
        sourceAccountId: 'a',
        sourceKind: 'provider',
        targetProvider: 'tidal',
        targetAccountId: 'b',
        strictness: 'same_recording',
        selection: {},
        warnings: [],
        acknowledgedWarnings: [],
      }),
    ),
  );
  await store.change(id, {
    text: `update migration_job set status = ?, outcome = 'running', lease_owner = ?, lease_expires_at = now() + interval '1 hour',
             resume_at = case when ? then now() - interval '1 minute' else null end,
             completed_at = case when ? then now() else null end where id = ?`,
    values: [fields.status ?? 'running', WORKER, fields.resumeAtPast ?? false, fields.completed ?? false, id],
  });
  return id;
}

/** Resolves once some session of this database waits for a lock (the writer under test is blocked). */
async function someoneWaitsForALock(): Promise<void> {
  for (let attempt = 0; attempt < 400; attempt++) {
    const [row] = await database.orm.em
      .getConnection()
      .execute<{ n: number }[]>(`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`);
    if (row!.n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the writer under test never waited for a lock');
}

/**
 * Holds job `jobId`'s progress lock, runs `writer` meanwhile, and once the writer is blocked
 * changes the job row in the lock's transaction; both must succeed.
 */
async function raceWithLockHolder(jobId: string, writer: () => Promise<unknown>): Promise<unknown> {
  let locked!: () => void;
  const lockTaken = new Promise<void>((resolve) => (locked = resolve));
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const holder = store.inJob(jobId, async (execute) => {
    locked();
    await gate;
    return execute(updateJobPhase(jobId, 'matched', WORKER));
  });
  await lockTaken;
  const written = writer();
  await someoneWaitsForALock();
  release();
  const [held, wrote] = await Promise.allSettled([holder, written]);
  expect(held, 'the lock holder').toEqual({ status: 'fulfilled', value: [{ id: jobId }] });
  expect(wrote.status === 'rejected' ? String(wrote.reason) : 'fulfilled', 'the other writer').toBe('fulfilled');
  return (wrote as PromiseFulfilledResult<unknown>).value;
}

describe('writers of a job row beside a holder of the job lock', () => {
  it('the lease renewal waits for the lock instead of deadlocking', async () => {
    const jobId = await runningJob();
    expect(await raceWithLockHolder(jobId, () => store.renewLease(jobId, WORKER, 30))).toEqual([{ id: jobId }]);
  });

  it('the lease release waits for the lock instead of deadlocking', async () => {
    const jobId = await runningJob();
    await raceWithLockHolder(jobId, () => store.releaseLease(jobId, WORKER));
    const [row] = await store.execute({ text: `select lease_owner, phase from migration_job where id = ?`, values: [jobId] });
    expect(row).toEqual({ lease_owner: null, phase: 'matched' });
  });

  it('the fenced write intent waits for the lock instead of deadlocking', async () => {
    const jobId = await runningJob();
    const rows = await raceWithLockHolder(jobId, () =>
      store.intend(jobId, 'owner', [{ itemId: null, operation: 'create_playlist', intent: { collection: 'c' }, idempotencyKey: `k-${jobId}` }], { worker: WORKER, seconds: 30 }),
    );
    expect(rows).toHaveLength(1);
  });

  it('the recovery sweep requeues a due paused job under its lock', async () => {
    const jobId = await runningJob({ status: 'paused', resumeAtPast: true });
    const requeued: string[] = [];
    const recovery = new MigrationRecovery({ store, enqueue: async (id) => void requeued.push(id), leaseSeconds: 3600, logger: silent });
    await raceWithLockHolder(jobId, () => recovery.sweep());
    expect(requeued).toContain(jobId);
    const [row] = await store.execute({ text: `select status, resume_at from migration_job where id = ?`, values: [jobId] });
    expect(row).toEqual({ status: 'queued', resume_at: null });
  });

  it('the retention sweep dates and purges a finished job under its lock', async () => {
    const jobId = await runningJob({ status: 'completed', completed: true });
    await raceWithLockHolder(jobId, () => cleanUpMigrationHistory(store, 30, 100, () => false));
    const [row] = await store.execute({ text: `select detail_expires_at is not null as dated from migration_job where id = ?`, values: [jobId] });
    expect(row).toEqual({ dated: true });
  });
});

describe('the store refuses job-row changes outside the job lock', () => {
  it.each([
    ['update', `update migration_job set phase = 'matched' where id = ?`],
    ['update with alias', `update job_item i set status = 'written' where i.job_id = ?`],
    ['insert', `insert into job_item (job_id) values (?)`],
    ['delete', `delete from job_item where job_id = ?`],
    ['fenced CTE', `with held as (update migration_job set lease_expires_at = now() where id = ? returning id) select * from held`],
  ])('%s', async (_name, text) => {
    const jobId = await runningJob();
    await expect(store.execute({ text, values: [jobId] })).rejects.toBeInstanceOf(JobLockOrderError);
    const [row] = await store.execute({ text: `select phase, lease_expires_at > now() + interval '30 minutes' as leased from migration_job where id = ?`, values: [jobId] });
    expect(row).toEqual({ phase: 'created', leased: true });
  });

  it('reads and changes of other tables pass', async () => {
    const jobId = await runningJob();
    expect(await store.execute({ text: `select id from migration_job where id = ?`, values: [jobId] })).toEqual([{ id: jobId }]);
    expect(await store.execute({ text: `delete from operation_ledger where job_id = ? returning id`, values: [jobId] })).toEqual([]);
  });
});
