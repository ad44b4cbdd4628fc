import type { Playlist, Track } from '@opl/plugin-sdk';
import type { SnapshotManifest } from '@opl/plugin-sdk/schemas';
import type { Logger } from '../../logging/logger.ts';
import type { SqlExecute, SqlTransaction } from '../../storage/sql/executors.ts';
import type { ConnectionService } from '../connections/connection.service.ts';
import type { PlaylistReadService } from '../playlists/playlist-read.service.ts';
import { planMirror, type MirrorPlan, type TargetEntry } from '../sync/mirror-plan.ts';
import { applyMirrorPlan, StatementStepLedger, type MirrorStepLedger, type TargetCall } from '../sync/mirror-writes.ts';
import { readSnapshotCollections, SnapshotVerificationError, type SnapshotLimits } from './archive/index.ts';
import type { SnapshotAsOf } from './snapshot-as-of.ts';
import { SnapshotError } from './snapshot-error.ts';
import * as sql from './snapshot-rewind.sql.ts';
import type { SnapshotView } from './snapshot-views.ts';

/**
 * "Restore this playlist as it was at time T" into the same provider playlist, by id (issue 30
 * item 7): the live playlist becomes the snapshot's ordered songs, exactly. No matching: the
 * snapshot was taken from this provider, so its songs carry this provider's URIs.
 *
 * The plan is sync's mirror plan (`planMirror`: removals, the fewest moves, additions at their
 * place; the one replacement only where the provider refuses moves), written by the shared mirror
 * writer with a ledger row before every provider call (`snapshot_rewind_step`). Where edits
 * cannot express the snapshot (it held a song twice, or the playlist holds a second copy of a
 * song), the playlist is replaced by the snapshot's list in one ledgered call. Before any write an
 * automatic snapshot of the playlist as it is now is taken, so a rewind can itself be undone. The
 * result is verified by reading the playlist again. A rewind of a playlist that already is as it
 * was writes nothing; one interrupted by a crash is continued by the next, which reads the
 * playlist again and plans from what it finds (nothing is replayed blindly).
 */

/** Entries listed per kind in a preview. */
const LISTED = 500;

export interface RewindTarget {
  accountId: string;
  playlistId: string;
  /** The newest verified snapshot taken at or before this time holding the playlist… */
  at?: Date | undefined;
  /** …or this snapshot. */
  snapshotId?: string | undefined;
}

interface ListedTrack {
  uri: string;
  title: string;
  artist: string;
}

export interface RewindPreview {
  snapshot: SnapshotView;
  restore_id: string;
  account_id: string;
  playlist: { id: string; name: string; item_count: number };
  /** `none`: already as it was; `edit`: removals, moves and additions; `replace`: one replacement of the whole list. */
  method: 'none' | 'edit' | 'replace';
  /** Entries of the live playlist the result drops: a rewind with any needs `confirm_removals` at least this. */
  counts: { remove: number; move: number; add: number; result: number; unrestorable: number };
  remove: (ListedTrack & { positions: number[] })[];
  move: (ListedTrack & { from: number; to: number })[];
  add: (ListedTrack & { position: number })[];
  /** Songs of the snapshot with no URI of this provider (local files): they cannot be put back. */
  unrestorable: { title: string; artist: string }[];
  confirmation_required: boolean;
}

export interface RewindResult {
  rewind_id: string | null;
  status: 'unchanged' | 'completed';
  preview: RewindPreview;
  /** The automatic snapshot of the playlist as it was just before the rewind (null: nothing was written). */
  automatic_snapshot_id: string | null;
  writes: { calls: number; removed: number; moved: number; added: number; replaced: boolean };
  verified: boolean;
}

export interface PlaylistRewindDependencies {
  execute: SqlExecute;
  transaction: SqlTransaction;
  connections: Pick<ConnectionService, 'get' | 'call'>;
  playlists: Pick<PlaylistReadService, 'read'>;
  snapshots: {
    snapshot(ownerId: string, id: string): Promise<SnapshotView>;
    archive(ownerId: string, id: string): Promise<{ path: string }>;
    asOf(ownerId: string, accountId: string, playlistId: string, at: Date): Promise<SnapshotAsOf>;
    snapshotBeforeDestructive(ownerId: string, accountId: string, playlistIds: readonly string[], reason: 'restore'): Promise<SnapshotView>;
  };
  manifest: (ownerId: string, id: string) => Promise<SnapshotManifest | null>;
  limits: SnapshotLimits;
  logger: Logger;
}

interface RewindState {
  preview: RewindPreview;
  plan: MirrorPlan;
  live: Playlist;
  wanted: string[];
}

const label = (track: Track) => ({ title: track.title, artist: track.artist });

/** Entries of `from` that `to` does not keep, counted per song (multiset difference). */
function dropped(from: readonly string[], to: readonly string[]): number {
  const left = new Map<string, number>();
  for (const uri of to) left.set(uri, (left.get(uri) ?? 0) + 1);
  let count = 0;
  for (const uri of from) {
    const remaining = left.get(uri) ?? 0;
    if (remaining > 0) left.set(uri, remaining - 1);
    else count += 1;
  }
  return count;
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((uri, index) => uri === b[index]);

export class PlaylistRewinds {
  readonly #deps: PlaylistRewindDependencies;

  constructor(deps: PlaylistRewindDependencies) {
    this.#deps = deps;
  }

  /** What a rewind would do now: the live playlist read fresh against the snapshot's list (no writes). */
  async preview(ownerId: string, target: RewindTarget): Promise<RewindPreview> {
    return (await this.#state(ownerId, target)).preview;
  }

  /**
   * Rewinds the playlist. `confirmRemovals`: how many entries the caller agreed to drop (the
   * preview's `counts.remove`); a plan that drops more is refused (`confirmation_required`) and
   * writes nothing.
   */
  async rewind(ownerId: string, target: RewindTarget, confirmRemovals: number): Promise<RewindResult> {
    const first = await this.#state(ownerId, target);
    const snapshotId = first.preview.snapshot.id;
    if (first.preview.method === 'none') return { rewind_id: null, status: 'unchanged', preview: first.preview, automatic_snapshot_id: null, writes: { calls: 0, removed: 0, moved: 0, added: 0, replaced: false }, verified: true };
    if (first.preview.counts.remove > confirmRemovals) throw this.#unconfirmed(first.preview.counts.remove, confirmRemovals);
    const rewindId = await this.#claim(ownerId, snapshotId, target);
    const stats: Record<string, unknown> = { snapshot_id: snapshotId, restore_id: first.preview.restore_id, method: first.preview.method, counts: first.preview.counts };
    try {
      const automatic = await this.#deps.snapshots.snapshotBeforeDestructive(ownerId, target.accountId, [target.playlistId], 'restore');
      stats['automatic_snapshot_id'] = automatic.id;
      // The playlist read again after the automatic snapshot: what is written is planned from it.
      let state = await this.#state(ownerId, { ...target, snapshotId });
      if (state.preview.counts.remove > confirmRemovals) throw this.#unconfirmed(state.preview.counts.remove, confirmRemovals);
      const ledger = new StatementStepLedger(
        async (seq, kind, payload) => String((await this.#deps.execute(sql.insertRewindStep(ownerId, rewindId, seq, kind, payload)))[0]!['id']),
        async (stepId, status, error) => {
          await this.#deps.execute(sql.settleRewindStep(stepId, status, error));
        },
      );
      const writes = { calls: 0, removed: state.preview.counts.remove, moved: 0, added: state.preview.counts.add, replaced: false };
      // At most two passes: a provider that put the added songs at its end instead of their place gets one more pass of moves.
      for (let pass = 0; pass < 2 && state.preview.method !== 'none'; pass++) {
        const done = await this.#write(ownerId, target, state, ledger);
        writes.calls += done.calls;
        writes.replaced ||= done.replaced;
        writes.moved += done.replaced ? 0 : state.plan.moves.length;
        state = await this.#state(ownerId, { ...target, snapshotId });
      }
      const verified = state.preview.method === 'none';
      Object.assign(stats, { writes, verified });
      if (!verified) {
        const message = `After the rewind the playlist still differs from the snapshot (${state.preview.counts.remove} to remove, ${state.preview.counts.move} to move, ${state.preview.counts.add} to add); run the rewind again to continue from what the playlist holds now.`;
        await this.#deps.execute(sql.finishRewind(rewindId, 'failed', stats, message));
        throw new SnapshotError('rewind_unverified', message);
      }
      await this.#deps.execute(sql.finishRewind(rewindId, 'completed', stats, null));
      this.#deps.logger.info({ rewind_id: rewindId, snapshot_id: snapshotId, calls: writes.calls }, 'playlist rewound to a snapshot');
      return { rewind_id: rewindId, status: 'completed', preview: first.preview, automatic_snapshot_id: automatic.id, writes, verified };
    } catch (error) {
      if (!(error instanceof SnapshotError && error.code === 'rewind_unverified')) {
        await this.#deps.execute(sql.finishRewind(rewindId, 'failed', stats, error instanceof Error ? error.message.slice(0, 1_000) : 'failed'));
      }
      throw error;
    }
  }

  /** A rewind and its ledger, for its owner. */
  async read(ownerId: string, rewindId: string): Promise<Record<string, unknown>> {
    const [row] = await this.#deps.execute(sql.selectRewind(ownerId, rewindId));
    if (!row) throw new SnapshotError('not_found', `No rewind ${rewindId} exists for this owner.`);
    return row;
  }

  #unconfirmed(needed: number, confirmed: number): SnapshotError {
    return new SnapshotError('confirmation_required', `This rewind removes ${needed} entries of the live playlist; confirm them (confirm_removals: ${needed}) after looking at the preview. ${confirmed > 0 ? `${confirmed} were confirmed. ` : ''}Nothing was changed.`);
  }

  /** One running rewind per playlist: claimed under the playlist's advisory lock; a silent one (its process died) is ended first. */
  async #claim(ownerId: string, snapshotId: string, target: RewindTarget): Promise<string> {
    return this.#deps.transaction(async (execute) => {
      await execute(sql.lockRewindPlaylist(ownerId, target.accountId, target.playlistId));
      await execute(sql.failStaleRewinds(ownerId, target.accountId, target.playlistId));
      const [running] = await execute(sql.selectRunningRewind(ownerId, target.accountId, target.playlistId));
      if (running) throw new SnapshotError('busy', `A rewind of this playlist is running (${String(running['id'])}); wait for it to finish.`);
      const [row] = await execute(sql.insertRewind(ownerId, snapshotId, target.accountId, target.playlistId));
      return String(row!['id']);
    });
  }

  async #write(ownerId: string, target: RewindTarget, state: RewindState, ledger: MirrorStepLedger): Promise<{ calls: number; replaced: boolean }> {
    const call: TargetCall = (op, input) => this.#deps.connections.call(ownerId, target.accountId, op, input);
    if (state.preview.method === 'replace') {
      await ledger.call('replace', { count: state.wanted.length, reason: 'copies' }, () => call('replacePlaylistTracks', { playlist_id: target.playlistId, uris: state.wanted }));
      return { calls: 1, replaced: true };
    }
    const written = await applyMirrorPlan(state.plan, {
      playlistId: target.playlistId,
      snapshotId: state.live.snapshot_id,
      call,
      ledger,
      held: () => undefined,
      failure: (code, _retryable, message) => new SnapshotError('rewind_failed', `${message.replace(/the next pass reads the target again and continues\.$/, 'run the rewind again to continue.')} (${code})`),
    });
    return { calls: written.calls, replaced: written.replaced };
  }

  /** The snapshot's list and the live playlist (read fresh), and the plan from one to the other. */
  async #state(ownerId: string, target: RewindTarget): Promise<RewindState> {
    const account = await this.#deps.connections.get(ownerId, target.accountId).catch(() => null);
    if (!account) throw new SnapshotError('not_found', `No connected account ${target.accountId} exists for this owner.`);
    const { snapshot, restoreId, tracks } = await this.#snapshotTracks(ownerId, target, account.provider);
    const wanted: string[] = [];
    const unrestorable: Track[] = [];
    const titles = new Map<string, ListedTrack>();
    for (const track of tracks) {
      const uri = track.provider_uris[account.provider];
      if (!uri) {
        unrestorable.push(track);
        continue;
      }
      wanted.push(uri);
      if (!titles.has(uri)) titles.set(uri, { uri, ...label(track) });
    }
    const live = (await this.#deps.playlists.read(ownerId, target.accountId, target.playlistId, true)).playlist;
    const entries: TargetEntry[] = live.tracks.map((track, index) => ({ uri: track.provider_uris[account.provider] ?? `unaddressable:${index}`, itemId: track.source_item_id }));
    live.tracks.forEach((track, index) => {
      const uri = entries[index]!.uri;
      if (!titles.has(uri)) titles.set(uri, { uri, ...label(track) });
    });
    const liveUris = entries.map((entry) => entry.uri);
    const desired = [...new Set(wanted)];
    // Entries without a URI (local files) are never removed: nothing could put them back.
    const keep = new Set(liveUris.filter((uri) => uri.startsWith('unaddressable:')));
    const plan = planMirror({ target: entries, desired, owned: new Set(), protectedUris: keep, removesForeign: true });
    const exact = sameList(plan.finalUris, wanted);
    const method = sameList(liveUris, wanted) ? 'none' : exact ? 'edit' : 'replace';
    if (method === 'replace' && keep.size > 0) {
      throw new SnapshotError('not_restorable', 'The snapshot holds songs more than once, or the playlist holds extra copies, which only a replacement of the whole list can put back; but the playlist holds entries without a song URI (local files) that a replacement would lose. Nothing was changed.');
    }
    const named = (uri: string) => titles.get(uri) ?? { uri, title: uri, artist: '' };
    const preview: RewindPreview = {
      snapshot,
      restore_id: restoreId,
      account_id: target.accountId,
      playlist: { id: target.playlistId, name: live.name, item_count: live.tracks.length },
      method,
      counts: { remove: dropped(liveUris, wanted), move: method === 'edit' ? plan.moves.length : 0, add: dropped(wanted, liveUris), result: wanted.length, unrestorable: unrestorable.length },
      remove: plan.removals.slice(0, LISTED).map((removal) => ({ ...named(removal.uri), positions: removal.positions })),
      move: plan.moves.slice(0, LISTED).map((move) => ({ ...named(move.uri), from: move.from, to: move.insertBefore > move.from ? move.insertBefore - 1 : move.insertBefore })),
      add: plan.adds.slice(0, LISTED).map((add) => ({ ...named(add.uri), position: add.position })),
      unrestorable: unrestorable.slice(0, LISTED).map(label),
      confirmation_required: false,
    };
    preview.confirmation_required = preview.counts.remove > 0;
    return { preview, plan, live, wanted };
  }

  /** The snapshot (the one named, else the newest at or before `at`) and its collection of this playlist, read and checked as it streams. */
  async #snapshotTracks(ownerId: string, target: RewindTarget, provider: string): Promise<{ snapshot: SnapshotView; restoreId: string; tracks: Track[] }> {
    let snapshotId = target.snapshotId;
    if (!snapshotId) {
      if (!target.at) throw new SnapshotError('invalid_selection', 'Name the time (`at`) or the snapshot (`snapshot_id`) to rewind the playlist to.');
      snapshotId = (await this.#deps.snapshots.asOf(ownerId, target.accountId, target.playlistId, target.at)).snapshot.id;
    }
    const snapshot = await this.#deps.snapshots.snapshot(ownerId, snapshotId);
    const manifest = await this.#deps.manifest(ownerId, snapshotId);
    if (!manifest) throw new SnapshotError('not_ready', `Snapshot ${snapshotId} has no archive (${snapshot.status}).`);
    const sources = new Set(manifest.sources.filter((source) => source.provider === provider).map((source) => source.source_id));
    const collection = manifest.collections.find((entry) => entry.entity_type === 'track' && entry.kind !== 'liked_tracks' && sources.has(entry.source_id) && entry.source_collection_id === target.playlistId);
    if (!collection) throw new SnapshotError('not_found', `Snapshot ${snapshotId} holds no ${provider} playlist ${target.playlistId}.`);
    if (collection.status !== 'complete') throw new SnapshotError('not_restorable', `Snapshot ${snapshotId} holds “${collection.name}” only ${collection.status === 'partial' ? 'in part' : 'as a failure'} (${collection.failure?.code ?? collection.status}); a rewind to it would drop songs it could not read. Choose another snapshot.`);
    const { path } = await this.#deps.snapshots.archive(ownerId, snapshotId);
    const tracks: Track[] = [];
    try {
      await readSnapshotCollections(path, [collection.member], (_collection, record) => {
        tracks.push(record as Track);
      }, this.#deps.limits);
    } catch (error) {
      if (error instanceof SnapshotVerificationError) throw new SnapshotError('verification_failed', `The archive of snapshot ${snapshotId} failed verification (${error.reason}): ${error.message}`, error.reason);
      throw error;
    }
    return { snapshot, restoreId: `${collection.source_id}:${target.playlistId}`, tracks };
  }
}
