import type { SqlExecute } from '../../storage/sql/executors.ts';
import type { AccountView } from '../connections/connection.service.ts';
import { normalizeIsrc } from '../matching/index.ts';
import type { PlaylistSummary } from '../playlists/playlist-read.service.ts';
import { memberKey } from './workspace-grouping.ts';
import { selectEdgeIdentities, selectIsrcIdentities, selectListCaches, selectTrackCaches } from './workspace.sql.ts';

/**
 * The workspace's raw material, read from the database only — the playlist caches, the identity
 * graph — never from a provider: every account's cached playlists (members), each member's songs
 * resolved to identity keys when its tracks are cached and current.
 */

/** Identity lookups per statement. */
const LOOKUP_CHUNK = 20_000;

export interface ModelTrack {
  id: string | null;
  migratable: boolean;
  /** The identity graph's id, else `isrc:<ISRC>`; null when the song cannot be compared yet. */
  identity: string | null;
}

export interface ModelMember {
  key: string;
  account: AccountView;
  summary: PlaylistSummary;
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
  members: ModelMember[];
}

export async function loadWorkspaceModel(execute: SqlExecute, ownerId: string, accounts: readonly AccountView[]): Promise<WorkspaceModel> {
  const lists = new Map((await execute(selectListCaches(ownerId))).map((row) => [String(row['provider_account_id']), row]));
  const trackRows = new Map((await execute(selectTrackCaches(ownerId))).map((row) => [memberKey(String(row['provider_account_id']), String(row['playlist_id'])), row]));
  const members: ModelMember[] = [];
  const raw = new Map<string, [string | null, string | null, boolean, boolean][]>();
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
      if (cached && !stale) raw.set(key, cached['tracks'] as [string | null, string | null, boolean, boolean][]);
      members.push({ key, account, summary, tracks: null });
    }
  }
  const identities = await resolveIdentities(execute, members, raw);
  for (const member of members) {
    const tracks = raw.get(member.key);
    if (!tracks) continue;
    member.tracks = tracks.map(([id, isrc, migratable, local]) => {
      const trackId = local ? null : id;
      const normalized = normalizeIsrc(isrc);
      const identity = identities.get(lookupKey(member.account, trackId, normalized)) ?? (normalized ? `isrc:${normalized}` : null);
      return { id: trackId, migratable, identity };
    });
  }
  return { accounts: modelAccounts, members };
}

const lookupKey = (account: AccountView, trackId: string | null, isrc: string | null) => `${account.provider}\n${account.id}\n${trackId ?? ''}\n${isrc ?? ''}`;

/**
 * Every distinct track of the members resolved once: by its own edge (looked up per account, for
 * its overlay), else by its ISRC (looked up once per ISRC), in chunks of set-based queries.
 * Lookup key → identity id.
 */
async function resolveIdentities(execute: SqlExecute, members: readonly Pick<ModelMember, 'key' | 'account'>[], raw: ReadonlyMap<string, [string | null, string | null, boolean, boolean][]>): Promise<Map<string, string>> {
  const trackIds = new Map<string, { account: AccountView; ids: Set<string> }>();
  const isrcs = new Set<string>();
  for (const member of members) {
    const entry = trackIds.get(member.account.id) ?? { account: member.account, ids: new Set<string>() };
    trackIds.set(member.account.id, entry);
    for (const [id, isrc, , local] of raw.get(member.key) ?? []) {
      if (!local && id !== null) entry.ids.add(id);
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
      const trackId = local ? null : id;
      const normalized = normalizeIsrc(isrc);
      const identity = (trackId !== null ? byEdge.get(`${member.account.id}\n${trackId}`) : undefined) ?? (normalized !== null ? byIsrc.get(normalized) : undefined);
      if (identity !== undefined) resolved.set(lookupKey(member.account, trackId, normalized), identity);
    }
  }
  return resolved;
}

/** The identity key of each of one account's tracks (null: cannot be compared yet), from the graph only. */
export async function identitiesOf(execute: SqlExecute, account: AccountView, tracks: readonly { id: string | null; isrc: string | null; is_local?: boolean | null }[]): Promise<(string | null)[]> {
  const key = memberKey(account.id, '');
  const raw = new Map([[key, tracks.map((track) => [track.id, track.isrc, true, track.is_local === true] as [string | null, string | null, boolean, boolean])]]);
  const resolved = await resolveIdentities(execute, [{ key, account }], raw);
  return tracks.map((track) => {
    const trackId = track.is_local === true ? null : track.id;
    const isrc = normalizeIsrc(track.isrc);
    return resolved.get(lookupKey(account, trackId, isrc)) ?? (isrc ? `isrc:${isrc}` : null);
  });
}
