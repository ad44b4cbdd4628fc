import { PluginError, type OperationName, type Playlist, type Track } from '@opl/plugin-sdk';
import type { OperationCallInput, OperationResult } from '@opl/plugin-sdk/schemas';
import type { Logger } from '../../logging/logger.ts';
import type { SqlExecute, SqlTransaction } from '../../storage/sql/executors.ts';
import { ConnectionError } from '../connections/connection.service.ts';
import type { MigrationService } from '../migrations/index.ts';
import { classifyFailure } from '../migrations/migration-errors.ts';
import { LIKED_PLAYLIST_ID } from '../playlists/playlist-read.service.ts';
import { addedSince, readCollapsed, selectionKey, sourceState, type SourceState } from './source-state.ts';
import { MAX_CONSECUTIVE_FAILURES, retryAt } from './sync-schedule.ts';
import {
  attachJob,
  claimRun,
  endRun,
  noteRuleFailure,
  noteRuleSuccess,
  pauseRule,
  renewRunLease,
  selectCheckpoint,
  selectRuleById,
  selectRunById,
  selectRunOfJob,
  setRuleStatus,
  setRunStatus,
  upsertCheckpoint,
} from './sync.sql.ts';
import { ruleRow, type RuleRow } from './sync-views.ts';
import { LeaseGone, RunEnd } from './run-end.ts';
import { keepRunLease } from './run-lease.ts';
import { awaitApproval, claimMirrorPhase, markMirrorPending, renewMirrorLease, selectWrittenUris, updateCheckpointTarget } from './mirror.sql.ts';
import type { MirrorReconciler } from './mirror-reconciler.ts';

/**
 * One run of a sync rule, add-only. It reads the source once (a playlist's snapshot id first: when
 * that equals the checkpoint's, the run ends there — no search, match or write), diffs the entries
 * against the last checkpoint, and hands the new ones to an ordinary migration job (`origin` sync)
 * aimed at the rule's target playlist by id: the job's ledger, duplicate reconciliation (nothing
 * already in the target is added again, whoever put it there), review and events apply unchanged.
 * When that job settles, `finalize` commits the checkpoint — after a review, only once it is done.
 *
 * A run is held by one worker under a lease until its job is recorded (in the job's own
 * transaction, fenced by the lease): a worker that stalls past its lease is replaced, and its late
 * job is rolled back, so a rule is never run twice.
 */

type Call = <N extends OperationName>(ownerId: string, accountId: string, op: N, input: OperationCallInput<N>) => Promise<OperationResult<N>>;

export interface SyncRunnerOptions {
  execute: SqlExecute;
  transaction: SqlTransaction;
  connections: { call: Call };
  playlists: { read(ownerId: string, accountId: string, playlistId: string, refresh?: boolean): Promise<{ playlist: Playlist }> };
  migrations: Pick<MigrationService, 'createForSync' | 'job'>;
  mirror: Pick<MirrorReconciler, 'reconcile'>;
  clock: () => Date;
  workerId: string;
  leaseSeconds: number;
  logger: Logger;
}

interface SourceRead {
  state: SourceState | null;
  /** The full read (null when the snapshot id alone showed the source unchanged). */
  playlist: Playlist | null;
  reads: number;
}

const isNotFound = (error: unknown) => error instanceof PluginError && error.type === 'NotFound';
const isAuthExpired = (error: unknown) => (error instanceof ConnectionError && error.code === 'auth_expired') || (error instanceof PluginError && error.type === 'AuthExpired');

export class SyncRunner {
  readonly #o: SyncRunnerOptions;

  constructor(options: SyncRunnerOptions) {
    this.#o = options;
  }

  async run(runId: string, signal: AbortSignal): Promise<void> {
    const [claimed] = await this.#o.execute(claimRun(runId, this.#o.workerId, this.#o.leaseSeconds));
    // Not claimable: a run in its mirror phase (approved, or its worker gone) is claimed by that phase.
    if (!claimed) return this.mirrorPhase(runId, null);
    const [ruleRecord] = await this.#o.execute(selectRuleById(String(claimed['rule_id'])));
    const logger = this.#o.logger.child({ syncRun: runId });
    if (!ruleRecord || ruleRow(ruleRecord).status !== 'active') {
      await this.#o.execute(endRun(runId, this.#o.workerId, { status: 'cancelled', errorCode: 'rule_not_active', error: 'The rule was paused or removed before this run started.', stats: undefined }, this.#o.clock()));
      return;
    }
    const rule = ruleRow(ruleRecord);
    const lease = keepRunLease(this.#o.execute, () => renewRunLease(runId, this.#o.workerId, this.#o.leaseSeconds), this.#o.leaseSeconds, logger, signal);
    const held = lease.held;
    try {
      await this.#advance(runId, rule, held, logger);
    } catch (error) {
      if (error instanceof LeaseGone) {
        logger.warn('the sync run is held elsewhere now; this worker stops without changing more');
        return;
      }
      await this.#failed(runId, rule, error, logger);
    } finally {
      lease.stop();
    }
  }

  async #advance(runId: string, rule: RuleRow, held: () => void, logger: Logger): Promise<void> {
    const [checkpointRow] = await this.#o.execute(selectCheckpoint(rule.id));
    const previous = (checkpointRow?.['source_state'] as SourceState | undefined) ?? null;
    const read = await this.#readSource(rule, previous);
    held();
    const now = () => this.#o.clock();
    const targetState = (checkpointRow?.['target_state'] as Record<string, unknown> | undefined) ?? {};
    const mirror = rule.mode === 'mirror';
    if (read.state === null || (previous && read.state.content_hash === previous.content_hash)) {
      if (mirror && targetState['mirror_pending'] === true) {
        // The source is unchanged, but the last mirror pass did not finish: it runs again.
        if (read.state) await this.#o.execute(upsertCheckpoint(rule.ownerId, rule.id, runId, read.state, targetState, now()));
        await this.#toMirror(runId, rule, { unchanged: true, added: 0, provider_reads: read.reads }, read.playlist?.tracks ?? null, held);
        return;
      }
      // Unchanged: nothing to search, match or write. The checkpoint keeps the newest snapshot id.
      const state = read.state ?? previous!;
      await this.#o.transaction(async (execute) => {
        if (read.state) await execute(upsertCheckpoint(rule.ownerId, rule.id, runId, state, checkpointRow?.['target_state'] ?? {}, now()));
        await this.#endHeld(execute, runId, { status: 'completed', errorCode: null, error: null, stats: { unchanged: true, added: 0, provider_reads: read.reads } });
        await execute(noteRuleSuccess(rule.id, now()));
      });
      logger.info({ reads: read.reads }, 'sync source unchanged');
      return;
    }
    const state = read.state;
    if (previous && readCollapsed(previous.track_count, state.track_count)) {
      throw new RunEnd({ kind: 'retry', code: 'read_collapse', at: null }, `The source read returned ${state.track_count} entries where the last checkpoint had ${previous.track_count}; taken as a failed read, not as deletions. Nothing was changed; the next run reads again.`);
    }
    const tracks = read.playlist!.tracks;
    const added = previous ? addedSince(previous.keys, tracks, rule.sourceProvider) : tracks.map((track, index) => ({ track, index }));
    const migratable = added.filter(({ track }) => track.is_migratable !== false);
    if (migratable.length === 0 && mirror) {
      // Removals or moves only: mirror makes the target follow (the checkpoint is the source now,
      // and says a mirror pass is due until one finishes).
      await this.#o.execute(upsertCheckpoint(rule.ownerId, rule.id, runId, state, { ...targetState, mirror_pending: true }, now()));
      await this.#toMirror(runId, rule, { unchanged: false, added: 0, not_migratable: added.length, provider_reads: read.reads }, tracks, held);
      return;
    }
    if (migratable.length === 0) {
      // Removals, moves or unmigratable entries only: add-only has nothing to write.
      await this.#o.transaction(async (execute) => {
        await execute(upsertCheckpoint(rule.ownerId, rule.id, runId, state, checkpointRow?.['target_state'] ?? {}, now()));
        await this.#endHeld(execute, runId, { status: 'completed', errorCode: null, error: null, stats: { unchanged: false, added: 0, not_migratable: added.length, provider_reads: read.reads }, sourceSnapshot: snapshotOf(state) });
        await execute(noteRuleSuccess(rule.id, now()));
      });
      return;
    }
    const target = await this.#checkTarget(rule);
    held();
    const stats = { unchanged: false, added: migratable.length, provider_reads: read.reads + (target ? 1 : 0) };
    // Songs are matched as strictly as the migration the rule was made from.
    const origin = await this.#o.migrations.job(rule.ownerId, rule.originJobId).catch(() => null);
    const jobId = await this.#o.migrations.createForSync(
      {
        ownerId: rule.ownerId,
        syncRunId: runId,
        sourceProvider: rule.sourceProvider,
        sourceAccountId: rule.sourceAccountId,
        targetProvider: rule.targetProvider,
        targetAccountId: rule.targetAccountId,
        targetPlaylistId: rule.targetPlaylistId,
        strictness: origin?.strictness ?? 'same_recording',
        collection: { id: rule.sourcePlaylistId, kind: rule.collectionKind, name: read.playlist!.name, description: read.playlist!.description, total_tracks: tracks.length },
        trackKeys: [...new Set(migratable.map(({ track, index }) => selectionKey(track, index)))],
      },
      // The run's full source state is kept on the run until the finalizer commits it.
      async (execute, id) => (await execute(attachJob(runId, this.#o.workerId, id, state, target ?? {}, stats))).length > 0,
    );
    if (!jobId) throw new LeaseGone();
    logger.info({ added: migratable.length, migration: jobId }, 'sync run queued its migration');
  }

  /** Hands a run this worker holds to its mirror phase (after checking the target still exists). */
  async #toMirror(runId: string, rule: RuleRow, stats: Record<string, unknown>, tracks: readonly Track[] | null, held: () => void): Promise<void> {
    await this.#checkTarget(rule);
    held();
    const rows = await this.#o.execute(markMirrorPending(runId, this.#o.workerId, { ...stats, provider_reads: Number(stats['provider_reads'] ?? 0) + 1 }));
    if (rows.length === 0) throw new LeaseGone();
    await this.mirrorPhase(runId, tracks);
  }

  /**
   * The mirror phase of a run (`stats.mirror` pending): held under the run's lease by one worker,
   * it removes and moves the rule's own entries (see MirrorReconciler), then commits the checkpoint.
   * More removals than the rule allows make the run wait for approval; a failure leaves the
   * checkpoint's `mirror_pending`, so a later run finishes the job.
   */
  async mirrorPhase(runId: string, tracks: readonly Track[] | null): Promise<void> {
    const [claimed] = await this.#o.execute(claimMirrorPhase(runId, this.#o.workerId, this.#o.leaseSeconds));
    if (!claimed) return;
    const [ruleRecord] = await this.#o.execute(selectRuleById(String(claimed['rule_id'])));
    if (!ruleRecord) return;
    const rule = ruleRow(ruleRecord);
    const logger = this.#o.logger.child({ syncRun: runId, phase: 'mirror' });
    const stats = (claimed['stats'] as Record<string, unknown> | null) ?? {};
    const lease = keepRunLease(this.#o.execute, () => renewMirrorLease(runId, this.#o.workerId, this.#o.leaseSeconds), this.#o.leaseSeconds, logger);
    const held = lease.held;
    try {
      const [checkpointRow] = await this.#o.execute(selectCheckpoint(rule.id));
      const targetState = (checkpointRow?.['target_state'] as Record<string, unknown> | undefined) ?? {};
      const owned = Array.isArray(targetState['owned']) ? (targetState['owned'] as string[]) : null;
      const checkpointCount = (checkpointRow?.['source_state'] as SourceState | undefined)?.track_count ?? null;
      const outcome = await this.#o.mirror.reconcile(rule, runId, owned, Number(stats['approved_removals'] ?? 0), tracks, held, checkpointCount);
      held();
      const now = this.#o.clock();
      await this.#o.transaction(async (execute) => {
        if (outcome.kind === 'approval') {
          if ((await execute(awaitApproval(runId, this.#o.workerId, outcome.stats))).length === 0) throw new LeaseGone();
          await execute(setRuleStatus(rule.id, 'approval_required', ['active']));
          return;
        }
        await execute(updateCheckpointTarget(rule.id, { ...targetState, owned: outcome.owned, mirror_pending: false }));
        await this.#endHeld(execute, runId, { status: 'completed', errorCode: null, error: null, stats: { ...stats, ...outcome.stats } });
        await execute(noteRuleSuccess(rule.id, now));
      });
      logger.info({ outcome: outcome.kind }, 'sync mirror phase ended');
    } catch (error) {
      if (error instanceof LeaseGone) {
        logger.warn('the sync run is held elsewhere now; this worker stops without changing more');
        return;
      }
      await this.#failed(runId, rule, error, logger);
    } finally {
      lease.stop();
    }
  }

  /** Ends a run this worker holds; no row means another worker took it meanwhile. */
  async #endHeld(execute: SqlExecute, runId: string, end: Parameters<typeof endRun>[2]): Promise<void> {
    const rows = await execute(endRun(runId, this.#o.workerId, end, this.#o.clock()));
    if (rows.length === 0) throw new LeaseGone();
  }

  /**
   * The source's state. A playlist with a snapshot id costs one read when it is unchanged; without
   * one (or when it changed) its entries are read in full. The liked songs have no snapshot id.
   */
  async #readSource(rule: RuleRow, previous: SourceState | null): Promise<SourceRead> {
    const { ownerId, sourceAccountId: account, sourcePlaylistId: playlistId } = rule;
    let reads = 0;
    try {
      if (playlistId !== LIKED_PLAYLIST_ID) {
        const meta = await this.#o.connections.call(ownerId, account, 'readPlaylist', { playlist_id: playlistId });
        reads += 1;
        if (meta.snapshot_id && previous?.snapshot_id && meta.snapshot_id === previous.snapshot_id) return { state: null, playlist: null, reads };
      }
      const { playlist } = await this.#o.playlists.read(ownerId, account, playlistId, true);
      reads += 1;
      return { state: sourceState(playlist.tracks, rule.sourceProvider, playlist.snapshot_id), playlist, reads };
    } catch (error) {
      if (isNotFound(error)) throw new RunEnd({ kind: 'pause', code: 'source_deleted' }, `The source playlist ${playlistId} is gone from the ${rule.sourceProvider} account (deleted, or no longer shared with it). The rule is paused; nothing was created or changed on the target.`);
      if (isAuthExpired(error)) throw new RunEnd({ kind: 'pause', code: 'auth_expired_source' }, `The ${rule.sourceProvider} connection has expired. Reconnect the account, then resume the rule.`);
      throw error;
    }
  }

  /** The target playlist still exists (a rule never re-creates one); its state for the run. */
  async #checkTarget(rule: RuleRow): Promise<Record<string, unknown> | null> {
    if (rule.targetPlaylistId === LIKED_PLAYLIST_ID) return null;
    try {
      const meta = await this.#o.connections.call(rule.ownerId, rule.targetAccountId, 'readPlaylist', { playlist_id: rule.targetPlaylistId });
      return { playlist_id: rule.targetPlaylistId, snapshot_id: meta.snapshot_id, name: meta.name, track_count: meta.track_count };
    } catch (error) {
      if (isNotFound(error)) throw new RunEnd({ kind: 'pause', code: 'target_deleted' }, `The target playlist ${rule.targetPlaylistId} is gone from the ${rule.targetProvider} account. The rule is paused and will not create a new playlist by itself: make a new rule from a new migration if you want one.`);
      if (isAuthExpired(error)) throw new RunEnd({ kind: 'pause', code: 'auth_expired_target' }, `The ${rule.targetProvider} connection has expired. Reconnect the account, then resume the rule.`);
      throw error;
    }
  }

  async #failed(runId: string, rule: RuleRow, error: unknown, logger: Logger): Promise<void> {
    const end = error instanceof RunEnd ? error.end : this.#classify(error);
    const message = error instanceof Error ? error.message : String(error);
    logger.warn({ code: end.code }, 'sync run failed');
    await this.#o.transaction(async (execute) => {
      const rows = await execute(endRun(runId, this.#o.workerId, { status: 'failed', errorCode: end.code, error: message, stats: undefined }, this.#o.clock()));
      if (rows.length === 0) return;
      await this.#ruleAfterFailure(execute, rule, end, message);
    });
  }

  #classify(error: unknown): RunEnd['end'] {
    if (isAuthExpired(error)) return { kind: 'pause', code: 'auth_expired' };
    const failure = classifyFailure(error);
    if (failure.kind === 'pause') return failure.code === 'quota_exhausted' ? { kind: 'retry', code: failure.code, at: failure.resumeAt } : { kind: 'pause', code: failure.code };
    if (failure.kind === 'retry') return { kind: 'retry', code: failure.code, at: null };
    return { kind: 'fail', code: failure.code };
  }

  /** Pauses the rule, or schedules the shorter retry (pausing after too many failures in a row). */
  async #ruleAfterFailure(execute: SqlExecute, rule: RuleRow, end: RunEnd['end'], message: string): Promise<void> {
    const now = this.#o.clock();
    if (end.kind === 'pause') {
      await execute(pauseRule(rule.id, end.code, message, ['active', 'review_required']));
      return;
    }
    const failures = rule.consecutiveFailures + 1;
    const at = end.kind === 'retry' && end.at ? end.at : retryAt(rule.schedule, failures, now);
    await execute(noteRuleFailure(rule.id, now, at, end.code === 'quota_exhausted'));
    if (failures >= MAX_CONSECUTIVE_FAILURES) await execute(pauseRule(rule.id, 'repeated_failures', `${failures} runs in a row failed; the last said: ${message}`, ['active', 'review_required']));
  }

  // --- the finalizer ---------------------------------------------------------------------------

  /**
   * Follows a sync run's migration job: waiting for review holds the rule; a finished job commits
   * the run's checkpoint; a paused one (an expired connection) pauses the rule with a Reconnect
   * action; a failed one counts as a failed run. Reads only persisted rows, so calling it again
   * (the scheduler's sweep) is harmless.
   */
  async finalize(jobId: string): Promise<void> {
    const [runRecord] = await this.#o.execute(selectRunOfJob(jobId));
    if (!runRecord) return;
    const runId = String(runRecord['id']);
    const job = await this.#o.migrations.job(String(runRecord['owner_id']), jobId).catch(() => null);
    const [ruleRecord] = await this.#o.execute(selectRuleById(String(runRecord['rule_id'])));
    if (!ruleRecord) return;
    const rule = ruleRow(ruleRecord);
    const now = this.#o.clock();
    if (!job) {
      await this.#o.execute(endRun(runId, null, { status: 'failed', errorCode: 'job_missing', error: `The run's migration ${jobId} no longer exists.`, stats: undefined }, now));
      return;
    }
    switch (job.status) {
      case 'awaiting_review':
        await this.#o.transaction(async (execute) => {
          await execute(setRunStatus(runId, 'review_required'));
          await execute(setRuleStatus(rule.id, 'review_required', ['active']));
        });
        return;
      case 'paused':
        if (job.errorCode === 'auth_expired') await this.#o.execute(pauseRule(rule.id, 'auth_expired_target', `The ${rule.targetProvider} connection has expired during a run. Reconnect the account, then resume the rule: the run continues where it stopped.`, ['active', 'review_required']));
        return;
      case 'queued':
      case 'running':
        await this.#o.execute(setRunStatus(runId, 'running'));
        return;
      case 'completed':
      case 'failed': {
        const runStats = (runRecord['stats'] as Record<string, unknown> | null) ?? {};
        // Already handed to its mirror phase (this is a sweep or a second hook): that phase goes on.
        if (runStats['mirror'] === 'pending') return this.mirrorPhase(runId, null);
        // A job that wrote nothing because every song was skipped (in review, or not found on the
        // target) ends "failed" without an error: for the rule that is a finished run, not a failure.
        const ok = job.error === null;
        const counts = (job.summary?.['counts'] ?? {}) as Record<string, number>;
        const mirrorNext = ok && rule.mode === 'mirror';
        await this.#o.transaction(async (execute) => {
          const stats = { ...((runRecord['stats'] as Record<string, unknown> | null) ?? {}), written: counts['written'] ?? 0, skipped: counts['skipped'] ?? 0, failed: counts['failed'] ?? 0 };
          if (mirrorNext) {
            // Not ended: the run goes on with its mirror phase.
            if ((await execute(markMirrorPending(runId, null, stats))).length === 0) return;
            await execute(setRuleStatus(rule.id, 'active', ['review_required']));
          } else {
            const ended = await execute(endRun(runId, null, { status: ok ? 'completed' : 'failed', errorCode: ok ? null : (job.errorCode ?? 'migration_failed'), error: ok ? null : job.error, stats }, now));
            if (ended.length === 0) return;
            await execute(setRuleStatus(rule.id, 'active', ['review_required']));
            if (!ok) return this.#ruleAfterFailure(execute, rule, { kind: 'fail', code: 'migration_failed' }, job.error ?? 'The migration failed.');
          }
          // The songs this job wrote belong to the rule from now on (what mirror may remove or move).
          const [checkpointRow] = await execute(selectCheckpoint(rule.id));
          const previousTarget = (checkpointRow?.['target_state'] as Record<string, unknown> | undefined) ?? {};
          const written = (await execute(selectWrittenUris(jobId))).map((row) => String(row['target_uri']));
          const owned = Array.isArray(previousTarget['owned']) ? { owned: [...new Set([...(previousTarget['owned'] as string[]), ...written])] } : {};
          const targetState = { ...previousTarget, ...((runRecord['target_snapshot'] as Record<string, unknown> | null) ?? {}), ...owned, ...(mirrorNext ? { mirror_pending: true } : {}) };
          await execute(upsertCheckpoint(rule.ownerId, rule.id, runId, runRecord['source_snapshot'], targetState, now));
          if (!mirrorNext) await execute(noteRuleSuccess(rule.id, now));
        });
        if (mirrorNext) await this.mirrorPhase(runId, null);
        return;
      }
      case 'cancelled':
        // The user cancelled the run's migration: the checkpoint stays, so the next run offers those songs again.
        await this.#o.transaction(async (execute) => {
          const ended = await execute(endRun(runId, null, { status: 'cancelled', errorCode: 'migration_cancelled', error: 'The run\'s migration was cancelled.', stats: undefined }, now));
          if (ended.length > 0) await execute(setRuleStatus(rule.id, 'active', ['review_required']));
        });
        return;
    }
  }

  /** A run row, for the scheduler's stale-run takeover. */
  async runRow(runId: string): Promise<Record<string, unknown> | null> {
    const [row] = await this.#o.execute(selectRunById(runId));
    return row ?? null;
  }
}

/** The run's source snapshot without its key list (the checkpoint keeps that). */
function snapshotOf(state: SourceState) {
  return { snapshot_id: state.snapshot_id, content_hash: state.content_hash, track_count: state.track_count };
}
