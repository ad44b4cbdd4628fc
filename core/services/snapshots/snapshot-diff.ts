import type { Track } from '@opl/plugin-sdk';
import type { SnapshotManifest } from '@opl/plugin-sdk/schemas';
import type { ConnectionService } from '../connections/connection.service.ts';
import type { PlaylistReadService } from '../playlists/playlist-read.service.ts';
import { readSnapshotCollections, SnapshotVerificationError, type SnapshotLimits } from './archive/index.ts';
import { SnapshotError } from './snapshot-error.ts';
import type { ProfileView, SnapshotView } from './snapshot-views.ts';
import { diffTrackOf, diffTracks, type DiffTrack, type TrackDiff } from './track-diff.ts';

type ManifestCollection = SnapshotManifest['collections'][number];

/** One side of a collection diff: where its tracks came from. */
export interface DiffSide {
  restore_id: string | null;
  item_count: number;
  /** Not every item could be read when this side was taken (a `partial` collection). */
  incomplete: boolean;
}

/**
 * The diff of one collection. `status`: `changed`, `unchanged`, `added` (only on the newer side),
 * `removed` (only on the older side) or `unreadable` (a side's collection failed when it was
 * taken). The lists hold at most `limit` entries each; `counts` are always whole.
 */
export interface CollectionDiff {
  key: string;
  name: string;
  kind: string;
  status: 'changed' | 'unchanged' | 'added' | 'removed' | 'unreadable';
  from: DiffSide | null;
  to: DiffSide | null;
  counts: { added: number; removed: number; moved: number; unchanged: number };
  added: TrackDiff['added'];
  removed: TrackDiff['removed'];
  moved: TrackDiff['moved'];
  truncated: boolean;
}

export interface SnapshotDiffView {
  from: { snapshot_id: string; created_at: string };
  /** `snapshot_id` null: the live playlist, read at `created_at`. */
  to: { snapshot_id: string | null; created_at: string };
  collections: CollectionDiff[];
}

export interface SnapshotDiffDependencies {
  snapshot: (ownerId: string, id: string) => Promise<SnapshotView>;
  archive: (ownerId: string, id: string) => Promise<{ path: string }>;
  manifest: (ownerId: string, id: string) => Promise<SnapshotManifest | null>;
  profile: (ownerId: string, id: string) => Promise<ProfileView>;
  connections: Pick<ConnectionService, 'get' | 'list'>;
  playlists: Pick<PlaylistReadService, 'read'>;
  limits: SnapshotLimits;
  clock: () => Date;
}

const restoreIdOf = (collection: ManifestCollection) => `${collection.source_id}:${collection.source_collection_id ?? collection.member}`;

/** Collections of two snapshots are paired by provider and collection id (source ids may differ between snapshots); the n-th of a kind pairs with the n-th. */
function pairingKeys(manifest: SnapshotManifest): Map<string, ManifestCollection> {
  const providers = new Map(manifest.sources.map((source) => [source.source_id, source.provider]));
  const keyed = new Map<string, ManifestCollection>();
  for (const collection of manifest.collections) {
    if (collection.entity_type !== 'track') continue;
    const base = `${providers.get(collection.source_id) ?? collection.source_id}:${collection.source_collection_id ?? collection.member}`;
    let key = base;
    for (let copy = 2; keyed.has(key); copy += 1) key = `${base}#${copy}`;
    keyed.set(key, collection);
  }
  return keyed;
}

function side(collection: ManifestCollection | null, itemCount = collection?.item_count ?? 0): DiffSide | null {
  return collection ? { restore_id: restoreIdOf(collection), item_count: itemCount, incomplete: collection.status !== 'complete' } : null;
}

function collectionDiff(key: string, from: ManifestCollection | null, to: ManifestCollection | null, tracks: { before: DiffTrack[]; after: DiffTrack[] } | null, limit: number, toSide?: DiffSide): CollectionDiff {
  const named = to ?? from!;
  const base = { key, name: named.name, kind: named.kind, from: side(from), to: toSide ?? side(to) };
  if (!tracks) {
    const status = !from ? 'added' : !to && !toSide ? 'removed' : 'unreadable';
    return { ...base, status, counts: { added: 0, removed: 0, moved: 0, unchanged: 0 }, added: [], removed: [], moved: [], truncated: false };
  }
  const diff = diffTracks(tracks.before, tracks.after);
  const counts = { added: diff.added.length, removed: diff.removed.length, moved: diff.moved.length, unchanged: diff.unchanged };
  const changed = counts.added + counts.removed + counts.moved > 0;
  return {
    ...base,
    status: changed ? 'changed' : 'unchanged',
    counts,
    added: diff.added.slice(0, limit),
    removed: diff.removed.slice(0, limit),
    moved: diff.moved.slice(0, limit),
    truncated: Math.max(counts.added, counts.removed, counts.moved) > limit,
  };
}

/**
 * Track-level diffs of snapshots (issue 30 item 7): between two snapshots of the owner, and
 * between a snapshot's collection and the live playlist (a fresh read through the plugin). A
 * collection is read from the archive one at a time, each member checked against the manifest's
 * checksums as it streams; memory holds the compact tracks of one pair of collections.
 */
export class SnapshotDiffs {
  readonly #deps: SnapshotDiffDependencies;

  constructor(deps: SnapshotDiffDependencies) {
    this.#deps = deps;
  }

  async #readTracks(ownerId: string, snapshotId: string, collection: ManifestCollection): Promise<DiffTrack[]> {
    const { path } = await this.#deps.archive(ownerId, snapshotId);
    const tracks: DiffTrack[] = [];
    try {
      await readSnapshotCollections(path, [collection.member], (_collection, record) => {
        tracks.push(diffTrackOf(record as Track));
      }, this.#deps.limits);
    } catch (error) {
      if (error instanceof SnapshotVerificationError) throw new SnapshotError('verification_failed', `The archive of snapshot ${snapshotId} failed verification (${error.reason}): ${error.message}`, error.reason);
      throw error;
    }
    return tracks;
  }

  async #finishedManifest(ownerId: string, id: string): Promise<{ view: SnapshotView; manifest: SnapshotManifest }> {
    const view = await this.#deps.snapshot(ownerId, id);
    const manifest = await this.#deps.manifest(ownerId, id);
    if (!manifest) throw new SnapshotError('not_ready', `Snapshot ${id} has no archive (${view.status}); only finished snapshots can be compared.`);
    return { view, manifest };
  }

  /** What changed from snapshot `fromId` to snapshot `toId`, per collection (optionally only the one `restoreId` of `fromId` names). */
  async between(ownerId: string, fromId: string, toId: string, options: { restoreId?: string | null; limit: number }): Promise<SnapshotDiffView> {
    const from = await this.#finishedManifest(ownerId, fromId);
    const to = await this.#finishedManifest(ownerId, toId);
    const older = pairingKeys(from.manifest);
    const newer = pairingKeys(to.manifest);
    let keys = [...new Set([...older.keys(), ...newer.keys()])];
    if (options.restoreId) {
      const wanted = [...older.entries()].find(([, collection]) => restoreIdOf(collection) === options.restoreId);
      if (!wanted) throw new SnapshotError('not_found', `Snapshot ${fromId} holds no collection ${options.restoreId} (GET /api/snapshots/${fromId} lists its restore ids).`);
      keys = [wanted[0]];
    }
    const collections: CollectionDiff[] = [];
    for (const key of keys) {
      const before = older.get(key) ?? null;
      const after = newer.get(key) ?? null;
      const readable = before && after && before.status !== 'failed' && after.status !== 'failed';
      const tracks = readable ? { before: await this.#readTracks(ownerId, fromId, before), after: await this.#readTracks(ownerId, toId, after) } : null;
      collections.push(collectionDiff(key, before, after, tracks, options.limit));
    }
    return { from: { snapshot_id: fromId, created_at: from.view.created_at }, to: { snapshot_id: toId, created_at: to.view.created_at }, collections };
  }

  /** What changed from a snapshot's collection to the live playlist, read now through the plugin of its account. */
  async againstLive(ownerId: string, snapshotId: string, restoreId: string, options: { accountId?: string | null; limit: number }): Promise<SnapshotDiffView> {
    const { view, manifest } = await this.#finishedManifest(ownerId, snapshotId);
    const collection = manifest.collections.find((entry) => entry.entity_type === 'track' && restoreIdOf(entry) === restoreId);
    if (!collection?.source_collection_id) throw new SnapshotError('not_found', `Snapshot ${snapshotId} holds no collection ${restoreId} (GET /api/snapshots/${snapshotId} lists its restore ids).`);
    const source = manifest.sources.find((entry) => entry.source_id === collection.source_id);
    const accountId = await this.#accountOf(ownerId, view, manifest, collection.source_id, source?.provider ?? '', options.accountId ?? null);
    const readAt = this.#deps.clock().toISOString();
    const live = (await this.#deps.playlists.read(ownerId, accountId, collection.source_collection_id, true)).playlist;
    const after = live.tracks.map(diffTrackOf);
    const key = `${source?.provider ?? collection.source_id}:${collection.source_collection_id}`;
    const liveSide: DiffSide = { restore_id: null, item_count: after.length, incomplete: false };
    const tracks = collection.status === 'failed' ? null : { before: await this.#readTracks(ownerId, snapshotId, collection), after };
    const diff = collectionDiff(key, collection, null, tracks, options.limit, liveSide);
    return { from: { snapshot_id: snapshotId, created_at: view.created_at }, to: { snapshot_id: null, created_at: readAt }, collections: [{ ...diff, name: live.name || diff.name }] };
  }

  /**
   * The connected account a snapshot source stands for. A manifest names no account (only a
   * provider and a label), so: the one asked for; else the account the snapshot's profile lists at
   * that source's place, when it is still connected to the same provider; else the owner's only
   * account of that provider. Anything else must be named.
   */
  async #accountOf(ownerId: string, view: SnapshotView, manifest: SnapshotManifest, sourceId: string, provider: string, asked: string | null): Promise<string> {
    if (asked) {
      const account = await this.#deps.connections.get(ownerId, asked).catch(() => null);
      if (!account) throw new SnapshotError('not_found', `No connected account ${asked} exists for this owner.`);
      if (account.provider !== provider) throw new SnapshotError('invalid_selection', `Account ${asked} is a ${account.provider} account; this collection was taken from ${provider}.`);
      return account.id;
    }
    const index = manifest.sources.findIndex((source) => source.source_id === sourceId);
    if (view.profile_id && index >= 0) {
      const profile = await this.#deps.profile(ownerId, view.profile_id).catch(() => null);
      const listed = profile?.selection.accounts[index]?.account_id;
      const account = listed ? await this.#deps.connections.get(ownerId, listed).catch(() => null) : null;
      if (account?.provider === provider) return account.id;
    }
    const accounts = await this.#deps.connections.list(ownerId, provider);
    if (accounts.length === 1) return accounts[0]!.id;
    throw new SnapshotError(
      'account_required',
      accounts.length === 0 ? `No ${provider} account is connected; connect the account this snapshot was taken from to compare it with the live playlist.` : `Several ${provider} accounts are connected; name the one to read with account_id.`,
    );
  }
}
