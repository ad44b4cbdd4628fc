import { finiteNumber, isRecord, stringOrNull } from './answer-parsing.ts';

/**
 * The Library workspace API (`/api/library/workspace`, refresh, join, split, diff), parsed into
 * camelCase, and the hand-over of "migrate the missing songs" to the Migrate page. Pure: no I/O.
 */

export const WORKSPACE_PATH = '/api/library/workspace';
export const JOIN_PATH = '/api/library/groups/join';
export const SPLIT_PATH = '/api/library/groups/split';
/** sessionStorage key: a prefilled selection the Library hands to the Migrate page. */
export const LIBRARY_HANDOVER_KEY = 'opl.migrate.library-selection';

export type MigrationState = 'not_migrated' | 'partially_migrated' | 'migrated' | 'in_sync';

export function workspacePath(target: { provider: string; accountId: string } | null): string {
  return target ? `${WORKSPACE_PATH}?${new URLSearchParams({ target_provider: target.provider, target_account_id: target.accountId }).toString()}` : WORKSPACE_PATH;
}

export function refreshPath(accountId: string): string {
  return `/api/library/accounts/${encodeURIComponent(accountId)}/refresh`;
}

export function diffPath(a: string, b: string): string {
  return `/api/library/diff?${new URLSearchParams({ a, b }).toString()}`;
}

export interface MigrationStatus {
  readonly state: MigrationState;
  readonly migrated: number;
  readonly total: number;
  readonly exact: boolean;
  readonly syncRule: { readonly id: string; readonly status: string } | null;
}

export interface WorkspaceMember {
  readonly key: string;
  readonly accountId: string;
  readonly provider: string;
  readonly accountName: string | null;
  readonly playlistId: string;
  readonly name: string;
  readonly kind: string;
  readonly trackCount: number | null;
  readonly tracksRead: boolean;
  readonly holds: number;
  readonly missing: number;
  readonly unknown: number;
  readonly status: MigrationStatus | null;
}

export interface WorkspaceGroup {
  readonly id: string;
  readonly name: string;
  readonly songs: number;
  readonly members: readonly WorkspaceMember[];
  readonly reasons: readonly { readonly kind: string; readonly members: readonly [string, string]; readonly detail: string; readonly jobId: string | null }[];
}

export interface WorkspaceAccount {
  readonly accountId: string;
  readonly provider: string;
  readonly displayName: string | null;
  readonly status: string;
  readonly fetchedAt: string | null;
  readonly playlists: number;
  readonly tracksRead: number;
}

export interface Workspace {
  readonly accounts: readonly WorkspaceAccount[];
  readonly groups: readonly WorkspaceGroup[];
}

export interface DiffTrack {
  readonly position: number;
  readonly title: string;
  readonly artist: string;
}

export interface MemberDiff {
  readonly a: { readonly key: string; readonly name: string; readonly provider: string; readonly trackCount: number };
  readonly b: { readonly key: string; readonly name: string; readonly provider: string; readonly trackCount: number };
  readonly onlyA: readonly DiffTrack[];
  readonly onlyB: readonly DiffTrack[];
  readonly both: number;
  readonly moved: readonly { readonly a: DiffTrack; readonly b: DiffTrack }[];
  readonly notCompared: { readonly a: readonly DiffTrack[]; readonly b: readonly DiffTrack[] };
  /** At most how many searches comparing the songs not compared yet takes. */
  readonly searchesNeeded: number;
}

export const RESOLVE_PATH = '/api/library/diff/resolve';

/** What resolving the songs not compared yet did, in a sentence. */
export function resolveSummary(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  const searches = num(body['searches']) ?? 0;
  const resolved = num(body['resolved']) ?? 0;
  const unmatched = num(body['unmatched']) ?? 0;
  const stopped = isRecord(body['stopped']) ? ` Stopped early (${str(body['stopped']['error']) ?? 'provider error'}): try again later.` : '';
  return `${searches} ${searches === 1 ? 'search' : 'searches'} made: ${resolved} compared now, ${unmatched} without a match.${stopped}`;
}

/** What the Library hands to the Migrate page: one source playlist, only the listed songs, into one account. */
export interface LibraryHandover {
  readonly sourceAccountId: string;
  readonly sourceProvider: string;
  readonly playlistId: string;
  readonly playlistName: string;
  readonly trackKeys: readonly string[];
  readonly targetAccountId: string;
  readonly targetName: string;
}

type Json = Record<string, unknown>;
const str = stringOrNull;
const num = finiteNumber;

const STATES: readonly string[] = ['not_migrated', 'partially_migrated', 'migrated', 'in_sync'];

function parseStatus(value: unknown): MigrationStatus | null {
  if (!isRecord(value) || !STATES.includes(str(value['state']) ?? '')) return null;
  const rule = isRecord(value['sync_rule']) ? { id: str(value['sync_rule']['id']) ?? '', status: str(value['sync_rule']['status']) ?? '' } : null;
  return { state: value['state'] as MigrationState, migrated: num(value['migrated']) ?? 0, total: num(value['total']) ?? 0, exact: value['exact'] === true, syncRule: rule };
}

function parseMember(value: unknown): WorkspaceMember | undefined {
  if (!isRecord(value)) return undefined;
  const key = str(value['key']);
  const accountId = str(value['account_id']);
  const provider = str(value['provider']);
  const playlistId = str(value['playlist_id']);
  const name = str(value['name']);
  if (!key || !accountId || !provider || !playlistId || name === null) return undefined;
  return {
    key,
    accountId,
    provider,
    accountName: str(value['account_name']),
    playlistId,
    name,
    kind: str(value['kind']) ?? 'PLAYLIST',
    trackCount: num(value['track_count']),
    tracksRead: value['tracks_read'] === true,
    holds: num(value['holds']) ?? 0,
    missing: num(value['missing']) ?? 0,
    unknown: num(value['unknown']) ?? 0,
    status: parseStatus(value['status']),
  };
}

export function parseWorkspace(body: unknown): Workspace | undefined {
  if (!isRecord(body) || !Array.isArray(body['accounts']) || !Array.isArray(body['groups'])) return undefined;
  const accounts: WorkspaceAccount[] = [];
  for (const entry of body['accounts']) {
    if (!isRecord(entry) || !str(entry['account_id']) || !str(entry['provider'])) return undefined;
    accounts.push({
      accountId: str(entry['account_id'])!,
      provider: str(entry['provider'])!,
      displayName: str(entry['display_name']),
      status: str(entry['status']) ?? 'connected',
      fetchedAt: str(entry['fetched_at']),
      playlists: num(entry['playlists']) ?? 0,
      tracksRead: num(entry['tracks_read']) ?? 0,
    });
  }
  const groups: WorkspaceGroup[] = [];
  for (const entry of body['groups']) {
    if (!isRecord(entry) || !str(entry['id']) || !Array.isArray(entry['members']) || !Array.isArray(entry['reasons'])) return undefined;
    const members = entry['members'].map(parseMember);
    if (members.some((member) => member === undefined)) return undefined;
    groups.push({
      id: str(entry['id'])!,
      name: str(entry['name']) ?? '',
      songs: num(entry['songs']) ?? 0,
      members: members.filter((member): member is WorkspaceMember => member !== undefined),
      reasons: entry['reasons'].filter(isRecord).map((reason) => ({
        kind: str(reason['kind']) ?? '',
        members: (Array.isArray(reason['members']) ? [str(reason['members'][0]) ?? '', str(reason['members'][1]) ?? ''] : ['', '']),
        detail: str(reason['detail']) ?? '',
        jobId: str(reason['job_id']),
      })),
    });
  }
  return { accounts, groups };
}

function parseDiffTracks(value: unknown): DiffTrack[] {
  return Array.isArray(value) ? value.filter(isRecord).map((track) => ({ position: num(track['position']) ?? 0, title: str(track['title']) ?? '', artist: str(track['artist']) ?? '' })) : [];
}

export function parseDiff(body: unknown): MemberDiff | undefined {
  if (!isRecord(body) || !isRecord(body['a']) || !isRecord(body['b']) || !isRecord(body['not_compared'])) return undefined;
  const side = (value: Json) => ({ key: str(value['key']) ?? '', name: str(value['name']) ?? '', provider: str(value['provider']) ?? '', trackCount: num(value['track_count']) ?? 0 });
  const pairs = Array.isArray(body['moved']) ? body['moved'].filter(isRecord) : [];
  return {
    a: side(body['a']),
    b: side(body['b']),
    onlyA: parseDiffTracks(body['only_a']),
    onlyB: parseDiffTracks(body['only_b']),
    both: Array.isArray(body['both']) ? body['both'].length : 0,
    moved: pairs.map((pair) => ({ a: parseDiffTracks([pair['a']])[0]!, b: parseDiffTracks([pair['b']])[0]! })),
    notCompared: { a: parseDiffTracks(body['not_compared']['a']), b: parseDiffTracks(body['not_compared']['b']) },
    searchesNeeded: num(body['searches_needed']) ?? 0,
  };
}

export function stateLabel(status: MigrationStatus): string {
  switch (status.state) {
    case 'in_sync':
      return 'In sync';
    case 'migrated':
      return 'Migrated';
    case 'partially_migrated':
      return `Partially migrated (${status.migrated} of ${status.total})`;
    default:
      return 'Not migrated';
  }
}

const REASONS: Record<string, string> = {
  user_link: 'Joined by you',
  migration: 'Migrated',
  sync_rule: 'Sync rule',
  track_overlap: 'Songs in common',
  same_name: 'Same name',
  liked_collections: 'Liked songs',
};

/** The migration a sync rule for this group can start from: the newest one between its members, unless a rule exists. */
export function syncableJob(group: WorkspaceGroup): string | null {
  if (group.reasons.some((reason) => reason.kind === 'sync_rule')) return null;
  return group.reasons.find((reason) => reason.kind === 'migration' && reason.jobId !== null)?.jobId ?? null;
}

export function reasonLabel(kind: string): string {
  return REASONS[kind] ?? kind;
}

export function parseHandover(raw: string | null): LibraryHandover | undefined {
  if (!raw) return undefined;
  try {
    const value = JSON.parse(raw) as unknown;
    if (!isRecord(value) || !Array.isArray(value['trackKeys'])) return undefined;
    const fields = ['sourceAccountId', 'sourceProvider', 'playlistId', 'playlistName', 'targetAccountId', 'targetName'] as const;
    if (fields.some((field) => typeof value[field] !== 'string')) return undefined;
    return { ...(value as unknown as LibraryHandover), trackKeys: value['trackKeys'].filter((key): key is string => typeof key === 'string') };
  } catch {
    return undefined;
  }
}
