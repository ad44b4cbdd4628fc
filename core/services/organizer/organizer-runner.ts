import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { PluginError, RateLimited } from '@opl/plugin-sdk';
import type { Logger } from '../../logging/logger.ts';
import type { SqlExecute } from '../../storage/sql/executors.ts';
import { classifyFailure, INLINE_WAIT_LIMIT_S, uncertainWrite } from '../migrations/migration-errors.ts';
import { confirmOwnership, readFull, type OrganizerReadDeps } from './organizer-reads.ts';
import type { PlannedRemoval, ProviderOrganizer } from './organizer-preflight.ts';
import { claimJob, markItemRunning, releaseJob, selectItems, selectJobForWorker, settleItem, type ItemOutcome } from './organizer.sql.ts';
import { restorablePositions, restoreNotes, type RestoreOrder } from './organizer-restore.ts';
import { putBacksToExpected, sameSequence, sequenceHash, sequenceOf, type PutBack, type SequenceEntry } from './playlist-sequence.ts';

/**
 * Runs one organizer job in the worker. Every item is marked `running` (its attempt counted)
 * before its provider call, and settled only by what a read shows afterwards. A worker that finds
 * an item still `running` (its predecessor died mid-call) or gets an answer that leaves it unknown
 * whether the provider applied the call reads the playlist first: the exact expected state means
 * done; the untouched baseline means the call may be sent; anything else needs a new preflight.
 * Nothing is ever sent twice blindly.
 */

/** How long a worker holds a job between renewals (each item renews it); a dead worker's lease runs out after this. */
export const ORGANIZER_LEASE_SECONDS = 120;
/** Automatic retries of a rate-limited call inside one run; after that the item stays retryable. */
const RATE_LIMIT_RETRIES = 3;

export interface OrganizerRunnerDeps extends OrganizerReadDeps {
  readonly execute: SqlExecute;
  readonly logger: Logger;
  readonly organizerOf: (provider: string) => ProviderOrganizer | null;
  readonly invalidate: (ownerId: string, accountId: string) => Promise<void>;
  readonly leaseSeconds?: number;
  /**
   * Snapshots the playlists a job is about to change, before its first destructive call; throws
   * (saying why, to the owner) when they could not all be kept — the job then changes nothing.
   */
  readonly snapshotBeforeDestructive?: (ownerId: string, accountId: string, playlistIds: readonly string[], reason: 'organizer', options: { signal: AbortSignal; unreadableAllowed: readonly string[] }) => Promise<unknown>;
}

interface JobRow {
  id: string;
  owner_id: string;
  provider: string;
  account_id: string;
  mode: string;
  /** The plan the job was made from; an undo job's says how it restores (`restore_order`). */
  preflight: { restore_order?: RestoreOrder } | null;
}

export interface ItemRow {
  id: string;
  playlist_id: string;
  playlist_name: string | null;
  action: 'unfollow_playlist' | 'delete_playlist' | 'remove_tracks' | 'restore_tracks';
  status: string;
  snapshot_id: string | null;
  entries: PlannedRemoval[] | null;
  set_video_ids: string[] | null;
  baseline: SequenceEntry[] | null;
  baseline_sequence_hash: string | null;
  expected_sequence_hash: string | null;
}

class LostLease extends Error {}

export class OrganizerRunner {
  readonly #deps: OrganizerRunnerDeps;
  readonly #worker = `organizer-${randomUUID()}`;

  constructor(deps: OrganizerRunnerDeps) {
    this.#deps = deps;
  }

  async run(jobId: string, signal: AbortSignal): Promise<void> {
    const { execute } = this.#deps;
    const [job] = (await execute(selectJobForWorker(jobId))) as unknown as JobRow[];
    if (!job) return;
    if ((await execute(claimJob(jobId, this.#worker, this.#deps.leaseSeconds ?? ORGANIZER_LEASE_SECONDS))).length === 0) return;
    const provider = this.#deps.organizerOf(job.provider);
    try {
      let items = (await execute(selectItems(jobId))) as unknown as ItemRow[];
      const refusal = await this.#snapshotFirst(job, items, signal);
      if (refusal) {
        for (const item of items.filter(unsettled)) {
          if ((await execute(settleItem(item.id, jobId, this.#worker, { status: 'failed', retryable: true, errorCode: refusal.code, error: refusal.message, notes: [] }))).length === 0) throw new LostLease('lease lost');
        }
        items = [];
      }
      for (const item of items) {
        if (item.status !== 'pending' && item.status !== 'running') continue;
        if (signal.aborted) throw new LostLease('the worker is stopping');
        if ((await execute(claimJob(jobId, this.#worker, this.#deps.leaseSeconds ?? ORGANIZER_LEASE_SECONDS))).length === 0) throw new LostLease('lease lost');
        const outcome = provider
          ? await this.#settle(job, item, provider, signal)
          : { status: 'failed' as const, retryable: true, errorCode: 'provider_unavailable', error: `The ${job.provider} plugin is not loaded; retry once it is.`, notes: [] };
        if ((await execute(settleItem(item.id, jobId, this.#worker, outcome))).length === 0) throw new LostLease('lease lost');
        if (outcome.status === 'succeeded') await this.#deps.invalidate(job.owner_id, job.account_id);
      }
      const settled = (await execute(selectItems(jobId))) as unknown as (ItemRow & { retryable: boolean })[];
      const succeeded = settled.filter((item) => item.status === 'succeeded').length;
      const status = succeeded === settled.length ? 'completed' : succeeded === 0 ? 'failed' : 'partial';
      await execute(releaseJob(jobId, this.#worker, status, { items: settled.length, succeeded, failed: settled.length - succeeded, retryable: settled.filter((item) => item.status !== 'succeeded' && item.retryable).length }));
    } catch (error) {
      // The lease runs out by itself; the queue's retry (or the next worker) picks the job up.
      if (error instanceof LostLease) return;
      throw error;
    }
  }

  /**
   * The automatic snapshot of the playlists this run may change (removals, deletions, unfollows:
   * not an undo's put-back), taken on every run that has such work left, before its first call.
   * Answers why the run must not go on (an expired connection as such, so the job asks for a
   * reconnect), or null.
   */
  async #snapshotFirst(job: JobRow, items: readonly ItemRow[], signal: AbortSignal): Promise<{ code: string; message: string } | null> {
    const destructive = items.filter((item) => unsettled(item) && item.action !== 'restore_tracks');
    if (destructive.length === 0 || !this.#deps.snapshotBeforeDestructive) return null;
    try {
      // An unfollowed playlist of another user stays with its owner: the provider may refuse its items.
      const unfollowed = destructive.filter((item) => item.action === 'unfollow_playlist').map((item) => item.playlist_id);
      await this.#deps.snapshotBeforeDestructive(job.owner_id, job.account_id, destructive.map((item) => item.playlist_id), 'organizer', { signal, unreadableAllowed: unfollowed });
      return null;
    } catch (error) {
      this.#deps.logger.warn({ job_id: job.id, err: error instanceof Error ? error.name : 'error' }, 'automatic snapshot failed; the organizer job changes nothing');
      const failure = classifyFailure(error);
      if (failure.kind === 'pause' && failure.code === 'auth_expired') return { code: 'auth_expired', message: `${failure.message} Reconnect the account, then retry.` };
      const why = error instanceof Error && error.name === 'SnapshotError' ? error.message : 'The automatic snapshot of these playlists could not be taken; nothing was changed.';
      return { code: 'snapshot_failed', message: `${why} Retry the job once the playlists can be read.` };
    }
  }

  async #settle(job: JobRow, item: ItemRow, provider: ProviderOrganizer, signal: AbortSignal): Promise<ItemOutcome> {
    const interrupted = item.status === 'running';
    if ((await this.#deps.execute(markItemRunning(item.id, job.id, this.#worker))).length === 0) throw new LostLease('lease lost');
    try {
      if (item.action === 'remove_tracks') return await this.#removeSongs(job, item, provider, interrupted, signal);
      if (item.action === 'restore_tracks') return await this.#restoreSongs(job, item, provider, interrupted, signal);
      return await this.#playlistAction(job, item, provider, signal);
    } catch (error) {
      if (error instanceof LostLease) throw error;
      return failureOutcome(error);
    }
  }

  /** Safe removal and deletion are idempotent at the provider: an absent playlist counts as done. */
  async #playlistAction(job: JobRow, item: ItemRow, provider: ProviderOrganizer, signal: AbortSignal): Promise<ItemOutcome> {
    const { owner_id: ownerId, account_id: accountId } = job;
    if (item.action === 'delete_playlist') {
      const deletion = provider.section.permanent_delete;
      if (!deletion.available) return refused(deletion.reason);
      // Ownership again, live, right before the destructive call.
      const ownership = await confirmOwnership(this.#deps, ownerId, accountId, item.playlist_id, deletion.ownership_check);
      if (ownership.state === 'absent') return done(['The playlist was already gone.']);
      if (ownership.state === 'not_owned') return refused(`Ownership is no longer confirmed (${ownership.evidence}); nothing was deleted.`, 'not_owned');
    } else if (!provider.section.safe_removal.available) {
      return refused(provider.section.safe_removal.reason);
    }
    const op = item.action === 'delete_playlist' ? 'deletePlaylist' : 'unfollowPlaylist';
    try {
      await this.#withRateLimitRetries(() => this.#deps.connections.call(ownerId, accountId, op, { playlist_id: item.playlist_id }), signal);
    } catch (error) {
      if (error instanceof PluginError && error.type === 'NotFound') return done(['The playlist was already gone.']);
      throw error;
    }
    return done([]);
  }

  async #removeSongs(job: JobRow, item: ItemRow, provider: ProviderOrganizer, interrupted: boolean, signal: AbortSignal): Promise<ItemOutcome> {
    const songs = provider.section.remove_songs;
    if (!songs.available) return refused(songs.reason);
    const { owner_id: ownerId, account_id: accountId } = job;
    const baseline = item.baseline ?? [];
    const chosen = item.entries ?? [];
    const positions = new Set(chosen.map((entry) => entry.position));
    const expected = baseline.filter((_, index) => !positions.has(index));

    const observe = async () => {
      const playlist = await readFull(this.#deps, ownerId, accountId, item.playlist_id);
      return playlist ? sequenceOf(playlist.tracks, provider.provider) : null;
    };
    const before = await observe();
    if (!before) return refused('The playlist is gone; nothing was removed.', 'playlist_gone');
    if (sequenceHash(before) === item.expected_sequence_hash) return done(interrupted ? ['The removal had already been applied; it was not sent again.'] : [], chosen);
    if (sequenceHash(before) !== item.baseline_sequence_hash) {
      // A run that died between the provider's removal and the put-back of the extra copies left
      // the expected sequence with copies missing: finish the put-back, nothing else.
      const pending = interrupted && songs.removes_every_occurrence && songs.positional_insert ? putBacksToExpected(before, expected) : null;
      if (!pending || pending.length === 0) return changed();
      return this.#putBack(job, item, provider, pending, expected, observe, signal, null);
    }

    // The playlist is exactly as the preflight saw it: the removal has not happened and may be sent.
    const stillPresent = new Set(before.map((entry) => entry.entryId).filter((id): id is string => id !== null));
    const items = chosen
      .filter((entry) => songs.identify_by !== 'entry_id' || (entry.entry_id !== null && stillPresent.has(entry.entry_id)))
      .map((entry) => ({ uri: entry.uri, position: entry.position, target_item_id: songs.identify_by === 'entry_id' ? entry.entry_id : null }));
    let sendError: unknown = null;
    if (items.length > 0) {
      try {
        await this.#withRateLimitRetries(() => this.#deps.connections.call(ownerId, accountId, 'removeTracks', { playlist_id: item.playlist_id, items, snapshot_id: songs.identify_by === 'uri_positions_snapshot' ? item.snapshot_id : null }), signal);
      } catch (error) {
        // A refusal the provider gave before acting (rate limit, expired connection, invalid input) settles nothing else.
        if (!uncertainWrite(error)) throw error;
        sendError = error;
      }
    }

    // Settled only by what the playlist shows now.
    const after = await observe();
    if (!after) return refused('The playlist disappeared while songs were being removed.', 'playlist_gone');
    if (sameSequence(after, expected)) return done(sendError ? ['The provider’s answer was lost, but a read shows exactly the chosen entries removed.'] : [], chosen);
    if (sendError && sameSequence(after, before)) return { ...failureOutcome(sendError), notes: ['Nothing was removed; the playlist is unchanged, so a retry is safe.'] };
    const putBacks = putBacksToExpected(after, expected);
    if (!putBacks || !songs.positional_insert) return changed(sendError);
    return this.#putBack(job, item, provider, putBacks, expected, observe, signal, sendError);
  }

  /** The provider removed more copies than chosen: put each extra copy back where it was, then verify. */
  async #putBack(
    job: JobRow,
    item: ItemRow,
    provider: ProviderOrganizer,
    putBacks: readonly PutBack[],
    expected: readonly SequenceEntry[],
    observe: () => Promise<SequenceEntry[] | null>,
    signal: AbortSignal,
    sendError: unknown,
    options: { positional: boolean; notes: (positions: number[]) => string[] } = {
      positional: true,
      notes: (positions) => {
        const count = positions.length;
        return [`${provider.displayName} removed every copy of the chosen songs; ${count} unselected cop${count === 1 ? 'y was' : 'ies were'} put back at ${count === 1 ? 'its' : 'their'} position${count === 1 ? '' : 's'} (${positions.join(', ')}).`];
      },
    },
  ): Promise<ItemOutcome> {
    for (const putBack of putBacks) {
      // Ascending order: each insert (or append) lands exactly where the expected sequence has it.
      const position = options.positional ? putBack.position : null;
      await this.#withRateLimitRetries(() => this.#deps.connections.call(job.owner_id, job.account_id, 'addTracks', { playlist_id: item.playlist_id, items: [{ uri: putBack.key, position }] }), signal);
    }
    const after = await observe();
    if (after && sameSequence(after, expected)) {
      return done(options.notes(putBacks.map((putBack) => putBack.position)), item.entries ?? []);
    }
    return changed(sendError);
  }

  /**
   * Undo of a song removal: re-adds the removed entries, at their positions or (a provider that can
   * only append) at the end in their old order. Only entries the removal took are ever added, and
   * only while the playlist is the removal's result with some of them back already (a crashed undo
   * resumes where it stopped); anything else needs a look first.
   */
  async #restoreSongs(job: JobRow, item: ItemRow, provider: ProviderOrganizer, interrupted: boolean, signal: AbortSignal): Promise<ItemOutcome> {
    const target = item.baseline ?? [];
    const removed = item.entries ?? [];
    const order: RestoreOrder = job.preflight?.restore_order ?? 'positions';
    const observe = async () => {
      const playlist = await readFull(this.#deps, job.owner_id, job.account_id, item.playlist_id);
      return playlist ? sequenceOf(playlist.tracks, provider.provider) : null;
    };
    const before = await observe();
    if (!before) return refused('The playlist is gone; nothing was put back.', 'playlist_gone');
    const notes = (sent: readonly number[]) => restoreNotes(order, provider.displayName, target, removed, sent);
    if (sameSequence(before, target)) return done([...(interrupted ? ['The entries were already back; nothing was sent again.'] : []), ...(order === 'appended' ? notes([]) : [])], removed);
    const allowed = restorablePositions(order, target, removed);
    const missing = putBacksToExpected(before, target);
    if (!missing || missing.some((entry) => !allowed.has(entry.position))) return changed();
    return this.#putBack(job, item, provider, missing, target, observe, signal, null, { positional: order === 'positions', notes: (sent) => notes(sent) });
  }

  async #withRateLimitRetries<T>(call: () => Promise<T>, signal: AbortSignal): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await call();
      } catch (error) {
        if (!(error instanceof RateLimited) || error.quota || attempt >= RATE_LIMIT_RETRIES) throw error;
        const waitS = Math.min(error.retryAfterSeconds ?? 2 ** attempt, INLINE_WAIT_LIMIT_S);
        this.#deps.logger.info({ wait_s: waitS, attempt }, 'organizer call rate-limited; waiting');
        await sleep(waitS * 1000, undefined, { signal });
      }
    }
  }
}

function done(notes: string[], entries?: PlannedRemoval[]): ItemOutcome {
  return { status: 'succeeded', retryable: false, errorCode: null, error: null, notes, ...(entries ? { entries } : {}) };
}

function refused(message: string, code = 'unsupported'): ItemOutcome {
  return { status: 'failed', retryable: false, errorCode: code, error: message, notes: [] };
}

function changed(cause?: unknown): ItemOutcome {
  return {
    status: 'failed',
    retryable: false,
    errorCode: 'playlist_changed',
    error: 'The playlist is neither as the preflight saw it nor exactly as expected after the removal, so nothing more is sent. Run a new preflight on the playlist as it is now.',
    notes: cause ? ['The provider’s answer to the removal was lost.'] : [],
  };
}

/** Retryable: passing provider trouble and connections that need renewing (retry from the UI after reconnecting). */
/** An item this run still has to carry out. */
const unsettled = (item: ItemRow) => item.status === 'pending' || item.status === 'running';

function failureOutcome(error: unknown): ItemOutcome {
  const failure = classifyFailure(error);
  if (failure.kind === 'pause') return { status: 'failed', retryable: true, errorCode: failure.code, error: failure.code === 'auth_expired' ? `${failure.message} Reconnect the account, then retry.` : failure.message, notes: [] };
  if (failure.kind === 'retry') return { status: 'failed', retryable: true, errorCode: failure.code, error: failure.message, notes: [] };
  return { status: 'failed', retryable: false, errorCode: failure.code, error: failure.message, notes: [] };
}
