import { countsFrom } from './migration-views.ts';
import { selectItemCounts } from './migration-jobs.sql.ts';
import type { MigrationStore } from './migration-store.ts';

/**
 * Retention of migration item detail. Summaries, counts, warnings, timestamps, collection
 * mappings and terminal errors stay forever; item and ledger rows go after the job's deadline.
 * A changed retention setting applies to new jobs and to older terminal jobs that have no
 * persisted deadline yet. Review decisions live in their own table and are never touched here.
 */
export async function cleanUpMigrationHistory(store: MigrationStore, retentionDays: number, batchSize: number, aborted: () => boolean): Promise<{ jobs: number; rows: number }> {
  if (retentionDays > 0) {
    // Job by job under its lock (see MigrationStore), in batches, until no terminal job lacks a deadline.
    for (;;) {
      if (aborted()) return { jobs: 0, rows: 0 };
      const undated = await store.execute({
        text: `select id from migration_job
               where status in ('completed', 'failed', 'cancelled') and completed_at is not null and detail_expires_at is null and detail_purged_at is null
               order by completed_at, id limit ?`,
        values: [batchSize],
      });
      for (const row of undated) {
        const jobId = String(row['id']);
        await store.change(jobId, {
          text: `update migration_job set detail_expires_at = completed_at + make_interval(days => ?), updated_at = now()
                 where id = ? and status in ('completed', 'failed', 'cancelled') and completed_at is not null and detail_expires_at is null and detail_purged_at is null`,
          values: [retentionDays, jobId],
        });
      }
      if (undated.length < batchSize) break;
    }
  }
  let jobs = 0;
  let rows = 0;
  for (;;) {
    if (aborted()) break;
    const due = await store.execute({ text: `select id, summary from migration_job where detail_expires_at <= now() and detail_purged_at is null order by detail_expires_at limit 20`, values: [] });
    if (due.length === 0) break;
    for (const job of due) {
      const jobId = String(job['id']);
      // The summary keeps the final counts before the rows they come from go.
      const summary = (typeof job['summary'] === 'string' ? JSON.parse(job['summary']) : job['summary']) as Record<string, unknown> | null;
      if (!summary?.['counts']) {
        const counted = countsFrom(await store.execute(selectItemCounts(jobId)));
        await store.change(jobId, { text: `update migration_job set summary = coalesce(summary, '{}'::jsonb) || ?::jsonb where id = ?`, values: [JSON.stringify(counted), jobId] });
      }
      for (;;) {
        if (aborted()) return { jobs, rows };
        const ledger = await store.execute({ text: `delete from operation_ledger where id in (select id from operation_ledger where job_id = ? limit ?) returning id`, values: [jobId, batchSize] });
        const items = ledger.length < batchSize ? await store.change(jobId, { text: `delete from job_item where id in (select id from job_item where job_id = ? limit ?) returning id`, values: [jobId, batchSize] }) : [];
        rows += ledger.length + items.length;
        if (ledger.length < batchSize && items.length < batchSize) break;
      }
      await store.change(jobId, { text: `update migration_job set detail_purged_at = now(), updated_at = now() where id = ?`, values: [jobId] });
      jobs += 1;
    }
  }
  return { jobs, rows };
}
