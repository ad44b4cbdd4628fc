import { z } from 'zod';
import { defineJob, type JobContext } from '../../jobs/index.ts';
import type { SyncEngine } from './index.ts';

interface SyncDeps {
  sync: SyncEngine;
}

/**
 * Every minute (and once when a worker starts): the schedule's due rules get their run. pg-boss
 * elects one cron runner across the workers; two evaluations at once are harmless anyway.
 */
export const evaluateSyncScheduleJob = defineJob({
  name: 'sync.evaluate',
  payload: z.object({}).strict(),
  schedule: { cron: '* * * * *', payload: {} },
  queue: { policy: 'stately', retryLimit: 1, retryDelay: 10, expireInSeconds: 300 },
  async handle(_payload, { deps }: JobContext<SyncDeps>) {
    await deps.sync.scheduler.evaluate();
  },
});

/** One sync run. At most one waiting queue entry per run; a run another worker holds returns at once. */
export const runSyncJob = defineJob({
  name: 'sync.run',
  payload: z.object({ run_id: z.uuid() }).strict(),
  queue: { policy: 'short', retryLimit: 3, retryDelay: 30, retryBackoff: true, expireInSeconds: 3_600 },
  concurrency: 2,
  async handle(payload, { deps, signal }: JobContext<SyncDeps>) {
    await deps.sync.runner.run(payload.run_id, signal);
  },
});
