import type { Logger } from '../../logging/logger.ts';
import type { SqlExecute, SqlTransaction } from '../../storage/sql/executors.ts';
import { slotAfter } from './sync-schedule.ts';
import type { SyncRunner } from './sync-runner.ts';
import { insertRun, lockDueRule, purgeOldDeletions, selectDueRules, selectRunsWithJobs, selectStrandedRuns, setNextRun } from './sync.sql.ts';
import { ruleRow } from './sync-views.ts';

/**
 * Evaluates the schedule: at worker start and every minute (the `sync.evaluate` job), in any
 * number of worker processes at once. Each due rule is locked while it is evaluated (others skip
 * it), gets at most one run — the partial unique index refuses a second queued, running or
 * review-waiting run in any process — and moves to its next future slot, so an engine that was
 * down for a day makes one catch-up run, not one per missed slot. The same pass finalizes runs
 * whose migration settled and re-queues runs whose worker vanished before it made a job.
 */

const DUE_BATCH = 100;
/** How long a deleted rule's event stays (sync_rule_deletion). */
const DELETION_EVENTS_KEPT_MS = 7 * 24 * 60 * 60 * 1000;
const SWEEP_BATCH = 200;

export interface SyncSchedulerOptions {
  execute: SqlExecute;
  transaction: SqlTransaction;
  runner: Pick<SyncRunner, 'finalize'>;
  enqueueRun(runId: string): Promise<void>;
  clock: () => Date;
  logger: Logger;
}

export class SyncScheduler {
  readonly #o: SyncSchedulerOptions;

  constructor(options: SyncSchedulerOptions) {
    this.#o = options;
  }

  /** One evaluation at the clock's "now"; returns the runs it created. */
  async evaluate(): Promise<{ created: string[]; requeued: string[] }> {
    for (const row of await this.#o.execute(selectRunsWithJobs(SWEEP_BATCH))) {
      await this.#o.runner.finalize(String(row['migration_job_id'])).catch((error: unknown) => this.#o.logger.warn({ err: error }, 'could not finalize a sync run'));
    }
    const requeued = (await this.#o.execute(selectStrandedRuns(SWEEP_BATCH))).map((row) => String(row['id']));
    for (const runId of requeued) await this.#o.enqueueRun(runId);

    const now = this.#o.clock();
    const created: string[] = [];
    for (const due of (await this.#o.execute(selectDueRules(now, DUE_BATCH))).map(ruleRow)) {
      const runId = await this.#o.transaction(async (execute) => {
        const [locked] = await execute(lockDueRule(due.id, now));
        if (!locked) return null;
        const rule = ruleRow(locked);
        const slot = new Date(rule.nextRunAt!);
        const [run] = await execute(insertRun(rule.id, rule.ownerId, slot, 'schedule'));
        // The slot is served either way: by this run, or by the run the rule has already.
        await execute(setNextRun(rule.id, slotAfter(rule.schedule, slot, now)));
        return run ? String(run['id']) : null;
      });
      if (runId) created.push(runId);
    }
    // Queued after the commit; a crash in between leaves a queued run that the next pass re-queues.
    for (const runId of created) await this.#o.enqueueRun(runId);
    await this.#o.execute(purgeOldDeletions(new Date(now.getTime() - DELETION_EVENTS_KEPT_MS)));
    if (created.length > 0 || requeued.length > 0) this.#o.logger.info({ created: created.length, requeued: requeued.length }, 'sync schedule evaluated');
    return { created, requeued };
  }
}
