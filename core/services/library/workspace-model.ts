import type { SqlExecute } from '../../storage/sql/executors.ts';
import type { AccountView } from '../connections/connection.service.ts';
import { columnsOfCompact, DIGEST_MIGRATABLE, forEachDigestTrack, TRACK_DIGEST_VERSION, type TrackColumns } from '../playlists/track-digest.ts';
import { importCollectionIds } from '../imports/import-collection-ids.ts';
import type { PlaylistSummary } from '../playlists/playlist-read.service.ts';
import { memberKey } from './workspace-grouping.ts';
import { selectEdgeIdentities, selectIsrcIdentities, selectListCaches, selectRecentImports, selectTrackCaches } from './workspace.sql.ts';

/**
 * The workspace's raw material, read from the database only — the playlist caches, the identity
 * graph — never from a provider: every account's cached playlists (members), each member's songs
 * resolved to identity keys when its tracks are cached and current — and the recent imports'
 * playlists, members like any other (an import record is their "account", provider `import`).
 */

/** The provider key of an import's members (the convention of `POST /api/migrations`). */
export const IMPORT_PROVIDER = 'import';
/** The newest imports that become members: "recent imports", not every record ever kept. */
export const RECENT_IMPORTS = 20;

/** Who holds a member: a connected account, or an import record (`provider` = `import`). */
export type MemberSource = Pick<AccountView, 'id' | 'provider' | 'display_name' | 'account_label'>;

export interface ModelImport {
  id: string;
  kind: string;
  label: string | null;
  createdAt: string;
}

/** Identity lookups per statement. */
const LOOKUP_CHUNK = 20_000;

/**
 * One member's tracks, column by column (one index per track, in playlist order): typed arrays of
 * numbers rather than an object or string per track, as a large workspace holds hundreds of
 * thousands of tracks but far fewer distinct ones.
 */
export interface MemberTracks {
  /** Per track: its provider id's number in `idTable` (the account's distinct ids); -1 for a local file, an import's track, or none. */
  ids: Int32Array;
  idTable: readonly string[];
  /** 1 when the track can be migrated (episodes and local files cannot). */
  migratable: Uint8Array;
  /** Song number (an index of the model's `songKeys`); -1 when the song cannot be compared yet. */
  songs: Int32Array;
  /** The distinct songs it holds. */
  distinct: Set<number>;
  /** Tracks whose song cannot be compared yet. */
  unknown: number;
}

/** The provider track ids of a member's tracks (null: none). */
export function trackIdsOf(tracks: MemberTracks): (string | null)[] {
  return Array.from(tracks.ids, (id) => (id < 0 ? null : tracks.idTable[id]!));
}

/** What the workspace uses of a playlist list's entry. */
export type MemberSummary = Pick<PlaylistSummary, 'id' | 'name' | 'kind' | 'track_count' | 'snapshot_id'>;

export interface ModelMember {
  key: string;
  account: MemberSource;
  summary: MemberSummary;
  /** Null when the tracks are not cached, or cached for an older snapshot of the playlist. */
  tracks: MemberTracks | null;
}

export interface ModelAccount {
  account: AccountView;
  /** When the cached list was read; null: never read (refresh the account). */
  fetchedAt: string | null;
}

export interface WorkspaceModel {
  accounts: ModelAccount[];
  imports: ModelImport[];
  members: ModelMember[];
  /** Song number → its identity key: the identity graph's id, else `isrc:<ISRC>`. */
  songKeys: string[];
}

type RawTrack = [string | null, string | null, boolean, boolean];

/** Distinct strings numbered in order of first appearance. */
class Interner {
  readonly table: string[] = [];
  readonly #numbers = new Map<string, number>();
  numberOf(value: string): number {
    let number = this.#numbers.get(value);
    if (number === undefined) {
      number = this.table.push(value) - 1;
      this.#numbers.set(value, number);
    }
    return number;
  }
}

/** A playlist's tracks with ids (per account) and ISRCs (across the workspace) numbered. */
interface InternedTracks {
  account: MemberSource;
  ids: Int32Array;
  isrcs: Int32Array;
  flags: Uint8Array;
}

/** Numbers ids per account and ISRCs across all playlists as tracks are read. */
class TrackInterner {
  readonly ids = new Map<string, { account: MemberSource; interner: Interner }>();
  readonly isrcs = new Interner();

  idsOf(account: MemberSource): Interner {
    let entry = this.ids.get(account.id);
    if (!entry) {
      entry = { account, interner: new Interner() };
      this.ids.set(account.id, entry);
    }
    return entry.interner;
  }

  fromDigest(account: MemberSource, digest: string): InternedTracks | null {
    const ids: number[] = [];
    const isrcs: number[] = [];
    const flags: number[] = [];
    const own = this.idsOf(account);
    const ok = forEachDigestTrack(digest, (id, isrc, flag) => {
      ids.push(id === null ? -1 : own.numberOf(id));
      isrcs.push(isrc === null ? -1 : this.isrcs.numberOf(isrc));
      flags.push(flag);
    });
    return ok ? { account, ids: Int32Array.from(ids), isrcs: Int32Array.from(isrcs), flags: Uint8Array.from(flags) } : null;
  }

  fromColumns(account: MemberSource, columns: TrackColumns): InternedTracks {
    const own = this.idsOf(account);
    return {
      account,
      // An import's tracks carry no provider track of an account: only their ISRC identifies them.
      ids: Int32Array.from(columns.ids, (id) => (id === null || account.provider === IMPORT_PROVIDER ? -1 : own.numberOf(id))),
      isrcs: Int32Array.from(columns.isrcs, (isrc) => (isrc === null ? -1 : this.isrcs.numberOf(isrc))),
      flags: columns.flags,
    };
  }
}

/** The workspace's members; `withImports: false` leaves the imports out (a status read of one account's playlists). */
export async function loadWorkspaceModel(execute: SqlExecute, ownerId: string, accounts: readonly AccountView[], withImports = true): Promise<WorkspaceModel> {
  const lists = new Map((await execute(selectListCaches(ownerId))).map((row) => [String(row['provider_account_id']), row]));
  const trackRows = new Map((await execute(selectTrackCaches(ownerId, TRACK_DIGEST_VERSION))).map((row) => [memberKey(String(row['provider_account_id']), String(row['playlist_id'])), row]));
  const members: ModelMember[] = [];
  const interner = new TrackInterner();
  const read = new Map<string, InternedTracks>();
  const modelAccounts: ModelAccount[] = [];
  for (const account of accounts) {
    const list = lists.get(account.id);
    modelAccounts.push({ account, fetchedAt: list ? new Date(list['fetched_at'] as string).toISOString() : null });
    if (!list) continue;
    for (const summary of list['payload'] as PlaylistSummary[]) {
      if (!summary.id) continue;
      const key = memberKey(account.id, summary.id);
      const cached = trackRows.get(key);
      const stale = cached && summary.snapshot_id !== null && cached['snapshot_id'] !== null && cached['snapshot_id'] !== summary.snapshot_id;
      if (cached && !stale) {
        const digest = typeof cached['track_digest'] === 'string' ? interner.fromDigest(account, cached['track_digest']) : null;
        // A cache from before digests (or a digest of another version) carries its compact tracks instead.
        const own = digest ?? (Array.isArray(cached['tracks']) ? interner.fromColumns(account, columnsOfCompact(cached['tracks'] as RawTrack[])) : null);
        if (own) read.set(key, own);
      }
      members.push({ key, account, summary, tracks: null });
    }
  }
  trackRows.clear();
  const imports: ModelImport[] = [];
  for (const row of withImports ? await execute(selectRecentImports(ownerId, RECENT_IMPORTS)) : []) {
    const record: ModelImport = { id: String(row['import_id']), kind: String(row['kind']), label: typeof row['source_label'] === 'string' ? row['source_label'] : null, createdAt: new Date(row['created_at'] as string).toISOString() };
    imports.push(record);
    const source: MemberSource = { id: record.id, provider: IMPORT_PROVIDER, display_name: record.label ?? `${record.kind} import`, account_label: null };
    const playlists = row['playlists'] as { id: string | null; name: string; tracks: RawTrack[] }[];
    // Named as migrations and exports name an import's playlists.
    const ids = importCollectionIds(playlists);
    playlists.forEach((playlist, index) => {
      const key = memberKey(record.id, ids[index]!);
      read.set(key, interner.fromColumns(source, columnsOfCompact(playlist.tracks)));
      const summary: MemberSummary = { id: ids[index]!, name: playlist.name, kind: 'PLAYLIST', track_count: playlist.tracks.length, snapshot_id: null };
      members.push({ key, account: source, summary, tracks: null });
    });
  }
  const songKeys = await resolveSongs(execute, interner, members, read);
  return { accounts: modelAccounts, imports, members, songKeys };
}

/**
 * Every track of the read members resolved to a song number (filling in `member.tracks`): by its
 * own edge in the identity graph (the account's overlay edge before a global one; looked up once
 * per account and distinct id), else by the identity carrying its ISRC (once per distinct ISRC),
 * else by its ISRC itself (`isrc:<ISRC>`); -1 when it has neither. Set-based queries in chunks;
 * equal identities get equal numbers across the workspace. Answers the song keys.
 */
async function resolveSongs(execute: SqlExecute, interner: TrackInterner, members: readonly ModelMember[], read: ReadonlyMap<string, InternedTracks>): Promise<string[]> {
  const songs = new Interner();
  const edgeSongs = new Map<string, Int32Array>();
  for (const { account, interner: ids } of interner.ids.values()) {
    const own = new Int32Array(ids.table.length).fill(-1);
    edgeSongs.set(account.id, own);
    if (account.provider === IMPORT_PROVIDER) continue;
    for (let from = 0; from < ids.table.length; from += LOOKUP_CHUNK) {
      for (const row of await execute(selectEdgeIdentities(account.provider, account.id, ids.table.slice(from, from + LOOKUP_CHUNK)))) {
        own[ids.numberOf(String(row['provider_track_id']))] = songs.numberOf(String(row['identity_id']));
      }
    }
  }
  const isrcTable = interner.isrcs.table;
  const isrcSongs = new Int32Array(isrcTable.length).fill(-1);
  for (let from = 0; from < isrcTable.length; from += LOOKUP_CHUNK) {
    for (const row of await execute(selectIsrcIdentities(isrcTable.slice(from, from + LOOKUP_CHUNK)))) isrcSongs[interner.isrcs.numberOf(String(row['isrc']))] = songs.numberOf(String(row['identity_id']));
  }
  for (let isrc = 0; isrc < isrcTable.length; isrc++) if (isrcSongs[isrc]! < 0) isrcSongs[isrc] = songs.numberOf(`isrc:${isrcTable[isrc]!}`);
  for (const member of members) {
    const tracks = read.get(member.key);
    if (!tracks) continue;
    const byEdge = edgeSongs.get(tracks.account.id)!;
    const own = new Int32Array(tracks.ids.length);
    const distinct = new Set<number>();
    let unknown = 0;
    for (let index = 0; index < own.length; index++) {
      const id = tracks.ids[index]!;
      const isrc = tracks.isrcs[index]!;
      const song = id >= 0 && byEdge[id]! >= 0 ? byEdge[id]! : isrc >= 0 ? isrcSongs[isrc]! : -1;
      own[index] = song;
      if (song < 0) unknown += 1;
      else distinct.add(song);
    }
    member.tracks = { ids: tracks.ids, idTable: interner.idsOf(tracks.account).table, migratable: tracks.flags.map((flags) => flags & DIGEST_MIGRATABLE), songs: own, distinct, unknown };
  }
  return songs.table;
}

/** The identity key of each of one account's tracks (null: cannot be compared yet), from the graph only. */
export async function identitiesOf(execute: SqlExecute, account: MemberSource, tracks: readonly { id: string | null; isrc: string | null; is_local?: boolean | null }[]): Promise<(string | null)[]> {
  const interner = new TrackInterner();
  const member: ModelMember = { key: memberKey(account.id, ''), account, summary: { id: '', name: '', kind: 'PLAYLIST', track_count: tracks.length, snapshot_id: null }, tracks: null };
  const columns = columnsOfCompact(tracks.map((track) => [track.id, track.isrc, true, track.is_local === true] as RawTrack));
  const songKeys = await resolveSongs(execute, interner, [member], new Map([[member.key, interner.fromColumns(account, columns)]]));
  return Array.from(member.tracks!.songs, (song) => (song < 0 ? null : songKeys[song]!));
}
