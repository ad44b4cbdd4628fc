import { z } from 'zod';
import { defineJob, type JobContext } from '../../jobs/index.ts';
import type { SnapshotService } from './snapshot.service.ts';

/**
 * Takes one queued snapshot. Not retried by the queue: a snapshot that failed says why and is
 * taken again on request (a retry would read a library that has changed meanwhile anyway).
 */
export const createSnapshotJob = defineJob({
  name: 'snapshots.create',
  payload: z.object({ snapshot_id: z.uuid() }).strict(),
  queue: { retryLimit: 0, expireInSeconds: 6 * 60 * 60 },
  concurrency: 1,
  async handle(payload, { deps, signal }: JobContext<{ snapshots: SnapshotService }>) {
    await deps.snapshots.run(payload.snapshot_id, signal);
  },
});

/**
 * Every minute (and once when a worker starts): due scheduled snapshots are queued and retention
 * policies applied. pg-boss elects one cron runner across the workers; two evaluations at once
 * are harmless anyway (a due profile is locked while it is evaluated).
 */
export const evaluateSnapshotScheduleJob = defineJob({
  name: 'snapshots.evaluate',
  payload: z.object({}).strict(),
  schedule: { cron: '* * * * *', payload: {} },
  queue: { policy: 'stately', retryLimit: 1, retryDelay: 10, expireInSeconds: 300 },
  async handle(_payload, { deps }: JobContext<{ snapshots: SnapshotService }>) {
    await deps.snapshots.scheduler.evaluate();
  },
});
