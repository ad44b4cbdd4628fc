import type { SqlExecute } from '../../storage/sql/executors.ts';
import type { AccountView } from '../connections/connection.service.ts';
import { normalizeIsrc } from '../matching/index.ts';
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

export interface ModelTrack {
  id: string | null;
  migratable: boolean;
  /** The identity graph's id, else `isrc:<ISRC>`; null when the song cannot be compared yet. */
  identity: string | null;
}

/** What the workspace uses of a playlist list's entry. */
export type MemberSummary = Pick<PlaylistSummary, 'id' | 'name' | 'kind' | 'track_count' | 'snapshot_id'>;

export interface ModelMember {
  key: string;
  account: MemberSource;
  summary: MemberSummary;
  /** Null when the tracks are not cached, or cached for an older snapshot of the playlist. */
  tracks: ModelTrack[] | null;
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
}

type RawTrack = [string | null, string | null, boolean, boolean];

/** The workspace's members; `withImports: false` leaves the imports out (a status read of one account's playlists). */
export async function loadWorkspaceModel(execute: SqlExecute, ownerId: string, accounts: readonly AccountView[], withImports = true): Promise<WorkspaceModel> {
  const lists = new Map((await execute(selectListCaches(ownerId))).map((row) => [String(row['provider_account_id']), row]));
  const trackRows = new Map((await execute(selectTrackCaches(ownerId))).map((row) => [memberKey(String(row['provider_account_id']), String(row['playlist_id'])), row]));
  const members: ModelMember[] = [];
  const raw = new Map<string, RawTrack[]>();
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
      if (cached && !stale) raw.set(key, cached['tracks'] as RawTrack[]);
      members.push({ key, account, summary, tracks: null });
    }
  }
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
      raw.set(key, playlist.tracks);
      const summary: MemberSummary = { id: ids[index]!, name: playlist.name, kind: 'PLAYLIST', track_count: playlist.tracks.length, snapshot_id: null };
      members.push({ key, account: source, summary, tracks: null });
    });
  }
  const identities = await resolveIdentities(execute, members, raw);
  for (const member of members) {
    const tracks = raw.get(member.key);
    if (!tracks) continue;
    member.tracks = tracks.map(([id, isrc, migratable, local]) => {
      const trackId = local || member.account.provider === IMPORT_PROVIDER ? null : id;
      const normalized = normalizeIsrc(isrc);
      const identity = identities.get(lookupKey(member.account, trackId, normalized)) ?? (normalized ? `isrc:${normalized}` : null);
      return { id: trackId, migratable, identity };
    });
  }
  return { accounts: modelAccounts, imports, members };
}

const lookupKey = (account: MemberSource, trackId: string | null, isrc: string | null) => `${account.provider}\n${account.id}\n${trackId ?? ''}\n${isrc ?? ''}`;

/**
 * Every distinct track of the members resolved once: by its own edge (looked up per account, for
 * its overlay), else by its ISRC (looked up once per ISRC), in chunks of set-based queries.
 * Lookup key → identity id.
 */
async function resolveIdentities(execute: SqlExecute, members: readonly Pick<ModelMember, 'key' | 'account'>[], raw: ReadonlyMap<string, RawTrack[]>): Promise<Map<string, string>> {
  const trackIds = new Map<string, { account: MemberSource; ids: Set<string> }>();
  const isrcs = new Set<string>();
  for (const member of members) {
    const entry = trackIds.get(member.account.id) ?? { account: member.account, ids: new Set<string>() };
    trackIds.set(member.account.id, entry);
    for (const [id, isrc, , local] of raw.get(member.key) ?? []) {
      // An import's tracks carry no provider track of an account: only their ISRC identifies them.
      if (!local && id !== null && member.account.provider !== IMPORT_PROVIDER) entry.ids.add(id);
      const normalized = normalizeIsrc(isrc);
      if (normalized !== null) isrcs.add(normalized);
    }
  }
  const byEdge = new Map<string, string>();
  for (const { account, ids } of trackIds.values()) {
    const list = [...ids];
    for (let from = 0; from < list.length; from += LOOKUP_CHUNK) {
      for (const row of await execute(selectEdgeIdentities(account.provider, account.id, list.slice(from, from + LOOKUP_CHUNK)))) byEdge.set(`${account.id}\n${String(row['provider_track_id'])}`, String(row['identity_id']));
    }
  }
  const byIsrc = new Map<string, string>();
  const isrcList = [...isrcs];
  for (let from = 0; from < isrcList.length; from += LOOKUP_CHUNK) {
    for (const row of await execute(selectIsrcIdentities(isrcList.slice(from, from + LOOKUP_CHUNK)))) byIsrc.set(String(row['isrc']), String(row['identity_id']));
  }
  const resolved = new Map<string, string>();
  for (const member of members) {
    for (const [id, isrc, , local] of raw.get(member.key) ?? []) {
      const trackId = local || member.account.provider === IMPORT_PROVIDER ? null : id;
      const normalized = normalizeIsrc(isrc);
      const identity = (trackId !== null ? byEdge.get(`${member.account.id}\n${trackId}`) : undefined) ?? (normalized !== null ? byIsrc.get(normalized) : undefined);
      if (identity !== undefined) resolved.set(lookupKey(member.account, trackId, normalized), identity);
    }
  }
  return resolved;
}

/** The identity key of each of one account's tracks (null: cannot be compared yet), from the graph only. */
export async function identitiesOf(execute: SqlExecute, account: MemberSource, tracks: readonly { id: string | null; isrc: string | null; is_local?: boolean | null }[]): Promise<(string | null)[]> {
  const key = memberKey(account.id, '');
  const raw = new Map([[key, tracks.map((track) => [track.id, track.isrc, true, track.is_local === true] as RawTrack)]]);
  const resolved = await resolveIdentities(execute, [{ key, account }], raw);
  return tracks.map((track) => {
    const trackId = track.is_local === true || account.provider === IMPORT_PROVIDER ? null : track.id;
    const isrc = normalizeIsrc(track.isrc);
    return resolved.get(lookupKey(account, trackId, isrc)) ?? (isrc ? `isrc:${isrc}` : null);
  });
}
