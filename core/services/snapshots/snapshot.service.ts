import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { PluginError, type Playlist, type Track } from '@opl/plugin-sdk';
import type { SnapshotFailure, SnapshotManifest, SnapshotPlaylist } from '@opl/plugin-sdk/schemas';
import type { Logger } from '../../logging/logger.ts';
import type { SnapshotOrigin, SnapshotStatus } from '../../storage/entities/values.ts';
import type { SqlExecute } from '../../storage/sql/executors.ts';
import type { ConnectionService } from '../connections/connection.service.ts';
import type { PlaylistReadService } from '../playlists/playlist-read.service.ts';
import type { SnapshotCollectionSource } from '../migrations/migration-source.ts';
import { readSnapshotCollections, SnapshotArchiveWriter, SnapshotVerificationError, verifySnapshotArchive, type SnapshotItem, type SnapshotLimits } from './archive/index.ts';
import { SnapshotError } from './snapshot-error.ts';
import { archiveName, DELETING_SUFFIX, ensureRoot, insideRoot, reconcileFiles, type ReconciledFiles } from './snapshot-files.ts';
import { profileSelectionSchema, type ProfileBody, type ProfileSelection } from './snapshot-profile.ts';
import * as sql from './snapshots.sql.ts';

export interface SnapshotServiceDependencies {
  execute: SqlExecute;
  connections: Pick<ConnectionService, 'get'>;
  playlists: Pick<PlaylistReadService, 'list' | 'read'>;
  /** Queues the creation job of a snapshot row. */
  enqueue: (snapshotId: string) => Promise<void>;
  root: string;
  limits: SnapshotLimits;
  schemaBaseUrl: string;
  logger: Logger;
  /** How often a running job says it is alive; reconciliation fails a job silent for 6 times as long. */
  heartbeatSeconds?: number;
}

export interface ProfileView {
  id: string;
  name: string;
  library_id: string;
  selection: ProfileSelection;
  created_at: string;
  updated_at: string;
}

export interface SnapshotView {
  id: string;
  profile_id: string | null;
  library_id: string;
  status: SnapshotStatus;
  origin: SnapshotOrigin;
  archive_bytes: number | null;
  archive_sha256: string | null;
  counts: Record<string, unknown>;
  progress: Record<string, unknown>;
  partial_failures: SnapshotManifest['partial_failures'];
  /** `restore_id`: how `POST /api/migrations` selects the collection (`<source id>:<collection id>`). */
  collections: { member: string; restore_id: string; kind: string; name: string; status: string; item_count: number; source_id: string; source_collection_id: string | null }[];
  sources: SnapshotManifest['sources'];
  verified_at: string | null;
  verification_reason: string | null;
  error: string | null;
  started_at: string | null;
  completed_at: string | null;
  created_at: string;
}

const iso = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string).toISOString());

function profileView(row: Record<string, unknown>): ProfileView {
  return {
    id: row['id'] as string,
    name: row['name'] as string,
    library_id: row['library_id'] as string,
    selection: row['selection'] as ProfileSelection,
    created_at: iso(row['created_at'])!,
    updated_at: iso(row['updated_at'])!,
  };
}

function snapshotView(row: Record<string, unknown>): SnapshotView {
  const manifest = row['manifest'] as SnapshotManifest | null;
  return {
    id: row['id'] as string,
    profile_id: (row['profile_id'] as string | null) ?? null,
    library_id: row['library_id'] as string,
    status: row['status'] as SnapshotStatus,
    origin: row['origin'] as SnapshotOrigin,
    archive_bytes: row['archive_bytes'] === null ? null : Number(row['archive_bytes']),
    archive_sha256: (row['archive_sha256'] as string | null) ?? null,
    counts: row['counts'] as Record<string, unknown>,
    progress: row['progress'] as Record<string, unknown>,
    partial_failures: manifest?.partial_failures ?? [],
    collections: (manifest?.collections ?? []).map((collection) => ({
      member: collection.member,
      restore_id: `${collection.source_id}:${collection.source_collection_id ?? collection.member}`,
      kind: collection.kind,
      name: collection.name,
      status: collection.status,
      item_count: collection.item_count,
      source_id: collection.source_id,
      source_collection_id: collection.source_collection_id,
    })),
    sources: manifest?.sources ?? [],
    verified_at: iso(row['verified_at']),
    verification_reason: (row['verification_reason'] as string | null) ?? null,
    error: (row['error'] as string | null) ?? null,
    started_at: iso(row['started_at']),
    completed_at: iso(row['completed_at']),
    created_at: iso(row['created_at'])!,
  };
}

/** A provider's read error as a manifest failure: its type as the code, its message (already free of credentials). */
function readFailure(error: unknown): SnapshotFailure {
  if (error instanceof PluginError) {
    const code = { NotFound: 'not_found', Unsupported: 'access_denied', AuthExpired: 'auth_expired', RateLimited: 'rate_limited' }[error.type as string] ?? 'read_failed';
    return { code, message: error.message.slice(0, 1_000) };
  }
  const code = (error as { code?: unknown }).code;
  return { code: typeof code === 'string' && /^[a-z][a-z0-9_]{0,63}$/.test(code) ? code : 'read_failed', message: 'The collection could not be read from the provider.' };
}

function playlistDetails(playlist: Playlist): SnapshotPlaylist {
  const { tracks, ...details } = playlist;
  return { ...details, track_count: tracks.length, metadata: {} };
}

/**
 * Library snapshots (SPEC "Snapshots"): profiles of accounts and collections, snapshot archives
 * taken by a job one collection at a time, verified before they are listed, downloaded, uploaded
 * from elsewhere and deleted. Archives live in `OPL_SNAPSHOT_DIR` under generated names only.
 */
export class SnapshotService {
  readonly #deps: SnapshotServiceDependencies;

  constructor(deps: SnapshotServiceDependencies) {
    this.#deps = deps;
  }

  get limits(): SnapshotLimits {
    return this.#deps.limits;
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

  async createProfile(ownerId: string, body: ProfileBody): Promise<ProfileView> {
    await this.#checkAccounts(ownerId, body.selection);
    const [row] = await this.#deps.execute(sql.insertProfile(ownerId, body.name, body.selection));
    return profileView(row!);
  }

  async updateProfile(ownerId: string, id: string, body: ProfileBody): Promise<ProfileView> {
    await this.#checkAccounts(ownerId, body.selection);
    const [row] = await this.#deps.execute(sql.updateProfile(ownerId, id, body.name, body.selection));
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

  async snapshots(ownerId: string): Promise<SnapshotView[]> {
    return (await this.#deps.execute(sql.selectSnapshots(ownerId))).map(snapshotView);
  }

  async snapshot(ownerId: string, id: string): Promise<SnapshotView> {
    const [row] = await this.#deps.execute(sql.selectSnapshot(ownerId, id));
    if (!row) throw new SnapshotError('not_found', `No snapshot ${id} exists for this owner.`);
    return snapshotView(row);
  }

  /** The archive file of a finished snapshot, for a download. */
  async archive(ownerId: string, id: string): Promise<{ path: string; bytes: number; fileName: string }> {
    const [row] = await this.#deps.execute(sql.selectSnapshot(ownerId, id));
    if (!row) throw new SnapshotError('not_found', `No snapshot ${id} exists for this owner.`);
    const name = row['archive_path'] as string | null;
    if (!name) throw new SnapshotError('not_ready', `Snapshot ${id} has no archive (${String(row['status'])}).`);
    const path = insideRoot(this.#deps.root, name);
    const bytes = (await stat(path)).size;
    return { path, bytes, fileName: `opl-snapshot-${id}.zip` };
  }

  /** Verifies a stored archive again (the file may have changed on disk since it was taken). */
  async verify(ownerId: string, id: string): Promise<SnapshotView> {
    const { path } = await this.archive(ownerId, id);
    let reason: string | null = null;
    try {
      await verifySnapshotArchive(path, this.#deps.limits);
    } catch (error) {
      if (!(error instanceof SnapshotVerificationError)) throw error;
      reason = error.reason;
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
      const id = manifest.snapshot_id;
      const name = archiveName(id);
      const [row] = await this.#deps.execute(
        sql.insertUploadedSnapshot({
          id,
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
      if (!row) throw new SnapshotError('already_exists', `Snapshot ${id} is already stored here; nothing was changed.`);
      await rename(temporary, insideRoot(this.#deps.root, name));
      return snapshotView(row);
    } finally {
      await rm(temporary, { force: true });
    }
  }

  /** The creation job's work: every selected collection, one at a time, into a verified archive. */
  async run(snapshotId: string, signal: AbortSignal): Promise<void> {
    const [claimed] = await this.#deps.execute(sql.claimSnapshot(snapshotId));
    if (!claimed) return; // already run, failed by reconciliation, or deleted
    const ownerId = claimed['owner_id'] as string;
    const heartbeatMs = (this.#deps.heartbeatSeconds ?? 10) * 1000;
    const progress = { collections_done: 0, collections_total: 0, items: 0, current: null as string | null };
    const beat = setInterval(() => void this.#deps.execute(sql.recordProgress(snapshotId, progress)).catch(() => undefined), heartbeatMs);
    let writer: SnapshotArchiveWriter | null = null;
    try {
      const [profileRow] = await this.#deps.execute(sql.selectProfile(ownerId, claimed['profile_id'] as string));
      if (!profileRow) throw new SnapshotError('not_found', 'The snapshot profile was deleted before the snapshot could be taken.');
      const selection = profileSelectionSchema.parse(profileRow['selection']);
      await ensureRoot(this.#deps.root);
      const sources = [];
      const plans: { sourceId: string; accountId: string; ids: { id: string; name: string }[] }[] = [];
      for (const [index, account] of selection.accounts.entries()) {
        const view = await this.#deps.connections.get(ownerId, account.account_id);
        const sourceId = `s${index + 1}`;
        sources.push({ source_id: sourceId, provider: view.provider, label: `${view.provider_display_name} ${view.display_name ?? ''}`.trim().slice(0, 200) });
        const listed = (await this.#deps.playlists.list(ownerId, account.account_id, true)).playlists;
        const ids =
          account.collections === 'all'
            ? listed.flatMap((playlist) => (playlist.id === null ? [] : [{ id: playlist.id, name: playlist.name }]))
            : account.collections.map((id) => ({ id, name: listed.find((playlist) => playlist.id === id)?.name ?? id }));
        plans.push({ sourceId, accountId: account.account_id, ids });
      }
      progress.collections_total = plans.reduce((sum, plan) => sum + plan.ids.length, 0);
      await this.#deps.execute(sql.recordProgress(snapshotId, progress));
      const name = archiveName(snapshotId);
      writer = await SnapshotArchiveWriter.start({
        path: insideRoot(this.#deps.root, name),
        snapshotId,
        libraryId: claimed['library_id'] as string,
        schemaBaseUrl: this.#deps.schemaBaseUrl,
        startedAt: new Date(claimed['started_at'] as string),
        sources,
        signal,
      });
      for (const plan of plans) {
        for (const wanted of plan.ids) {
          progress.current = wanted.name.slice(0, 200);
          let details: SnapshotPlaylist | null = null;
          const playlists = this.#deps.playlists;
          const items = async function* (): AsyncGenerator<SnapshotItem> {
            // One playlist at a time (SPEC Limits rule 1): read, written, let go.
            const read = await playlists.read(ownerId, plan.accountId, wanted.id, true);
            details = playlistDetails(read.playlist);
            for (const track of read.playlist.tracks) yield track;
          };
          const entry = await writer.addCollection({
            sourceId: plan.sourceId,
            kind: wanted.id === 'liked' ? 'liked_tracks' : 'playlist',
            sourceCollectionId: wanted.id,
            name: wanted.name,
            get playlist() {
              return details;
            },
            items: items(),
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
      const message = error instanceof SnapshotError || error instanceof SnapshotVerificationError ? error.message : signal.aborted ? 'The snapshot was stopped.' : 'The snapshot could not be taken.';
      this.#deps.logger.warn({ snapshot_id: snapshotId, err: error instanceof Error ? error.name : 'error' }, 'snapshot failed');
      await this.#deps.execute(sql.failSnapshot(snapshotId, message, reason));
      await rm(insideRoot(this.#deps.root, archiveName(snapshotId)), { force: true });
    } finally {
      clearInterval(beat);
    }
  }

  /** Startup reconciliation (SPEC Snapshots rule 9): stale jobs failed, then the files put right. */
  async reconcile(): Promise<{ failed: string[]; files: ReconciledFiles }> {
    const stale = (this.#deps.heartbeatSeconds ?? 10) * 6;
    const failed = (await this.#deps.execute(sql.failStaleSnapshots(stale))).map((row) => row['id'] as string);
    const rows = (await this.#deps.execute(sql.selectArchiveFacts())) as { id: string; status: string; archive_path: string | null }[];
    const files = await reconcileFiles(this.#deps.root, rows);
    if (failed.length > 0 || files.removed.length > 0 || files.restored.length > 0) this.#deps.logger.info({ failed: failed.length, removed: files.removed.length, restored: files.restored.length }, 'snapshots reconciled');
    return { failed, files };
  }

  /**
   * A snapshot as a migration source (a restore): the archive is verified again, then only the
   * wanted collections are read from it, each by its restore id `<source id>:<collection id>`.
   */
  async collections(ownerId: string, snapshotId: string, ids: readonly string[]): Promise<{ libraryId: string; collections: SnapshotCollectionSource[]; available: string[] } | null> {
    const [row] = await this.#deps.execute(sql.selectSnapshot(ownerId, snapshotId));
    const name = row?.['archive_path'] as string | null | undefined;
    if (!row || !name) return null;
    const path = insideRoot(this.#deps.root, name);
    const { manifest } = await verifySnapshotArchive(path, this.#deps.limits);
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

  /** Reads a stored archive as a stream (a download). */
  openArchive(path: string): Readable {
    return createReadStream(path, { highWaterMark: 64 * 1024 });
  }
}
