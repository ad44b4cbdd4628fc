import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { Playlist, Track } from '@opl/plugin-sdk';
import type { SnapshotManifest, SnapshotPlaylist } from '@opl/plugin-sdk/schemas';
import type { Logger } from '../../logging/logger.ts';
import type { SqlExecute, SqlTransaction } from '../../storage/sql/executors.ts';
import { ConnectionError, type ConnectionService } from '../connections/connection.service.ts';
import type { LibraryReadService } from '../library/library-read.service.ts';
import type { PlaylistReadService } from '../playlists/playlist-read.service.ts';
import { SelectionError, type SnapshotCollectionSource } from '../migrations/migration-source.ts';
import type { ProgressChannel } from '../migrations/migration-events.ts';
import { readSnapshotCollections, SnapshotArchiveWriter, SnapshotVerificationError, verifySnapshotArchive, type SnapshotItem, type SnapshotLimits, type SnapshotSigningKey } from './archive/index.ts';
import { AutomaticSnapshots, type AutomaticOrigin, type AutomaticSnapshotOptions } from './automatic-snapshots.ts';
import { isLibraryCollection, LIBRARY_COLLECTIONS, libraryCollectionItems } from './library-collections.ts';
import { PlaylistRewinds } from './playlist-rewind.ts';
import { newestHolding, type SnapshotAsOf } from './snapshot-as-of.ts';
import { SnapshotDiffs } from './snapshot-diff.ts';
import { playlistDetails, readFailure } from './snapshot-collection-read.ts';
import { SnapshotError } from './snapshot-error.ts';
import { archiveName, DELETING_SUFFIX, ensureRoot, insideRoot, reconcileFiles, type ReconciledFiles } from './snapshot-files.ts';
import { profileSelectionSchema, type ProfileBody, type ProfileSelection } from './snapshot-profile.ts';
import { nextSnapshotSlot } from './snapshot-schedule.ts';
import { SnapshotScheduler } from './snapshot-scheduler.ts';
import { loadSigningKey, signingKeyView, type SigningKeyView } from './snapshot-signing-key.ts';
import { ARCHIVE_MISSING, profileView, snapshotView, type ProfileView, type SnapshotEvent, type SnapshotView } from './snapshot-views.ts';
import * as sql from './snapshots.sql.ts';

export interface SnapshotServiceDependencies {
  execute: SqlExecute;
  transaction: SqlTransaction;
  connections: Pick<ConnectionService, 'get' | 'list' | 'call'>;
  playlists: Pick<PlaylistReadService, 'list' | 'read'>;
  /** Queues the creation job of a snapshot row. */
  enqueue: (snapshotId: string) => Promise<void>;
  root: string;
  limits: SnapshotLimits;
  schemaBaseUrl: string;
  logger: Logger;
  /** How often a running job says it is alive; reconciliation fails a job silent for 6 times as long. */
  heartbeatSeconds?: number;
  /** Wakes the progress streams of a snapshot when its row changes (any process); none: streams send what is there. */
  progress?: Pick<ProgressChannel, 'subscribe'>;
  /** "Now" of scheduling decisions (the first slot of a new schedule); tests pass the clock they move. */
  clock?: () => Date;
  /** The instance's signing key file (made on first use); null or absent: snapshots are not signed. */
  signingKeyFile?: string | null;
  /** Reads `saved_albums` and `followed_artists` of a selection; absent: those collections fail. */
  library?: Pick<LibraryReadService, 'albums' | 'artists'>;
}


/**
 * Library snapshots (SPEC "Snapshots"): profiles of accounts and collections, snapshot archives
 * taken by a job one collection at a time, verified before they are listed, downloaded, uploaded
 * from elsewhere and deleted. Archives live in `OPL_SNAPSHOT_DIR` under generated names only.
 */
export class SnapshotService {
  readonly #deps: SnapshotServiceDependencies;
  /** Schedules and retention, evaluated by the `snapshots.evaluate` job. */
  readonly scheduler: SnapshotScheduler;
  /** Track-level diffs between snapshots, and against the live playlist. */
  readonly diffs: SnapshotDiffs;
  /** A playlist put back exactly as a snapshot holds it ("as it was at time T"), in the same provider playlist. */
  readonly rewinds: PlaylistRewinds;
  readonly #automatic: AutomaticSnapshots;
  #signingKey: Promise<SnapshotSigningKey> | null = null;

  constructor(deps: SnapshotServiceDependencies) {
    this.#deps = deps;
    const clock = deps.clock ?? (() => new Date());
    this.scheduler = new SnapshotScheduler({ execute: deps.execute, transaction: deps.transaction, snapshots: this, enqueue: deps.enqueue, clock, logger: deps.logger });
    const manifest = async (ownerId: string, id: string) => ((await deps.execute(sql.selectSnapshot(ownerId, id)))[0]?.['manifest'] as SnapshotManifest | null | undefined) ?? null;
    this.diffs = new SnapshotDiffs({
      snapshot: (ownerId, id) => this.snapshot(ownerId, id),
      archive: (ownerId, id) => this.archive(ownerId, id),
      manifest,
      profile: (ownerId, id) => this.profile(ownerId, id),
      connections: deps.connections,
      playlists: deps.playlists,
      limits: deps.limits,
      clock,
    });
    this.#automatic = new AutomaticSnapshots({ execute: deps.execute, connections: deps.connections, run: (id, signal, selection, readPlaylists) => this.run(id, signal, selection, readPlaylists), scheduler: this.scheduler, clock, logger: deps.logger });
    this.rewinds = new PlaylistRewinds({ ...deps, snapshots: this, manifest });
  }

  /**
   * Snapshots the playlists a destructive job (an organizer removal or deletion, a mirror sync run)
   * is about to change, before its first destructive call. Throws a `SnapshotError`
   * (`auto_snapshot_failed`, saying why) unless every playlist is in it whole: the job must then not start.
   */
  async snapshotBeforeDestructive(ownerId: string, accountId: string, playlistIds: readonly string[], reason: AutomaticOrigin, options?: AutomaticSnapshotOptions): Promise<SnapshotView> {
    return this.#automatic.snapshotBeforeDestructive(ownerId, accountId, playlistIds, reason, options);
  }

  get limits(): SnapshotLimits {
    return this.#deps.limits;
  }

  /** The instance's signing key, loaded (or made) once; null when snapshots are not signed. */
  async #key(): Promise<SnapshotSigningKey | null> {
    const file = this.#deps.signingKeyFile;
    if (!file) return null;
    this.#signingKey ??= loadSigningKey(file).catch((error: unknown) => {
      this.#signingKey = null;
      throw error;
    });
    return this.#signingKey;
  }

  /** The public half of the instance's key, which another instance or `opl snapshot verify --public-key` trusts. */
  async signingKey(): Promise<SigningKeyView | null> {
    const key = await this.#key();
    return key ? signingKeyView(key) : null;
  }

  async #checkAccounts(ownerId: string, selection: ProfileSelection): Promise<void> {
    for (const account of selection.accounts) {
      try {
        await this.#deps.connections.get(ownerId, account.account_id);
      } catch {
        throw new SnapshotError('invalid_selection', `No connected account ${account.account_id} exists for this owner; connect it first or leave it out.`);
      }
    }
  }

  #fields(body: ProfileBody): sql.ProfileFields {
    const now = (this.#deps.clock ?? (() => new Date()))();
    return { name: body.name, selection: body.selection, schedule: body.schedule, nextRunAt: body.schedule ? nextSnapshotSlot(body.schedule, now) : null, retention: body.retention };
  }

  async createProfile(ownerId: string, body: ProfileBody): Promise<ProfileView> {
    await this.#checkAccounts(ownerId, body.selection);
    const [row] = await this.#deps.execute(sql.insertProfile(ownerId, this.#fields(body)));
    return profileView(row!);
  }

  async updateProfile(ownerId: string, id: string, body: ProfileBody): Promise<ProfileView> {
    await this.#checkAccounts(ownerId, body.selection);
    const [row] = await this.#deps.execute(sql.updateProfile(ownerId, id, this.#fields(body)));
    if (!row) throw new SnapshotError('not_found', `No snapshot profile ${id} exists for this owner.`);
    return profileView(row);
  }

  async profiles(ownerId: string): Promise<ProfileView[]> {
    return (await this.#deps.execute(sql.selectProfiles(ownerId))).map(profileView);
  }

  async profile(ownerId: string, id: string): Promise<ProfileView> {
    const [row] = await this.#deps.execute(sql.selectProfile(ownerId, id));
    if (!row) throw new SnapshotError('not_found', `No snapshot profile ${id} exists for this owner.`);
    return profileView(row);
  }

  /** Deletes a profile; its snapshots stay (they keep their library lineage). */
  async deleteProfile(ownerId: string, id: string): Promise<void> {
    const rows = await this.#deps.execute(sql.deleteProfile(ownerId, id));
    if (rows.length === 0) throw new SnapshotError('not_found', `No snapshot profile ${id} exists for this owner.`);
  }

  /** Queues a snapshot of a profile now. */
  async createSnapshot(ownerId: string, profileId: string): Promise<SnapshotView> {
    const profile = await this.profile(ownerId, profileId);
    const total = profile.selection.accounts.reduce((sum, account) => sum + (account.collections === 'all' ? 0 : account.collections.length), 0);
    const [row] = await this.#deps.execute(sql.insertQueuedSnapshot(ownerId, profile.id, profile.library_id, total));
    await this.#deps.enqueue(row!['id'] as string);
    return snapshotView(row!);
  }

  /** The progress events of a snapshot after event id `after`: one `snapshot` event, the row as it is now, when it changed since. */
  async eventsAfter(ownerId: string, id: string, after: number): Promise<SnapshotEvent[]> {
    const rows = await this.#deps.execute(sql.selectSnapshotEvent(ownerId, id, after));
    return rows.map((row) => ({ id: Number(row['progress_seq']), type: 'snapshot' as const, data: snapshotView(row) }));
  }

  /** Calls `wake` whenever the snapshot changes, in any engine process. */
  async follow(id: string, wake: () => void): Promise<() => void> {
    if (!this.#deps.progress) return () => undefined;
    return this.#deps.progress.subscribe(id, wake);
  }

  async snapshots(ownerId: string): Promise<SnapshotView[]> {
    return (await this.#deps.execute(sql.selectSnapshots(ownerId))).map(snapshotView);
  }

  async snapshot(ownerId: string, id: string): Promise<SnapshotView> {
    const [row] = await this.#deps.execute(sql.selectSnapshot(ownerId, id));
    if (!row) throw new SnapshotError('not_found', `No snapshot ${id} exists for this owner.`);
    return snapshotView(row);
  }

  /**
   * The archive file of a finished snapshot, for a download. A file gone from the disk (removed by
   * hand, a restore of the directory from an older backup) is a clear refusal, and the row says so.
   */
  async archive(ownerId: string, id: string): Promise<{ path: string; bytes: number; fileName: string }> {
    const [row] = await this.#deps.execute(sql.selectSnapshot(ownerId, id));
    if (!row) throw new SnapshotError('not_found', `No snapshot ${id} exists for this owner.`);
    const name = row['archive_path'] as string | null;
    if (!name) throw new SnapshotError('not_ready', `Snapshot ${id} has no archive (${String(row['status'])}).`);
    const path = insideRoot(this.#deps.root, name);
    const stats = await stat(path).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    });
    if (!stats?.isFile()) {
      await this.#deps.execute(sql.recordVerification(ownerId, id, ARCHIVE_MISSING));
      throw new SnapshotError('archive_missing', `The archive file of snapshot ${id} is missing from the snapshot directory (OPL_SNAPSHOT_DIR); it cannot be downloaded, verified or restored. Delete the snapshot, or put the file back and verify it again.`);
    }
    return { path, bytes: stats.size, fileName: `opl-snapshot-${id}.zip` };
  }

  /** Verifies a stored archive again (the file may have changed on disk, or gone, since it was taken). */
  async verify(ownerId: string, id: string): Promise<SnapshotView> {
    let reason: string | null = null;
    try {
      const { path } = await this.archive(ownerId, id);
      await verifySnapshotArchive(path, this.#deps.limits);
    } catch (error) {
      if (error instanceof SnapshotError && error.code === 'archive_missing') reason = ARCHIVE_MISSING;
      else if (error instanceof SnapshotVerificationError) reason = error.reason;
      else throw error;
    }
    const [row] = await this.#deps.execute(sql.recordVerification(ownerId, id, reason));
    return snapshotView(row!);
  }

  /** Deletes a snapshot and its archive: the file is staged aside first, so a crash can restore or finish it. */
  async deleteSnapshot(ownerId: string, id: string): Promise<void> {
    const [existing] = await this.#deps.execute(sql.selectSnapshot(ownerId, id));
    if (!existing) throw new SnapshotError('not_found', `No snapshot ${id} exists for this owner.`);
    const name = existing['archive_path'] as string | null;
    const path = name ? insideRoot(this.#deps.root, name) : null;
    if (path) await rename(path, `${path}${DELETING_SUFFIX}`).catch(() => undefined);
    const rows = await this.#deps.execute(sql.deleteSnapshot(ownerId, id));
    if (rows.length === 0) {
      if (path) await rename(`${path}${DELETING_SUFFIX}`, path).catch(() => undefined);
      const [restore] = await this.#deps.execute(sql.selectUnfinishedRestore(id));
      if (restore) throw new SnapshotError('busy', `Snapshot ${id} is being restored (migration ${String(restore['id'])}); delete it once that migration has finished or been cancelled.`);
      throw new SnapshotError('busy', `Snapshot ${id} is still being taken; wait for it to finish.`);
    }
    if (path) await rm(`${path}${DELETING_SUFFIX}`, { force: true });
  }

  /**
   * An archive made elsewhere: streamed into a temporary file under the byte cap, verified, and
   * only then given its place and its row (its own snapshot id and library lineage).
   */
  async upload(ownerId: string, body: Readable): Promise<SnapshotView> {
    await ensureRoot(this.#deps.root);
    const temporary = insideRoot(this.#deps.root, `upload-${randomUUID()}.zip.partial`);
    const handle = await open(temporary, 'wx', 0o600);
    const hash = createHash('sha256');
    let bytes = 0;
    try {
      try {
        for await (const chunk of body as AsyncIterable<Buffer>) {
          bytes += chunk.length;
          if (bytes > this.#deps.limits.archiveBytes) {
            body.destroy();
            throw new SnapshotError('too_large', `The archive is larger than the ${this.#deps.limits.archiveBytes} bytes this engine accepts (OPL_SNAPSHOT_MAX_ARCHIVE_BYTES); nothing was kept.`);
          }
          hash.update(chunk);
          await handle.write(chunk);
        }
      } finally {
        await handle.close();
      }
      let manifest: SnapshotManifest;
      try {
        manifest = (await verifySnapshotArchive(temporary, this.#deps.limits)).manifest;
      } catch (error) {
        if (error instanceof SnapshotVerificationError) throw new SnapshotError('verification_failed', `The archive failed verification (${error.reason}): ${error.message} Nothing was kept.`, error.reason);
        throw error;
      }
      // The row gets an id of its own: keeping the archive's would let an upload probe whether
      // another owner holds that snapshot. The owner's own copy is still recognised (409).
      const id = randomUUID();
      const name = archiveName(id);
      // Under the owner's upload lock (read committed: the check sees an upload that committed while this one waited).
      const [row] = await this.#deps.transaction(async (execute) => {
        await execute(sql.lockOwnerUploads(ownerId));
        return execute(
          sql.insertUploadedSnapshot({
            id,
            archiveSnapshotId: manifest.snapshot_id,
            ownerId,
            libraryId: manifest.library_id,
            status: manifest.counts.partial_collections + manifest.counts.failed_collections > 0 ? 'partial' : 'completed',
            archivePath: name,
            sha256: hash.digest('hex'),
            bytes,
            manifest,
            counts: manifest.counts,
          }),
        );
      });
      if (!row) throw new SnapshotError('already_exists', `Snapshot ${manifest.snapshot_id} is already stored here; nothing was changed.`);
      await rename(temporary, insideRoot(this.#deps.root, name));
      return snapshotView(row);
    } finally {
      await rm(temporary, { force: true });
    }
  }

  /**
   * The creation job's work: every selected collection, one at a time, into a verified archive.
   * `selection`: what to take instead of the profile's (an automatic snapshot's own playlists).
   * `readPlaylists`: playlists of the selection the caller read just now (an automatic snapshot's),
   * kept as they are instead of being read again. Answers the error that failed it (recorded on the
   * row too), or null.
   */
  async run(snapshotId: string, signal: AbortSignal, selection?: ProfileSelection, readPlaylists: readonly Playlist[] = []): Promise<{ failure: unknown } | null> {
    const [claimed] = await this.#deps.execute(sql.claimSnapshot(snapshotId));
    if (!claimed) return null; // already run, failed by reconciliation, or deleted
    const ownerId = claimed['owner_id'] as string;
    const heartbeatMs = (this.#deps.heartbeatSeconds ?? 10) * 1000;
    const progress = { collections_done: 0, collections_total: 0, items: 0, current: null as string | null };
    const beat = setInterval(() => void this.#deps.execute(sql.recordProgress(snapshotId, progress)).catch(() => undefined), heartbeatMs);
    let writer: SnapshotArchiveWriter | null = null;
    try {
      const [profileRow] = await this.#deps.execute(sql.selectProfile(ownerId, claimed['profile_id'] as string));
      if (!profileRow) throw new SnapshotError('not_found', 'The snapshot profile was deleted before the snapshot could be taken.');
      const chosen = selection ?? profileSelectionSchema.parse(profileRow['selection']);
      const alreadyRead = new Map(readPlaylists.map((playlist) => [playlist.id, playlist]));
      await ensureRoot(this.#deps.root);
      const sources = [];
      const plans: { sourceId: string; accountId: string; ids: { id: string; name: string }[] }[] = [];
      for (const [index, account] of chosen.accounts.entries()) {
        const view = await this.#deps.connections.get(ownerId, account.account_id);
        const sourceId = `s${index + 1}`;
        sources.push({ source_id: sourceId, provider: view.provider, label: `${view.provider_display_name} ${view.display_name ?? ''}`.trim().slice(0, 200) });
        // The listing only names the playlists: not needed when the caller read every one of them.
        const collections = account.collections;
        const allRead = collections !== 'all' && collections.every((id) => alreadyRead.has(id));
        const listed = allRead ? [] : (await this.#deps.playlists.list(ownerId, account.account_id, true)).playlists;
        const ids =
          collections === 'all'
            ? listed.flatMap((playlist) => (playlist.id === null ? [] : [{ id: playlist.id, name: playlist.name }]))
            : collections.map((id) => ({ id, name: isLibraryCollection(id) ? LIBRARY_COLLECTIONS[id].name : (alreadyRead.get(id)?.name ?? listed.find((playlist) => playlist.id === id)?.name ?? id) }));
        plans.push({ sourceId, accountId: account.account_id, ids });
      }
      progress.collections_total = plans.reduce((sum, plan) => sum + plan.ids.length, 0);
      await this.#deps.execute(sql.recordProgress(snapshotId, progress));
      const name = archiveName(snapshotId);
      const signingKey = await this.#key();
      writer = await SnapshotArchiveWriter.start({
        path: insideRoot(this.#deps.root, name),
        snapshotId,
        libraryId: claimed['library_id'] as string,
        schemaBaseUrl: this.#deps.schemaBaseUrl,
        startedAt: new Date(claimed['started_at'] as string),
        sources,
        signal,
        recordBytes: this.#deps.limits.recordBytes,
        ...(signingKey ? { signingKey } : {}),
      });
      for (const plan of plans) {
        for (const wanted of plan.ids) {
          progress.current = wanted.name.slice(0, 200);
          let details: SnapshotPlaylist | null = null;
          const playlists = this.#deps.playlists;
          // One playlist at a time (SPEC Limits rule 1): read, written, let go.
          const items = async function* (): AsyncGenerator<SnapshotItem> {
            const playlist = alreadyRead.get(wanted.id) ?? (await playlists.read(ownerId, plan.accountId, wanted.id, true)).playlist;
            details = playlistDetails(playlist);
            for (const track of playlist.tracks) yield track;
          };
          const entry = await writer.addCollection({
            sourceId: plan.sourceId,
            kind: wanted.id === 'liked' ? 'liked_tracks' : isLibraryCollection(wanted.id) ? wanted.id : 'playlist',
            sourceCollectionId: wanted.id,
            name: wanted.name,
            get playlist() {
              return details;
            },
            items: isLibraryCollection(wanted.id) ? libraryCollectionItems(this.#deps.library, wanted.id, ownerId, plan.accountId) : items(),
            describeFailure: readFailure,
          });
          progress.collections_done += 1;
          progress.items += entry.item_count;
          await this.#deps.execute(sql.recordProgress(snapshotId, progress));
        }
      }
      progress.current = null;
      const written = await writer.finish(new Date());
      writer = null;
      // What was written is read back as any archive is before it is listed.
      const verified = await verifySnapshotArchive(written.path, this.#deps.limits);
      const { counts } = verified.manifest;
      await this.#deps.execute(
        sql.completeSnapshot(snapshotId, {
          status: counts.partial_collections + counts.failed_collections > 0 ? 'partial' : 'completed',
          archivePath: name,
          sha256: written.archiveSha256,
          bytes: written.archiveBytes,
          manifest: verified.manifest,
          counts,
          progress,
        }),
      );
    } catch (error) {
      await writer?.abort();
      const reason = error instanceof SnapshotVerificationError ? error.reason : null;
      // Engine errors carry messages meant for the user (a connection to renew); others stay generic.
      const message = error instanceof SnapshotError || error instanceof SnapshotVerificationError || error instanceof ConnectionError ? error.message : signal.aborted ? 'The snapshot was stopped.' : 'The snapshot could not be taken.';
      this.#deps.logger.warn({ snapshot_id: snapshotId, err: error instanceof Error ? error.name : 'error' }, 'snapshot failed');
      await this.#deps.execute(sql.failSnapshot(snapshotId, message, reason));
      await rm(insideRoot(this.#deps.root, archiveName(snapshotId)), { force: true });
      return { failure: error };
    } finally {
      clearInterval(beat);
    }
    return null;
  }

  /** Startup reconciliation (SPEC Snapshots rule 9): stale jobs failed, then the files put right. */
  async reconcile(): Promise<{ failed: string[]; files: ReconciledFiles }> {
    const stale = (this.#deps.heartbeatSeconds ?? 10) * 6;
    const failed = (await this.#deps.execute(sql.failStaleSnapshots(stale))).map((row) => row['id'] as string);
    const rows = (await this.#deps.execute(sql.selectArchiveFacts())) as { id: string; status: string; archive_path: string | null }[];
    const files = await reconcileFiles(this.#deps.root, rows);
    if (files.missing.length > 0) await this.#deps.execute(sql.markArchivesMissing(files.missing));
    if (failed.length > 0 || files.removed.length > 0 || files.restored.length > 0 || files.missing.length > 0) {
      this.#deps.logger.info({ failed: failed.length, removed: files.removed.length, restored: files.restored.length, missing: files.missing.length }, 'snapshots reconciled');
    }
    return { failed, files };
  }

  /**
   * A snapshot as a migration source (a restore): the archive is verified again, then only the
   * wanted collections are read from it, each by its restore id `<source id>:<collection id>`.
   */
  async collections(ownerId: string, snapshotId: string, ids: readonly string[]): Promise<{ libraryId: string; collections: SnapshotCollectionSource[]; available: string[] } | null> {
    const [row] = await this.#deps.execute(sql.selectSnapshot(ownerId, snapshotId));
    if (!row?.['archive_path']) return null;
    let path: string;
    let manifest: SnapshotManifest;
    try {
      path = (await this.archive(ownerId, snapshotId)).path;
      manifest = (await verifySnapshotArchive(path, this.#deps.limits)).manifest;
    } catch (error) {
      // A restore of a file that is gone or changed is refused with the reason, never a 500.
      if (error instanceof SnapshotError) throw new SelectionError('selection_not_found', error.message);
      if (!(error instanceof SnapshotVerificationError)) throw error;
      await this.#deps.execute(sql.recordVerification(ownerId, snapshotId, error.reason));
      throw new SelectionError('selection_not_found', `The archive of snapshot ${snapshotId} failed verification (${error.reason}): ${error.message} It cannot be restored.`);
    }
    const restoreId = (collection: SnapshotManifest['collections'][number]) => `${collection.source_id}:${collection.source_collection_id ?? collection.member}`;
    const wanted = manifest.collections.filter((collection) => collection.entity_type === 'track' && ids.includes(restoreId(collection)));
    const tracks = new Map<string, Track[]>(wanted.filter((collection) => collection.status !== 'failed').map((collection) => [collection.member, []]));
    await readSnapshotCollections(
      path,
      [...tracks.keys()],
      (collection, record) => {
        tracks.get(collection.member)!.push(record as Track);
      },
      this.#deps.limits,
    );
    return {
      libraryId: manifest.library_id,
      available: manifest.collections.filter((collection) => collection.entity_type === 'track').map(restoreId),
      collections: wanted.map((collection) => ({
        id: restoreId(collection),
        kind: collection.kind === 'liked_tracks' ? 'LIKED_TRACKS' : 'PLAYLIST',
        name: collection.name,
        description: collection.playlist?.description ?? null,
        tracks: tracks.get(collection.member) ?? null,
      })),
    };
  }

  /**
   * "This playlist as it was at time T" (issue 30 item 7): the newest verified snapshot that
   * finished at or before `at` and holds the account's playlist, and its restore id. A restore of
   * that collection to the same account (an ordinary migration) writes back what is missing.
   */
  async asOf(ownerId: string, accountId: string, playlistId: string, at: Date): Promise<SnapshotAsOf> {
    const account = await this.#deps.connections.get(ownerId, accountId).catch(() => null);
    if (!account) throw new SnapshotError('not_found', `No connected account ${accountId} exists for this owner.`);
    const found = newestHolding(await this.#deps.execute(sql.selectSnapshots(ownerId)), account.provider, playlistId, at);
    if (!found) throw new SnapshotError('no_snapshot_before', `No verified snapshot taken at or before ${at.toISOString()} holds the ${account.provider_display_name} playlist ${playlistId}; choose a later time, or take snapshots of it first.`);
    return found;
  }

  /** Reads a stored archive as a stream (a download). */
  openArchive(path: string): Readable {
    return createReadStream(path, { highWaterMark: 64 * 1024 });
  }
}
