import { PluginError, type Playlist } from '@opl/plugin-sdk';
import type { SnapshotManifest } from '@opl/plugin-sdk/schemas';
import type { Logger } from '../../logging/logger.ts';
import type { SqlExecute } from '../../storage/sql/executors.ts';
import { ConnectionError, type ConnectionService } from '../connections/connection.service.ts';
import { SnapshotError } from './snapshot-error.ts';
import type { ProfileSelection } from './snapshot-profile.ts';
import type { RetentionPolicy } from './snapshot-schedule.ts';
import type { SnapshotScheduler } from './snapshot-scheduler.ts';
import { snapshotView, type SnapshotView } from './snapshot-views.ts';
import * as sql from './snapshots.sql.ts';

/** An expired or revoked connection, from the engine's connection layer or the plugin. */
const needsReconnect = (error: unknown): boolean => (error instanceof ConnectionError && error.code === 'auth_expired') || (error instanceof PluginError && error.type === 'AuthExpired');

/** What an automatic snapshot is taken before: a destructive organizer job, a mirror sync run, or a rewind of a playlist to a snapshot. */
export type AutomaticOrigin = 'organizer' | 'sync' | 'restore';

/**
 * The retention an automatic profile starts with: the newest 20 and everything of the last 30
 * days beyond them are let go (the newest good snapshot always stays). The owner may change it
 * like any profile's.
 */
export const AUTOMATIC_RETENTION: RetentionPolicy = { keep_last: 20, keep_days: 30 };

const describe = (reason: AutomaticOrigin) => ({ organizer: 'organizer job', sync: 'sync run', restore: 'rewind to a snapshot' })[reason];

const NAMES: Record<AutomaticOrigin, string> = { organizer: 'Before organizer changes', sync: 'Before mirror sync runs', restore: 'Before playlist rewinds' };

export interface AutomaticSnapshotOptions {
  /** Stops the snapshot (the caller's job is stopping). */
  signal?: AbortSignal;
  /**
   * Playlists the job only unfollows: when the provider refuses the account their items
   * (`access_denied`: another user's playlist), they stay with their owner, so the snapshot goes
   * ahead without them (its manifest records why). Any other failure still refuses.
   */
  unreadableAllowed?: readonly string[];
  /**
   * Playlists the caller has just read in full, as they are right before its first destructive
   * call (a mirror run's plan reads its target): the snapshot keeps exactly these instead of
   * reading them a second time. The caller vouches that nothing was written since that read.
   */
  readPlaylists?: readonly Playlist[];
}

export interface AutomaticSnapshotDependencies {
  execute: SqlExecute;
  connections: Pick<ConnectionService, 'get'>;
  /** Takes a snapshot row's archive now, in this process, of exactly `selection`. */
  run: (snapshotId: string, signal: AbortSignal, selection: ProfileSelection, readPlaylists?: readonly Playlist[]) => Promise<{ failure: unknown } | null>;
  scheduler: Pick<SnapshotScheduler, 'applyRetention'>;
  clock: () => Date;
  logger: Logger;
}

/**
 * Automatic snapshots (issue 30 item 7): before an engine job changes or deletes playlists, the
 * playlists it is about to touch are snapshotted, as they are on the provider right now. Each
 * owner's account has one automatic profile per origin; its snapshots are listed, verified,
 * diffed and restored like any other and kept under the profile's retention.
 */
export class AutomaticSnapshots {
  readonly #deps: AutomaticSnapshotDependencies;

  constructor(deps: AutomaticSnapshotDependencies) {
    this.#deps = deps;
  }

  /**
   * Snapshots `playlistIds` of the account before a destructive job, and answers the snapshot
   * once every one of them is in it whole. Anything less — the snapshot failed, or one of the
   * playlists could not be read completely — is a `SnapshotError` (`auto_snapshot_failed`) whose
   * message says why: the caller must then not start its destructive work.
   */
  async snapshotBeforeDestructive(ownerId: string, accountId: string, playlistIds: readonly string[], reason: AutomaticOrigin, options: AutomaticSnapshotOptions = {}): Promise<SnapshotView> {
    const signal = options.signal ?? new AbortController().signal;
    const wanted = [...new Set(playlistIds)];
    if (wanted.length === 0) throw new SnapshotError('invalid_selection', 'An automatic snapshot needs at least one playlist.');
    const account = await this.#deps.connections.get(ownerId, accountId);
    const selection: ProfileSelection = { accounts: [{ account_id: accountId, collections: wanted }] };
    const name = `${NAMES[reason]} (${`${account.provider_display_name} ${account.display_name ?? ''}`.trim()})`.slice(0, 200);
    const [profile] = await this.#deps.execute(sql.upsertAutomaticProfile(ownerId, accountId, reason, name, selection, AUTOMATIC_RETENTION));
    const [queued] = await this.#deps.execute(sql.insertQueuedSnapshot(ownerId, String(profile!['id']), String(profile!['library_id']), wanted.length));
    const snapshotId = String(queued!['id']);
    let outcome: { failure: unknown } | null;
    try {
      outcome = await this.#deps.run(snapshotId, signal, selection, options.readPlaylists);
    } catch (error) {
      // The job's own bookkeeping failed (the snapshot directory unusable): the row says failed or
      // still running; either way nothing is kept, and the caller hears why.
      this.#deps.logger.warn({ snapshot_id: snapshotId, err: error instanceof Error ? error.name : 'error' }, 'automatic snapshot failed');
      throw new SnapshotError('auto_snapshot_failed', `The automatic snapshot ${snapshotId} taken before this ${describe(reason)} could not be written to the snapshot directory (OPL_SNAPSHOT_DIR). Nothing was changed.`);
    }
    // A connection that needs renewing is the account's problem, not the snapshot's: the caller
    // asks for a reconnect (and its retry then takes the snapshot) as for any other call.
    if (needsReconnect(outcome?.failure)) throw new ConnectionError('auth_expired', `The automatic snapshot taken before this ${describe(reason)} could not read the account: ${account.provider_display_name} needs the connection renewed. Nothing was changed.`);
    const [row] = await this.#deps.execute(sql.selectSnapshot(ownerId, snapshotId));
    const snapshot = snapshotView(row!);
    const problem = this.#problem(snapshot, row!['manifest'] as SnapshotManifest | null, wanted, new Set(options.unreadableAllowed ?? []));
    await this.#deps.scheduler.applyRetention(this.#deps.clock(), snapshot.profile_id).catch((error: unknown) => {
      // Retention tries again at the next evaluation; the snapshot just taken is what matters here.
      this.#deps.logger.warn({ err: error instanceof Error ? error.name : 'error' }, 'automatic snapshot retention failed');
    });
    // The same when it was one playlist's read that found the connection expired.
    const unauthorised = problem ? (row!['manifest'] as SnapshotManifest | null)?.collections.find((entry) => entry.source_collection_id !== null && wanted.includes(entry.source_collection_id) && entry.failure?.code === 'auth_expired') : undefined;
    if (unauthorised) throw new ConnectionError('auth_expired', `The automatic snapshot taken before this ${describe(reason)} could not read “${unauthorised.name}”: ${account.provider_display_name} needs the connection renewed. Nothing was changed.`);
    if (problem) throw new SnapshotError('auto_snapshot_failed', `The automatic snapshot ${snapshotId} taken before this ${describe(reason)} is incomplete: ${problem} Nothing was changed.`);
    this.#deps.logger.info({ snapshot_id: snapshotId, origin: reason, playlists: wanted.length }, 'automatic snapshot taken');
    return snapshot;
  }

  #problem(snapshot: SnapshotView, manifest: SnapshotManifest | null, wanted: readonly string[], unreadableAllowed: ReadonlySet<string>): string | null {
    if (snapshot.status === 'failed' || !manifest) return snapshot.error ?? 'the snapshot could not be taken.';
    for (const id of wanted) {
      const collection = manifest.collections.find((entry) => entry.source_collection_id === id);
      if (!collection) return `the playlist ${id} is not in it.`;
      // The provider refuses to show this playlist's items to the account (another user's
      // playlist it only follows): nothing can keep it, and an unfollow does not lose it.
      if (collection.status !== 'complete' && unreadableAllowed.has(id) && collection.failure?.code === 'access_denied') continue;
      // Gone from the provider already (deleted meanwhile): nothing is left to lose, and the job counts it done.
      if (collection.status === 'failed' && collection.failure?.code === 'not_found') continue;
      if (collection.status !== 'complete') return `“${collection.name}” could not be read completely (${collection.failure?.code ?? collection.status}: ${collection.failure?.message ?? 'reading stopped'}).`;
    }
    return null;
  }
}
