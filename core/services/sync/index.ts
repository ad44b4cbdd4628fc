import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Manifest, OperationName, Playlist } from '@opl/plugin-sdk';
import type { OperationCallInput, OperationResult } from '@opl/plugin-sdk/schemas';
import type { Logger } from '../../logging/logger.ts';
import type { SqlExecute, SqlTransaction } from '../../storage/sql/executors.ts';
import type { MigrationEngine } from '../migrations/index.ts';
import { MirrorReconciler, type BeforeDestructiveMirrorStep } from './mirror-reconciler.ts';
import { SyncEventChannel } from './sync-events.ts';
import { SyncRulesService } from './sync-rules.service.ts';
import { SyncRunner } from './sync-runner.ts';
import { SyncScheduler } from './sync-scheduler.ts';

export { SyncError } from './sync-errors.ts';
export { createRuleSchema, updateRuleSchema, SyncRulesService, type CreateRule, type UpdateRule } from './sync-rules.service.ts';
export { scheduleSchema, type Schedule } from './sync-schedule.ts';
export { SYNC_EVENT_BATCH, syncEventsAfter, SyncEventChannel, type SyncEvent } from './sync-events.ts';
export type { RuleView, RunView } from './sync-views.ts';
export { SyncRunner } from './sync-runner.ts';
export type { BeforeDestructiveMirrorStep } from './mirror-reconciler.ts';
export { SyncScheduler } from './sync-scheduler.ts';

export interface SyncEngine {
  rules: SyncRulesService;
  runner: SyncRunner;
  scheduler: SyncScheduler;
  events: SyncEventChannel;
  execute: SqlExecute;
}

export interface SyncEngineOptions {
  execute: SqlExecute;
  transaction: SqlTransaction;
  connectionString: string;
  logger: Logger;
  migrations: MigrationEngine;
  connections: { call<N extends OperationName>(ownerId: string, accountId: string, op: N, input: OperationCallInput<N>): Promise<OperationResult<N>> };
  playlists: { read(ownerId: string, accountId: string, playlistId: string, refresh?: boolean): Promise<{ playlist: Playlist }> };
  catalogue: { providerPlugin(provider: string): Manifest | undefined };
  /** Queues a run (the `sync.run` job, one queue entry per run). */
  enqueueRun(runId: string): Promise<void>;
  /** "Now" for every scheduling decision; tests pass a clock they move. */
  clock?: () => Date;
  /** Tests: a short lease, so a stalled worker's run is taken over quickly. */
  leaseSeconds?: number;
  /**
   * Called right before a mirror run's first removal or move on the target. The hook point for an
   * automatic snapshot of the target playlist (not wired yet); a throw stops the run before any write.
   */
  beforeDestructiveMirrorStep?: BeforeDestructiveMirrorStep;
  /** Tests: a second "process" in one test names itself. */
  workerId?: string;
}

/** Wires the sync engine of one process; its runs finalize when their migration jobs settle here. */
export function createSyncEngine(options: SyncEngineOptions): SyncEngine {
  const clock = options.clock ?? (() => new Date());
  const logger = options.logger.child({ component: 'sync' });
  const mirror = new MirrorReconciler({
    execute: options.execute,
    connections: options.connections,
    playlists: options.playlists,
    ...(options.beforeDestructiveMirrorStep ? { beforeDestructiveMirrorStep: options.beforeDestructiveMirrorStep } : {}),
    logger,
  });
  const runner = new SyncRunner({
    mirror,
    execute: options.execute,
    transaction: options.transaction,
    connections: options.connections,
    playlists: options.playlists,
    migrations: options.migrations.service,
    clock,
    workerId: options.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    leaseSeconds: options.leaseSeconds ?? 60,
    logger,
  });
  options.migrations.runner.onSettled((jobId) => runner.finalize(jobId));
  return {
    rules: new SyncRulesService({ execute: options.execute, transaction: options.transaction, migrations: options.migrations.service, catalogue: options.catalogue, mirror, enqueueRun: (runId) => options.enqueueRun(runId), clock }),
    runner,
    scheduler: new SyncScheduler({ execute: options.execute, transaction: options.transaction, runner, enqueueRun: (runId) => options.enqueueRun(runId), clock, logger }),
    events: new SyncEventChannel(options.connectionString, logger),
    execute: options.execute,
  };
}
