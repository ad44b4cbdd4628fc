import { z } from 'zod';
import { defineJob, type JobContext } from '../../jobs/index.ts';
import type { GeneratorService } from './generator.service.ts';

/** Hourly: unconfirmed drafts past `OPL_GENERATOR_DRAFT_TTL_HOURS` are deleted with their items. */
export const expireGenerationDraftsJob = defineJob({
  name: 'maintenance.expire-generation-drafts',
  payload: z.object({ batchSize: z.number().int().min(1).max(10_000) }).strict(),
  schedule: { cron: '37 * * * *', payload: { batchSize: 200 } },
  queue: { retryLimit: 3, retryDelay: 60, expireInSeconds: 300 },
  async handle(payload, { deps, logger, signal }: JobContext<{ generator: GeneratorService }>) {
    let removed = 0;
    for (;;) {
      if (signal.aborted) break;
      const batch = await deps.generator.purgeExpired(payload.batchSize);
      removed += batch;
      if (batch < payload.batchSize) break;
    }
    if (removed > 0) logger.info({ removed }, 'expired generator drafts removed');
  },
});
