import { setTimeout as sleep } from 'node:timers/promises';
import { AuthExpired, type Manifest, type OperationName, type Track } from '@opl/plugin-sdk';
import type { OperationCallInput, OperationResult } from '@opl/plugin-sdk/schemas';
import type { Logger } from '../../logging/logger.ts';
import type { Strictness } from '../../matching/index.ts';
import { ConnectionError, type ConnectionService } from '../connections/connection.service.ts';
import type { ImportRecordService } from '../imports/index.ts';
import { isLinkOnly, MatchService, type MatchCatalogue } from '../matching/index.ts';
import type { PlaylistReadService } from '../playlists/playlist-read.service.ts';
import { LeaseLost } from './lease-lost.ts';
import { matchAlbum, matchArtist, matchTrack, prefetchMatches, type MatchContext } from './item-matcher.ts';
import { linkAsks, type LinkAsk, type SourceLookup } from './source-lookup.ts';
import { classifyFailure, INLINE_WAIT_LIMIT_S, StopRun, type FailureClass } from './migration-errors.ts';
import { retryDelaySeconds } from './retry-backoff.ts';
import {
  claimLease,
  countItemsWithStatus,
  finishJob,
  insertItems,
  selectItemCounts,
  selectItemsByStatus,
  selectItemsOfCollection,
  updateItemMatches,
  updateJobPhase,
  updateJobSelection,
  updateJobStatus,
  type ItemMatch,
} from './migration-jobs.sql.ts';
import type { Selection } from './migration-request.ts';
import type { MigrationSources } from './migration-source.ts';
import type { MigrationStore } from './migration-store.ts';
import { countsFrom, jobRow, type JobRow } from './migration-views.ts';
import { TargetWriter, type WriteCollection } from './target-writer.ts';
import { HARMLESS_SKIP_PATTERNS, outcomeOf } from './migration-outcome.ts';
import { itemsOf } from './job-items.ts';

/**
 * The worker side of a migration: one run takes the job's lease, continues from the persisted
 * phase (import → match → review gate → write → finish) and gives the lease back. Everything it
 * has done is in the database before it moves on, so a killed worker loses nothing: the lease
 * expires, another run resumes at the same phase, and the operation ledger settles any write
 * whose outcome was unknown. Runs are sliced: a long job re-queues itself instead of holding a
 * queue slot for hours.
 */

export interface RunnerOptions {
  store: MigrationStore;
  sources: MigrationSources;
  connections: Pick<ConnectionService, 'call' | 'session'>;
  catalogue: MatchCatalogue;
  imports: Pick<ImportRecordService, 'completeJob' | 'releaseFailedJob'>;
  playlists: Pick<PlaylistReadService, 'invalidate'>;
  /** Queues a run of the job (now, or at `startAfter`). */
  enqueue(jobId: string, startAfter?: Date): Promise<void>;
  retentionDays: () => number;
  importGraceHours: number;
  leaseSeconds: number;
  sliceSeconds: number;
  logger: Logger;
  /** A unique name of this worker process. */
  workerId: string;
  /** First wait before reading a target again for writes not visible yet (doubles per read). */
  visibilityWaitMs?: number;
  /** Reads link-only songs from their own service, with the owner's accounts (see `SourceLookup`). */
  lookups?: SourceLookup;
}

const MATCH_BATCH = 100;
/** Items matched at once (the provider's pacing still applies to every search). */
const MATCH_CONCURRENCY = 4;
/** Match results are written together once this many wait (a slice), or this long after the last write. */
const MATCH_FLUSH_ITEMS = MATCH_BATCH;
const MATCH_FLUSH_MS = 500;
const IMPORT_INSERT_BATCH = 500;
const MAX_INLINE_RETRIES = 4;
/** Transient provider failures in a row (across runs, without any item moving) before the job fails. */
const MAX_TRANSIENT_FAILURES = 8;

export class MigrationRunner {
  readonly #o: RunnerOptions;
  /**
   * Jobs a run of this runner is working on. The lease cannot tell two runs of one worker apart
   * (it names the worker), and a second queue entry for a running job is normal: the recovery
   * sweep queues a job whose lease renewal came late (the process was busy). Without this, that
   * entry would claim the lease this worker already holds and run the job twice side by side.
   */
  readonly #running = new Set<string>();
  /** Told about every run that ended without work left (finished, waiting for review, paused, failed). */
  readonly #settled = new Set<(jobId: string) => Promise<void>>();

  constructor(options: RunnerOptions) {
    this.#o = options;
  }

  /**
   * Calls `listener` after each run of a job that ended without a next slice queued: the job
   * finished, waits for review, paused or retries later. The sync finalizer listens here; it reads
   * the job's persisted state, so a listener that misses a call (a crash) is caught up by its sweep.
   */
  onSettled(listener: (jobId: string) => Promise<void>): () => void {
    this.#settled.add(listener);
    return () => this.#settled.delete(listener);
  }

  /** Whether a run of this worker is working on the job now. */
  isRunning(jobId: string): boolean {
    return this.#running.has(jobId);
  }

  /** One run of a job. Returns quietly when another run (in any worker) holds it or it is finished. */
  async run(jobId: string, signal: AbortSignal): Promise<void> {
    if (this.#running.has(jobId)) return;
    this.#running.add(jobId);
    let sliced: boolean;
    try {
      sliced = await this.#runClaimed(jobId, signal);
    } finally {
      this.#running.delete(jobId);
    }
    // Queued for its next slice only now: an entry queued while this run was still on the books
    // could reach this worker's other slot at once, find the job running here and be dropped.
    if (sliced) {
      await this.#o.enqueue(jobId);
      return;
    }
    for (const listener of this.#settled) await listener(jobId).catch((error: unknown) => this.#o.logger.warn({ err: error, migration: jobId }, 'a settled-job listener failed'));
  }

  /** Runs the job if its lease can be had; true when the slice ended with work left (the lease is released). */
  async #runClaimed(jobId: string, signal: AbortSignal): Promise<boolean> {
    const [claimed] = await this.#o.store.change(jobId, claimLease(jobId, this.#o.workerId, this.#o.leaseSeconds));
    if (!claimed) return false;
    const job = jobRow(claimed);
    const logger = this.#o.logger.child({ migration: jobId });
    let leaseLost = false;
    const renew = setInterval(() => {
      this.#o.store
        .renewLease(jobId, this.#o.workerId, this.#o.leaseSeconds)
        .then((rows) => {
          if (rows.length === 0) leaseLost = true;
        })
        .catch((error: unknown) => logger.warn({ err: error }, 'could not renew the migration lease'));
    }, Math.max(250, (this.#o.leaseSeconds * 1000) / 3));
    const deadline = Date.now() + this.#o.sliceSeconds * 1000;
    const checkpoint = () => {
      if (leaseLost) throw new LeaseLost('the lease was lost');
      return signal.aborted || Date.now() > deadline;
    };
    try {
      for (let inlineRetries = 0; ; inlineRetries++) {
        try {
          return (await this.#advance(job, checkpoint, logger)) === 'sliced';
        } catch (error) {
          if (error instanceof LeaseLost) return this.#leaseLost(logger);
          const failure = error instanceof StopRun ? error.failure : classifyFailure(error);
          const waitS = failure.kind === 'retry' ? retryDelaySeconds(failure.retryAfterS, inlineRetries) : null;
          if (waitS !== null && waitS <= INLINE_WAIT_LIMIT_S && inlineRetries < MAX_INLINE_RETRIES && !signal.aborted) {
            logger.info({ code: failure.code, waitS, retryAfterS: failure.kind === 'retry' ? failure.retryAfterS : null }, 'migration waits and retries');
            await sleep(waitS * 1000, undefined, { signal }).catch(() => undefined);
            continue;
          }
          try {
            await this.#stop(job, failure, logger);
          } catch (stopError) {
            if (stopError instanceof LeaseLost) return this.#leaseLost(logger);
            throw stopError;
          }
          return false;
        }
      }
    } finally {
      clearInterval(renew);
      await this.#o.store.releaseLease(jobId, this.#o.workerId).catch(() => undefined);
    }
  }

  #leaseLost(logger: Logger): false {
    logger.warn('the migration lease is held elsewhere now (another worker, or the job was cancelled); this run stops without changing more');
    return false;
  }

  /** A fenced change (see `updateJobPhase`) that changed nothing: this run no longer holds the job. */
  #held(job: JobRow, rows: readonly unknown[]): void {
    if (rows.length === 0) throw new LeaseLost(`migration ${job.id} is no longer held by this worker`);
  }

  async #stop(job: JobRow, failure: FailureClass, logger: Logger): Promise<void> {
    if (failure.kind === 'pause') {
      logger.warn({ code: failure.code, resumeAt: failure.resumeAt }, 'migration paused');
      this.#held(job, await this.#o.store.change(job.id, updateJobStatus(job.id, { status: 'paused', outcome: 'running', errorCode: failure.code, error: failure.message, resumeAt: failure.resumeAt }, this.#o.workerId)));
      return;
    }
    if (failure.kind === 'retry') {
      // "In a row" means without progress: a job whose items moved since the last failure starts counting again.
      const [progress] = await this.#o.store.execute({ text: `select coalesce(max(progress_seq), 0) as seq from job_item where job_id = ?`, values: [job.id] });
      const seq = Number(progress?.['seq'] ?? 0);
      const progressed = seq > Number(job.summary?.['transient_progress'] ?? 0);
      const transient = progressed ? 1 : Number(job.summary?.['transient_failures'] ?? 0) + 1;
      if (transient <= MAX_TRANSIENT_FAILURES) {
        // The attempt count lives in the job's summary, so the backoff keeps growing across runs and
        // restarts; the time itself is persisted as resume_at (and the queue entry's start time).
        const startAfter = new Date(Date.now() + retryDelaySeconds(failure.retryAfterS, MAX_INLINE_RETRIES + transient - 1) * 1000);
        logger.warn({ code: failure.code, startAfter, transient }, 'migration retries later');
        await this.#o.store.inJob(job.id, async (execute) => {
          this.#held(job, await execute(updateJobStatus(job.id, { status: 'queued', outcome: 'running', errorCode: failure.code, error: failure.message, resumeAt: startAfter }, this.#o.workerId)));
          await execute({ text: `update migration_job set summary = coalesce(summary, '{}'::jsonb) || jsonb_build_object('transient_failures', ?::int, 'transient_progress', ?::bigint) where id = ?`, values: [transient, seq, job.id] });
        });
        await this.#o.enqueue(job.id, startAfter);
        return;
      }
    }
    logger.error({ code: failure.code }, 'migration failed');
    await this.#finish(job, failure.message);
  }

  /** Runs phases until the job finishes, waits for review, or the slice ends. */
  async #advance(job: JobRow, checkpoint: () => boolean, logger: Logger): Promise<'done' | 'review' | 'sliced'> {
    const target = this.#targetManifest(job);
    // One session for the run's calls of the target: not two database reads per search (see `ConnectionService.session`).
    const call: <N extends OperationName>(op: N, input: OperationCallInput<N>) => Promise<OperationResult<N>> = this.#o.connections.session(job.ownerId, job.targetAccountId);
    if (job.phase === 'created') {
      await this.#importItems(job);
      job.phase = 'items_ready';
      logger.info('migration items imported');
    }
    if (job.phase === 'items_ready') {
      const matched = await this.#matchItems(job, target, call, checkpoint);
      if (matched === 'sliced') return 'sliced';
      const [review] = await this.#o.store.execute(countItemsWithStatus(job.id, 'needs_review'));
      if (Number(review?.['n'] ?? 0) > 0) {
        this.#held(job, await this.#o.store.change(job.id, updateJobStatus(job.id, { status: 'awaiting_review', outcome: 'running', errorCode: null, error: null }, this.#o.workerId)));
        logger.info({ needsReview: Number(review!['n']) }, 'migration waits for review');
        return 'review';
      }
      this.#held(job, await this.#o.store.change(job.id, updateJobPhase(job.id, 'matched', this.#o.workerId)));
      job.phase = 'matched';
    }
    if (job.phase === 'matched') {
      // A target track the provider no longer has leaves the identity graph, for every account.
      const forgetTarget = (trackId: string) => this.#matchService(call).forgetTarget(job.targetProvider, trackId);
      const lease = { worker: this.#o.workerId, seconds: this.#o.leaseSeconds };
      const writer = new TargetWriter({ store: this.#o.store, call, manifest: target, job, lease, forgetTarget, ...(this.#o.visibilityWaitMs === undefined ? {} : { visibilityWaitMs: this.#o.visibilityWaitMs }) });
      for (const collection of this.#writeCollections(job)) {
        if (checkpoint()) return 'sliced';
        const entityType = collection.kind === 'ALBUMS' ? 'album' : collection.kind === 'ARTISTS' ? 'artist' : 'track';
        const rows = await this.#o.store.execute(selectItemsOfCollection(job.id, entityType, entityType === 'track' ? collection.id : null));
        const items = rows.map((row) => ({ id: String(row['id']), targetUri: (row['target_uri'] as string | null) ?? null, position: row['position'] === null ? null : Number(row['position']), status: String(row['status']) }));
        const toWrite = items.some((item) => item.status === 'matched');
        if (toWrite) {
          const targetId = collection.kind === 'PLAYLIST' ? await writer.ensurePlaylist(collection, rows.map((row) => row['source_metadata'] as Track)) : null;
          await writer.writeCollection(collection, targetId, items);
        }
        // Also after a resume with nothing left to write: a run that died during the check left
        // accepted writes whose position is still to be observed.
        const written = collection.kind === 'PLAYLIST' ? writer.recordedTarget(collection.id) : null;
        if (written) await writer.confirmPositions(collection, written);
      }
      this.#held(job, await this.#o.store.change(job.id, updateJobPhase(job.id, 'written', this.#o.workerId)));
      job.phase = 'written';
    }
    await this.#finish(job, null);
    logger.info('migration finished');
    return 'done';
  }

  #targetManifest(job: JobRow): Manifest {
    const manifest = this.#o.catalogue.providerPlugin(job.targetProvider);
    if (!manifest?.provider) throw new StopRun({ kind: 'pause', code: 'auth_expired', message: `The ${job.targetProvider} plugin is not loaded on this instance; enable it and resume the migration.`, resumeAt: null });
    return manifest;
  }

  /** Source collections in selection order, then saved albums, then followed artists. */
  #writeCollections(job: JobRow): WriteCollection[] {
    const collections = (job.selection['collections'] as { id: string; kind: 'PLAYLIST' | 'LIKED_TRACKS'; name: string; description: string | null }[] | undefined) ?? [];
    return [
      ...collections.map((collection) => ({ id: collection.id, kind: collection.kind, name: collection.name, description: collection.description })),
      { id: 'albums', kind: 'ALBUMS' as const, name: 'Saved albums', description: null },
      { id: 'artists', kind: 'ARTISTS' as const, name: 'Followed artists', description: null },
    ];
  }

  // --- phase 0–2: source, import, selection ------------------------------------------------------

  async #importItems(job: JobRow): Promise<void> {
    const selection = job.selection['request'] as Selection;
    const source = await this.#o.sources.load({ ownerId: job.ownerId, sourceKind: job.sourceKind, sourceProvider: job.sourceProvider, sourceAccountId: job.sourceAccountId, sourceSnapshotId: job.sourceSnapshotId }, selection);
    const items = itemsOf(source);
    // A target fixed at creation (a sync rule follows its target playlist by id) is kept: the
    // writer then adds to that playlist and never looks for, adopts or creates another.
    const fixedTargets = new Map(((job.selection['collections'] as { id: string; target_playlist_id?: string | null }[] | undefined) ?? []).map((collection) => [collection.id, collection.target_playlist_id ?? null]));
    const collections = source.collections.map((collection) => ({ id: collection.id, kind: collection.kind, name: collection.name, description: collection.description, total_tracks: collection.totalTracks, selected_tracks: collection.tracks.length, target_playlist_id: fixedTargets.get(collection.id) ?? null }));
    job.selection = { ...job.selection, collections };
    await this.#o.store.inJob(job.id, async (execute) => {
      // A run that died after inserting but before committing left nothing; a finished one moved the phase.
      const [existing] = await execute(selectItemCounts(job.id));
      if (existing) return;
      for (let start = 0; start < items.length; start += IMPORT_INSERT_BATCH) await execute(insertItems(job.id, job.ownerId, items.slice(start, start + IMPORT_INSERT_BATCH)));
      await execute(updateJobSelection(job.id, job.selection));
      this.#held(job, await execute(updateJobPhase(job.id, 'items_ready', this.#o.workerId)));
    });
  }

  // --- phase 3–3.6: target access, match, review gate ----------------------------------------

  /** `deferGraphWrites`: matching commits a slice's graph writes at once (see `#matchItems`). */
  #matchService(call: <N extends OperationName>(op: N, input: OperationCallInput<N>) => Promise<OperationResult<N>>, deferGraphWrites = false): MatchService {
    return new MatchService({
      execute: this.#o.store.execute,
      // The identity graph is no row of the job: its writes take only their own graph locks, never
      // the job's progress lock, like every other writer of the graph (review, generator).
      transaction: this.#o.store.transaction,
      deferGraphWrites,
      catalogue: this.#o.catalogue,
      // An account that needs reconnecting must pause the job, not count as a failed search.
      plugins: {
        call: async (_pluginId, _op, input) => {
          try {
            return await call('searchTracks', input);
          } catch (error) {
            if (error instanceof ConnectionError && error.code === 'auth_expired') throw new AuthExpired(error.message);
            throw error;
          }
        },
      },
    });
  }

  async #matchItems(job: JobRow, target: Manifest, call: <N extends OperationName>(op: N, input: OperationCallInput<N>) => Promise<OperationResult<N>>, checkpoint: () => boolean): Promise<'done' | 'sliced'> {
    const matching = this.#matchService(call, true);
    const context: MatchContext = {
      ownerId: job.ownerId,
      sourceProvider: job.sourceProvider,
      targetProvider: job.targetProvider,
      targetPluginId: target.id,
      targetAccountId: job.targetAccountId,
      strictness: job.strictness as Strictness,
      execute: this.#o.store.execute,
      matching,
      ...(this.#o.lookups ? { lookup: this.#o.lookups.forOwner(job.ownerId) } : {}),
      target: {
        searchAlbums: async (query) => (await call('searchAlbums', { query, limit: 10 })).candidates,
        searchArtists: async (name) => (await call('searchArtists', { query: { name }, limit: 10 })).candidates,
        validateUri: async (uri) => {
          try {
            const answer = await call('validateUri', { uri });
            return { valid: answer.valid, id: answer.id ?? null, entity: answer.entity ?? null, normalizedUri: answer.normalized_uri ?? null };
          } catch {
            return null;
          }
        },
      },
    };
    // Matching an item is mostly waiting (a provider search), so a few items are matched at once.
    // The database work is per slice, not per item: the slice's lookups are read ahead, the graph
    // writes of its acceptances are committed together at its end, and its items' results in one
    // statement (or more often, when matching is slow, so progress shows). A crash loses at most
    // the unwritten results and graph writes, and those items are simply matched again.
    const results: { itemId: string; match: ItemMatch }[] = [];
    let flushedAt = Date.now();
    const flush = async () => {
      if (results.length === 0) return;
      const batch = results.splice(0, results.length);
      flushedAt = Date.now();
      await this.#o.store.change(job.id, updateItemMatches(batch));
    };
    for (;;) {
      const pending = await this.#o.store.execute(selectItemsByStatus(job.id, ['pending'], MATCH_BATCH));
      if (pending.length === 0) return 'done';
      // Songs that are only links of another service are read from it in batches, before matching.
      if (context.lookup) await context.lookup.prefetch(pending.flatMap((row) => (String(row['entity_type']) === 'track' ? linkOnlyAsks(row['source_metadata'] as Track, job.targetProvider) : [])));
      // What matching each song first asks the database, for the whole batch at once.
      await prefetchMatches(context, pending);
      let next = 0;
      let sliced = false;
      let failure: { error: unknown } | null = null;
      const worker = async () => {
        while (failure === null && next < pending.length) {
          if (checkpoint()) {
            sliced = true;
            return;
          }
          const row = pending[next++]!;
          const metadata = row['source_metadata'] as Record<string, unknown>;
          const entity = String(row['entity_type']);
          try {
            const match = entity === 'album' ? await matchAlbum(context, metadata) : entity === 'artist' ? await matchArtist(context, metadata) : await matchTrack(context, metadata);
            results.push({ itemId: String(row['id']), match });
            if (results.length >= MATCH_FLUSH_ITEMS || Date.now() - flushedAt >= MATCH_FLUSH_MS) await flush();
          } catch (error) {
            failure ??= { error };
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(MATCH_CONCURRENCY, pending.length) }, () => worker()));
      // What was matched is kept even when another item stopped the run (an expired connection).
      try {
        await matching.flushGraphWrites();
      } catch (error) {
        failure ??= { error };
      }
      await flush();
      if (failure !== null) throw failure.error;
      if (sliced) return 'sliced';
    }
  }

  // --- phase 5: the end --------------------------------------------------------------------------

  async #finish(job: JobRow, error: string | null): Promise<void> {
    const { counts, entity_counts } = countsFrom(await this.#o.store.execute(selectItemCounts(job.id)));
    const finalOutcome = outcomeOf(counts, await this.#harmlessSkips(job.id), error);
    const collections = ((job.selection['collections'] as { id: string; name: string; target_playlist_id?: string | null }[] | undefined) ?? []).map((collection) => ({
      source_playlist_id: collection.id,
      source_playlist_name: collection.name,
      target_playlist_id: collection.target_playlist_id ?? null,
    }));
    const summary = { ...(job.summary ?? {}), transient_failures: 0, counts, entity_counts, collections };
    this.#held(job, await this.#o.store.change(job.id, finishJob(job.id, { status: finalOutcome === 'failed' ? 'failed' : 'completed', outcome: finalOutcome, summary, error, retentionDays: this.#o.retentionDays() }, this.#o.workerId)));
    if (job.sourceKind === 'import') {
      if (finalOutcome === 'failed') await this.#o.imports.releaseFailedJob(job.id, this.#o.importGraceHours);
      else await this.#o.imports.completeJob(job.id);
    }
    await this.#o.playlists.invalidate(job.ownerId, job.targetAccountId).catch(() => undefined);
  }

  /** Skips that are not losses: songs the target already had, and the user's own skips. */
  async #harmlessSkips(jobId: string): Promise<number> {
    const [row] = await this.#o.store.execute({ text: `select count(*)::int as n from job_item where job_id = ? and status = 'skipped' and (${HARMLESS_SKIP_PATTERNS.map(() => 'reason like ?').join(' or ')})`, values: [jobId, ...HARMLESS_SKIP_PATTERNS] });
    return Number(row?.['n'] ?? 0);
  }
}

/** The links to read a migratable song from when it has nothing to search by (no title, artist, album or ISRC). */
function linkOnlyAsks(track: Track, targetProvider: string): LinkAsk[] {
  return track.is_migratable !== false && isLinkOnly(track, true) ? linkAsks(track, targetProvider) : [];
}
