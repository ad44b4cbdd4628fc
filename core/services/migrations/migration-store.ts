import { insertLedger, lockJob, releaseLease, renewLease, type LedgerIntent, type SqlStatement } from './migration-jobs.sql.ts';
import type { LeaseFence } from './lease-lost.ts';

import type { SqlExecute, SqlTransaction } from '../../storage/sql/executors.ts';

export type Execute = SqlExecute;
export type Transaction = SqlTransaction;

/**
 * Statements that change (or delete) rows of a job or its items. Their progress trigger takes the
 * job's progress lock *after* the row lock the statement holds, so outside `inJob` they take the
 * two locks in the opposite order to every `inJob` transaction — the deadlock this store exists to
 * prevent. Matched against the SQL text: each of these tables is named right after the verb.
 */
const JOB_ROW_CHANGE = /\b(?:update|insert\s+into|delete\s+from)\s+(?:only\s+)?(?:"?public"?\.)?"?(?:migration_job|job_item)\b/i;

export class JobLockOrderError extends Error {
  constructor(statement: SqlStatement) {
    super(`a change of migration_job or job_item rows ran outside MigrationStore.inJob (the job's progress lock must be taken first): ${statement.text.slice(0, 120)}`);
    this.name = 'JobLockOrderError';
  }
}

/**
 * Database access of the migration engine.
 *
 * Lock order (the one rule every path keeps): a transaction that changes a job's rows or its
 * items' rows takes that job's progress lock (`pg_advisory_xact_lock(MIGRATION_PROGRESS_LOCK,
 * hashtext(job id))`) first, before any row lock, and holds the lock of one job at a time. The
 * progress trigger takes the same lock on every insert and update (so the progress numbers follow
 * commit order and a resuming event stream never skips a change); under the rule its take is a
 * re-entry. Without the rule, a statement outside the lock — a lease renewal, say — holds the job
 * row and waits in the trigger for the lock, while the lock's holder waits for that row.
 *
 * `inJob` (and the helpers built on it) is therefore the only way to change those rows; `execute`
 * refuses such statements with `JobLockOrderError` instead of risking the deadlock.
 */
export class MigrationStore {
  /** Reads, and changes of other tables (the ledger's own rows, review decisions, …). */
  readonly execute: Execute;
  /** A plain transaction, without the job lock (for writes outside a job, e.g. the identity graph). */
  readonly transaction: Transaction;

  constructor(execute: Execute, transaction: Transaction) {
    this.execute = (statement) => {
      if (JOB_ROW_CHANGE.test(statement.text)) return Promise.reject(new JobLockOrderError(statement));
      return execute(statement);
    };
    this.transaction = transaction;
  }

  inJob<T>(jobId: string, work: (execute: Execute) => Promise<T>): Promise<T> {
    return this.transaction(async (execute) => {
      await execute(lockJob(jobId));
      return work(execute);
    });
  }

  /** One statement that changes a job or its items, under the job's lock. */
  async change(jobId: string, statement: SqlStatement): Promise<Record<string, unknown>[]> {
    return this.inJob(jobId, (execute) => execute(statement));
  }

  /** Extends a held lease; no row when `worker` no longer holds it. */
  renewLease(jobId: string, worker: string, leaseSeconds: number): Promise<Record<string, unknown>[]> {
    return this.change(jobId, renewLease(jobId, worker, leaseSeconds));
  }

  releaseLease(jobId: string, worker: string): Promise<Record<string, unknown>[]> {
    return this.change(jobId, releaseLease(jobId, worker));
  }

  /** Records write intents fenced by the lease (see `insertLedger`); no rows when the lease is lost. */
  intend(jobId: string, ownerId: string, intents: readonly LedgerIntent[], lease: LeaseFence): Promise<Record<string, unknown>[]> {
    return this.change(jobId, insertLedger(jobId, ownerId, intents, lease));
  }
}
