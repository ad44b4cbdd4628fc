import type { Logger } from '../../logging/logger.ts';
import type { SqlExecute, SqlTransaction } from '../../storage/sql/executors.ts';
import type { SnapshotService } from './snapshot.service.ts';
import { nextSnapshotSlot, retentionSchema, snapshotScheduleSchema, snapshotsToDelete } from './snapshot-schedule.ts';
import { SnapshotError } from './snapshot-error.ts';
import * as sql from './snapshots.sql.ts';

/**
 * Evaluates the snapshot schedules and retention policies at the clock's "now": every minute (the
 * `snapshots.evaluate` job, one cron runner across workers) and once when a worker starts. A due
 * profile is locked while it is evaluated (another worker skips it), gets at most one queued
 * snapshot (none while one is queued or running), and moves to its next future slot, so an engine
 * that was down for a week takes one catch-up snapshot, not seven. Retention then deletes what the
 * policy lets go through the ordinary deletion (the file staged aside first, which startup
 * reconciliation finishes or undoes), never the newest good snapshot.
 */

const DUE_BATCH = 100;

export interface SnapshotSchedulerOptions {
  execute: SqlExecute;
  transaction: SqlTransaction;
  snapshots: Pick<SnapshotService, 'deleteSnapshot'>;
  enqueue(snapshotId: string): Promise<void>;
  clock: () => Date;
  logger: Logger;
}

export class SnapshotScheduler {
  readonly #o: SnapshotSchedulerOptions;

  constructor(options: SnapshotSchedulerOptions) {
    this.#o = options;
  }

  /** One evaluation: the snapshots it queued and the snapshots retention deleted. */
  async evaluate(): Promise<{ queued: string[]; deleted: string[] }> {
    const now = this.#o.clock();
    const queued: string[] = [];
    for (const due of await this.#o.execute(sql.selectDueProfiles(now, DUE_BATCH))) {
      const id = await this.#o.transaction(async (execute) => {
        const [profile] = await execute(sql.lockDueProfile(String(due['id']), now));
        if (!profile) return null;
        const schedule = snapshotScheduleSchema.safeParse(profile['schedule']);
        if (!schedule.success) {
          // A schedule this engine cannot read (edited by hand) is turned off rather than retried every minute.
          await execute({ text: 'update snapshot_profile set next_run_at = null where id = ?', values: [profile['id']] });
          return null;
        }
        const [snapshot] = await execute(sql.insertScheduledSnapshot(String(profile['owner_id']), String(profile['id']), String(profile['library_id'])));
        await execute(sql.setNextRun(String(profile['id']), nextSnapshotSlot(schedule.data, now)));
        return snapshot ? String(snapshot['id']) : null;
      });
      if (id) queued.push(id);
    }
    // Queued after the commit; the queued row is what the job claims.
    for (const id of queued) await this.#o.enqueue(id);
    const deleted = await this.applyRetention(now);
    if (queued.length > 0 || deleted.length > 0) this.#o.logger.info({ queued: queued.length, deleted: deleted.length }, 'snapshot schedule evaluated');
    return { queued, deleted };
  }

  /** Deletes what the retention policies let go (of one profile: `profileId`), at `now`. */
  async applyRetention(now: Date, profileId: string | null = null): Promise<string[]> {
    const deleted: string[] = [];
    for (const profile of await this.#o.execute(sql.selectRetainingProfiles())) {
      if (profileId !== null && profile['id'] !== profileId) continue;
      const policy = retentionSchema.safeParse(profile['retention']);
      if (!policy.success) continue;
      const finished = (await this.#o.execute(sql.selectFinishedSnapshots(String(profile['id'])))).map((row) => ({
        id: String(row['id']),
        status: String(row['status']),
        createdAt: new Date(row['created_at'] as string),
        good: row['good'] === true,
      }));
      for (const id of snapshotsToDelete(policy.data, finished, now)) {
        try {
          await this.#o.snapshots.deleteSnapshot(String(profile['owner_id']), id);
          deleted.push(id);
        } catch (error) {
          // Deleted meanwhile by its owner, or running again: the next evaluation looks again.
          if (!(error instanceof SnapshotError)) throw error;
        }
      }
    }
    return deleted;
  }
}
