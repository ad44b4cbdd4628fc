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
