import { z } from 'zod';
import { defineJob, type JobContext } from '../../jobs/index.ts';
import type { ShareService } from './share.service.ts';

/** Revoked and expired shares stay in the owner's list this long, then their snapshots go. */
export const ENDED_SHARE_RETENTION_DAYS = 30;

/** Daily removal of shares that ended a while ago, in bounded batches. */
export const purgeEndedSharesJob = defineJob({
  name: 'maintenance.purge-ended-shares',
  payload: z.object({ batchSize: z.number().int().min(1).max(10_000) }).strict(),
  schedule: { cron: '41 3 * * *', payload: { batchSize: 200 } },
  queue: { retryLimit: 3, retryDelay: 60, expireInSeconds: 300 },
  async handle(payload, { deps, logger, signal }: JobContext<{ shares: ShareService }>) {
    const before = new Date(Date.now() - ENDED_SHARE_RETENTION_DAYS * 86_400_000);
    let removed = 0;
    for (;;) {
      if (signal.aborted) break;
      const batch = await deps.shares.purgeEnded(before, payload.batchSize);
      removed += batch;
      if (batch < payload.batchSize) break;
    }
    if (removed > 0) logger.info({ removed }, 'ended shares removed');
  },
});
