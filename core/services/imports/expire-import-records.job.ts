import { z } from 'zod';
import { defineJob, type JobContext } from '../../jobs/index.ts';
import type { ImportRecordService } from './import-record.service.ts';

/** Hourly removal of expired import records, in bounded batches so one run never holds long locks. */
export const expireImportRecordsJob = defineJob({
  name: 'maintenance.expire-import-records',
  payload: z.object({ batchSize: z.number().int().min(1).max(10_000) }).strict(),
  schedule: { cron: '23 * * * *', payload: { batchSize: 200 } },
  queue: { retryLimit: 3, retryDelay: 60, expireInSeconds: 300 },
  async handle(payload, { deps, logger, signal }: JobContext<{ imports: { records: ImportRecordService } }>) {
    let removed = 0;
    for (;;) {
      if (signal.aborted) break;
      const batch = await deps.imports.records.purgeExpired(payload.batchSize);
      removed += batch;
      if (batch < payload.batchSize) break;
    }
    if (removed > 0) logger.info({ removed }, 'expired import records removed');
  },
});
