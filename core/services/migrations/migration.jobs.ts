import { z } from 'zod';
import { defineJob, type JobContext } from '../../jobs/index.ts';
import type { Config } from '../../config/index.ts';
import type { MigrationRunner } from './migration-runner.ts';
import { cleanUpMigrationHistory } from './migration-retention.ts';
import type { MigrationStore } from './migration-store.ts';

interface MigrationDeps {
  config: Config;
  migrations: { runner: MigrationRunner; store: MigrationStore };
}

/**
 * One run of a migration job. The queue keeps at most one waiting run per job (`short` policy
 * keyed by the job id), so re-queuing from several places never piles up duplicates; a run that
 * finds the job leased by another worker or finished returns at once.
 */
export const runMigrationJob = defineJob({
  name: 'migrations.run',
  payload: z.object({ job_id: z.uuid() }).strict(),
  queue: { policy: 'short', retryLimit: 5, retryDelay: 10, retryBackoff: true, expireInSeconds: 3_600 },
  concurrency: 2,
  async handle(payload, { deps, signal }: JobContext<MigrationDeps>) {
    await deps.migrations.runner.run(payload.job_id, signal);
  },
});

/** Hourly at minute 17: item and ledger rows of jobs past their detail deadline go, in batches. */
export const cleanUpMigrationHistoryJob = defineJob({
  name: 'maintenance.migration-history-cleanup',
  payload: z.object({}).strict(),
  schedule: { cron: '17 * * * *', payload: {} },
  queue: { retryLimit: 3, retryDelay: 60, expireInSeconds: 1_800 },
  async handle(_payload, { deps, logger, signal }: JobContext<MigrationDeps>) {
    const removed = await cleanUpMigrationHistory(deps.migrations.store, deps.config.migrationHistoryRetentionDays, deps.config.migrationHistoryCleanupBatchSize, () => signal.aborted);
    if (removed.jobs > 0) logger.info(removed, 'expired migration item detail removed');
  },
});
