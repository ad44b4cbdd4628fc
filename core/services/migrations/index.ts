import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Manifest } from '@opl/plugin-sdk';
import type { Config } from '../../config/index.ts';
import type { Logger } from '../../logging/logger.ts';
import type { ConnectionService } from '../connections/connection.service.ts';
import type { ImportRecordService } from '../imports/index.ts';
import type { MatchService } from '../matching/index.ts';
import type { PlaylistReadService } from '../playlists/playlist-read.service.ts';
import { ProgressChannel } from './migration-events.ts';
import { MigrationRecovery } from './migration-recovery.ts';
import { MigrationRunner } from './migration-runner.ts';
import { MigrationService, type MigrationServiceOptions, type QuotaForecaster } from './migration.service.ts';
import { MigrationStore, type Execute, type Transaction } from './migration-store.ts';
import type { GeneratedSourceReader, SnapshotSourceReader } from './migration-source.ts';
import { SourceLookup } from './source-lookup.ts';

export { MigrationService } from './migration.service.ts';
export { MigrationError } from './migration-error.ts';
export type { PreflightView, SyncJobInput } from './migration.service.ts';
export type { ReviewInput } from './migration-review.ts';
export { createMigrationSchema, type CreateMigration } from './migration-request.ts';
export { itemFilterSchema, pagingSchema, type ItemFilter } from './item-filters.ts';
export { eventsAfter, ProgressChannel, type ProgressEvent } from './migration-events.ts';
export { csvReport, cursorRows, jsonReport, REPORT_FIELDS, REPORT_VERSION } from './migration-report.ts';
export { MigrationStore } from './migration-store.ts';
export { runMigrationJob } from './migration.jobs.ts';
export type { JobView, ItemView } from './migration-views.ts';

/** Failed import-backed jobs keep their import record this long, then cleanup takes it. */
const IMPORT_GRACE_HOURS = 24;

export interface MigrationEngine {
  service: MigrationService;
  runner: MigrationRunner;
  store: MigrationStore;
  progress: ProgressChannel;
  recovery: MigrationRecovery;
  connectionString: string;
}

export interface MigrationEngineOptions {
  config: Config;
  logger: Logger;
  execute: Execute;
  transaction: Transaction;
  connectionString: string;
  /** Queues a run of a migration job (the `migrations.run` job, keyed by the job id). */
  enqueue(jobId: string, startAfter?: Date): Promise<void>;
  connections: ConnectionService;
  playlists: PlaylistReadService;
  imports: ImportRecordService;
  /** Confirmed generator drafts as migration sources. */
  drafts: GeneratedSourceReader;
  /** Verified library snapshots as migration sources (restores). */
  snapshots: SnapshotSourceReader;
  matching: MatchService;
  catalogue: { providerPlugin(provider: string): Manifest | undefined };
  /** The operations a loaded plugin implements (empty when it is not loaded). */
  pluginOperations(pluginId: string): readonly string[];
  quotaForecast?: QuotaForecaster;
  /** Hosted mode's per-user job limits, checked in each job's insert transaction. */
  admitJob?: MigrationServiceOptions['admitJob'];
  /** Tests: shorter leases and slices so crash recovery is quick. */
  leaseSeconds?: number;
  sliceSeconds?: number;
  /** Tests: first wait before reading a target again for writes not visible yet. */
  visibilityWaitMs?: number;
}

/** Wires the migration engine of one process. */
export function createMigrationEngine(options: MigrationEngineOptions): MigrationEngine {
  const store = new MigrationStore(options.execute, options.transaction);
  const leaseSeconds = options.leaseSeconds ?? 60;
  const enqueue = (jobId: string, startAfter?: Date) => options.enqueue(jobId, startAfter);
  const lookups = new SourceLookup({ connections: options.connections, catalogue: options.catalogue, pluginOperations: (pluginId) => options.pluginOperations(pluginId) });
  const service = new MigrationService({
    lookups,
    store,
    connections: options.connections,
    playlists: options.playlists,
    imports: options.imports,
    drafts: options.drafts,
    snapshots: options.snapshots,
    catalogue: options.catalogue,
    matching: options.matching,
    enqueue,
    ...(options.quotaForecast ? { quotaForecast: options.quotaForecast } : {}),
    ...(options.admitJob ? { admitJob: options.admitJob } : {}),
  });
  const runner = new MigrationRunner({
    store,
    lookups,
    sources: service.sources,
    connections: options.connections,
    catalogue: options.catalogue,
    imports: options.imports,
    playlists: options.playlists,
    enqueue,
    retentionDays: () => options.config.migrationHistoryRetentionDays,
    importGraceHours: IMPORT_GRACE_HOURS,
    leaseSeconds,
    sliceSeconds: options.sliceSeconds ?? 600,
    logger: options.logger.child({ component: 'migrations' }),
    workerId: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    ...(options.visibilityWaitMs === undefined ? {} : { visibilityWaitMs: options.visibilityWaitMs }),
  });
  return {
    service,
    runner,
    store,
    progress: new ProgressChannel(options.connectionString, options.logger.child({ component: 'migration-progress' })),
    recovery: new MigrationRecovery({ store, enqueue, leaseSeconds, logger: options.logger.child({ component: 'migration-recovery' }) }),
    connectionString: options.connectionString,
  };
}
