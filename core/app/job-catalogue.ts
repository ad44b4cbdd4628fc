import type { AnyJobDefinition } from '../jobs/index.ts';
import { expireImportRecordsJob } from '../services/imports/expire-import-records.job.ts';
import { expireOwnerSessionsJob } from '../services/owner/expire-owner-sessions.job.ts';
import { cleanUpMigrationHistoryJob, runMigrationJob } from '../services/migrations/migration.jobs.ts';
import { purgeEndedSharesJob } from '../services/shares/purge-ended-shares.job.ts';
import { expireGenerationDraftsJob } from '../services/generator/expire-drafts.job.ts';
import { runOrganizerJob } from '../services/organizer/organizer.jobs.ts';
import { createSnapshotJob, evaluateSnapshotScheduleJob } from '../services/snapshots/snapshot.jobs.ts';
import { evaluateSyncScheduleJob, runSyncJob } from '../services/sync/sync.jobs.ts';
import type { AppServices } from './app-services.ts';

/** Every job kind of the engine. Workers register all of them; senders create their queues. One per line, so features add theirs without touching another's. */
export const JOB_CATALOGUE: readonly AnyJobDefinition<AppServices>[] = [
  expireOwnerSessionsJob,
  expireImportRecordsJob,
  runMigrationJob,
  cleanUpMigrationHistoryJob,
  purgeEndedSharesJob,
  expireGenerationDraftsJob,
  runOrganizerJob,
  createSnapshotJob,
  evaluateSnapshotScheduleJob,
  evaluateSyncScheduleJob,
  runSyncJob,
];
