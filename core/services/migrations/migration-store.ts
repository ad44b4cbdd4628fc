import { lockJob, type SqlStatement } from './migration-jobs.sql.ts';

export type Execute = (statement: SqlStatement) => Promise<Record<string, unknown>[]>;
export type Transaction = <T>(work: (execute: Execute) => Promise<T>) => Promise<T>;

/**
 * Database access of the migration engine. Every change to a job or its items goes through
 * `inJob`: a transaction that first takes the job's progress lock, so that the progress numbers
 * the trigger hands out follow commit order (a resuming event stream never skips a change) and
 * two writers of one job cannot deadlock on row locks taken in different orders.
 */
export class MigrationStore {
  readonly execute: Execute;
  /** A plain transaction, without the job lock (for writes outside a job, e.g. the identity graph). */
  readonly transaction: Transaction;

  constructor(execute: Execute, transaction: Transaction) {
    this.execute = execute;
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
}
