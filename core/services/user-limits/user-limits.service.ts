import type { UserLimitsConfig } from '../../config/user-limits-config.ts';
import type { SqlExecute, SqlTransaction } from '../../storage/sql/executors.ts';
import { UserLimitReached } from './user-limit-reached.ts';
import { deleteExpiredUsage, insertUsage, lockUserLimits, selectJobUsage, selectJobWindowReset, selectSnapshotBytes, selectUsageInWindow, selectUsageWindowReset } from './user-limits.sql.ts';

const IMPORT_BYTES = 'import_bytes';

function toDate(value: unknown): Date | null {
  if (value instanceof Date) return value;
  return typeof value === 'string' ? new Date(value) : null;
}

function mib(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MiB`;
}

/**
 * Per-user limits of a hosted instance (a self-hosted one has no `UserLimits`). Admissions run in
 * the transaction that records what they admit, after the user's advisory lock
 * (`lockUserLimits`): parallel requests of one user, from any process, are counted one after
 * another, so twenty at once never get past a limit of three.
 */
export class UserLimits {
  readonly #limits: UserLimitsConfig;
  readonly #execute: SqlExecute;
  readonly #transaction: SqlTransaction;

  constructor(deps: { limits: UserLimitsConfig; execute: SqlExecute; transaction: SqlTransaction }) {
    this.#limits = deps.limits;
    this.#execute = deps.execute;
    this.#transaction = deps.transaction;
  }

  get limits(): Readonly<UserLimitsConfig> {
    return this.#limits;
  }

  /**
   * Admits one more migration job of `userId`, inside the transaction that inserts it (which
   * commits the job before the lock is released). Throws `UserLimitReached` otherwise.
   */
  async admitJob(execute: SqlExecute, userId: string): Promise<void> {
    await execute(lockUserLimits(userId));
    const [usage] = await execute(selectJobUsage(userId));
    const active = Number(usage?.['active'] ?? 0);
    const today = Number(usage?.['today'] ?? 0);
    const { concurrentJobs, jobsPerDay } = this.#limits;
    if (active >= concurrentJobs) {
      throw new UserLimitReached({
        limit: 'concurrent_jobs',
        maximum: concurrentJobs,
        used: active,
        resetsAt: null,
        resetsWhen: 'when one of your queued or running migrations ends',
        message: `You have ${active} migrations queued or running, the most this instance runs at once for one user (${concurrentJobs}). Start this one when one of them ends, or cancel one.`,
      });
    }
    if (today >= jobsPerDay) {
      const [reset] = await execute(selectJobWindowReset(userId, today - jobsPerDay + 1));
      const resetsAt = toDate(reset?.['resets_at']);
      throw new UserLimitReached({
        limit: 'jobs_per_day',
        maximum: jobsPerDay,
        used: today,
        resetsAt,
        resetsWhen: 'when your oldest migration of the last 24 hours turns 24 hours old',
        message: `You started ${today} migrations in the last 24 hours, the most this instance allows one user (${jobsPerDay}). You can start another after ${resetsAt?.toISOString() ?? 'the window moves on'}.`,
      });
    }
  }

  /** Admits an import of `bytes` (file, pasted text or fetched document) and records it, in one transaction. */
  async admitImport(userId: string, bytes: number): Promise<void> {
    const maximum = this.#limits.importBytesPerDay;
    await this.#transaction(async (execute) => {
      await execute(lockUserLimits(userId));
      const [row] = await execute(selectUsageInWindow(userId, IMPORT_BYTES));
      const used = Number(row?.['used'] ?? 0);
      if (used + bytes > maximum) {
        // Never, if this one import alone is larger than the whole day's allowance.
        const [reset] = bytes > maximum ? [] : await execute(selectUsageWindowReset(userId, IMPORT_BYTES, used + bytes - maximum));
        const resetsAt = toDate(reset?.['resets_at']);
        throw new UserLimitReached({
          limit: 'import_bytes_per_day',
          maximum,
          used,
          resetsAt,
          resetsWhen: 'as imports of the last 24 hours turn 24 hours old',
          message:
            bytes > maximum
              ? `This import has ${mib(bytes)}, more than one user may import in 24 hours on this instance (${mib(maximum)}). Split it into smaller files.`
              : `You imported ${mib(used)} in the last 24 hours; this ${mib(bytes)} would pass the ${mib(maximum)} one user may import per 24 hours. There is room for it after ${resetsAt?.toISOString() ?? 'the window moves on'}.`,
        });
      }
      await execute(insertUsage(userId, IMPORT_BYTES, bytes));
    });
  }

  /** Refuses a new snapshot while the user's kept archives reach their storage limit. */
  async admitSnapshot(userId: string): Promise<void> {
    const [row] = await this.#execute(selectSnapshotBytes(userId));
    const used = Number(row?.['used'] ?? 0);
    const maximum = this.#limits.snapshotBytes;
    if (used >= maximum) {
      throw new UserLimitReached({
        limit: 'snapshot_bytes',
        maximum,
        used,
        resetsAt: null,
        resetsWhen: 'when you delete snapshots',
        message: `Your snapshots take ${mib(used)}, the most one user may keep on this instance (${mib(maximum)}). Delete older snapshots to make room.`,
      });
    }
  }

  /** Deletes usage rows older than any window (hourly maintenance); returns how many. */
  async purge(): Promise<number> {
    return (await this.#execute(deleteExpiredUsage())).length;
  }
}
