import { createHash } from 'node:crypto';
import type { Playlist } from '@opl/plugin-sdk';
import type { SqlExecute } from '../../storage/sql/executors.ts';
import type { AccountView, ConnectionService } from '../connections/connection.service.ts';
import { MatchService, type GraphTransaction, type MatchCatalogue } from '../matching/index.ts';
import type { PlaylistReadService, PlaylistSummary } from '../playlists/playlist-read.service.ts';
import { selectCache } from '../playlists/playlist-cache.sql.ts';
import { homeOverview, type HomeOverview } from './home-overview.ts';
import { diffMembers, type DiffTrack, type MemberDiff } from './member-diff.ts';
import { migrationStatus, type MigrationStatus } from './migration-status.ts';
import { groupMembers, memberKey, type Evidence, type EvidenceKind, type UserPair } from './workspace-grouping.ts';
import { identitiesOf, IMPORT_PROVIDER, trackIdsOf, loadWorkspaceModel, type MemberSource, type ModelMember, type WorkspaceModel } from './workspace-model.ts';
import { expandPlaylists } from '../imports/stored-playlists.ts';
import { importCollectionIds } from '../imports/import-collection-ids.ts';
import { selectImportRecord } from '../imports/import-record.sql.ts';
import { importTrackKey, upsertImportMatch, withImportMatches, type ComparedAccount } from './import-matches.ts';
import { resolveImportUnknown, resolveUnknown, unresolvedOf, type ResolveOutcome } from './resolve-unknown.ts';
import { refreshAccount, type RefreshView } from './workspace-refresh.ts';
import { selectMigratedTracks, selectMigrationLineage, selectPairs, selectSyncRules, upsertPairs, type PairRow } from './workspace.sql.ts';

/**
 * The Library workspace: every connected account's playlists and liked collections, grouped into
 * "same playlist" groups with their reasons, each member's coverage of its group's songs, and —
 * given a target account — each source playlist's migration status. Built from the database only
 * (caches, identity graph, ledger, lineage): no provider call, let alone a search. `refresh` is the
 * one method that reads providers. Grouping is local; nothing on a provider changes.
 */

export class WorkspaceError extends Error {
  readonly code: 'not_found' | 'invalid' | 'not_read';
  constructor(code: 'not_found' | 'invalid' | 'not_read', message: string) {
    super(message);
    this.name = 'WorkspaceError';
    this.code = code;
  }
}

export interface TargetContext {
  provider: string;
  accountId: string;
}

export interface MemberView {
  key: string;
  account_id: string;
  provider: string;
  account_name: string | null;
  playlist_id: string;
  name: string;
  kind: string;
  track_count: number | null;
  /** Whether the member's tracks are cached and current (coverage needs them). */
  tracks_read: boolean;
  /** Distinct identified songs it holds, of the group's `songs`. */
  holds: number;
  missing: number;
  /** Tracks whose identity is unknown (not compared yet). */
  unknown: number;
  /** Against the requested target account; null without one, or for members of that account. */
  status: MigrationStatus | null;
}

export interface GroupView {
  id: string;
  name: string;
  /** Distinct identified songs of all its members. */
  songs: number;
  members: MemberView[];
  reasons: { kind: EvidenceKind; members: [string, string]; detail: string; job_id: string | null }[];
}

export interface WorkspaceView {
  accounts: { account_id: string; provider: string; display_name: string | null; status: string; fetched_at: string | null; playlists: number; tracks_read: number }[];
  /** The recent imports whose playlists are members (provider `import`, account id = the import's id). */
  imports: { import_id: string; kind: string; label: string | null; created_at: string; playlists: number }[];
  target: { provider: string; account_id: string } | null;
  groups: GroupView[];
}

export interface DiffView extends MemberDiff {
  a: { key: string; name: string; provider: string; track_count: number };
  b: { key: string; name: string; provider: string; track_count: number };
  /** At most how many provider searches resolving the songs not compared yet takes (`resolve`). */
  searches_needed: number;
}

export interface ResolveView extends ResolveOutcome {
  /** The diff once resolved. */
  diff: DiffView;
}

interface Dependencies {
  readonly execute: SqlExecute;
  /** The matching engine's graph writes (only `resolve` matches). */
  readonly transaction: GraphTransaction;
  readonly catalogue: MatchCatalogue;
  readonly connections: Pick<ConnectionService, 'list' | 'get' | 'call'>;
  readonly playlists: Pick<PlaylistReadService, 'list' | 'read'>;
}

export class WorkspaceService {
  readonly #deps: Dependencies;

  constructor(deps: Dependencies) {
    this.#deps = deps;
  }

  async workspace(ownerId: string, target: TargetContext | null = null): Promise<WorkspaceView> {
    const accounts = await this.#deps.connections.list(ownerId);
    if (target) this.#checkTarget(accounts, target);
    const model = await loadWorkspaceModel(this.#deps.execute, ownerId, accounts);
    const [lineageRows, rules, pairs] = await Promise.all([this.#deps.execute(selectMigrationLineage(ownerId)), this.#deps.execute(selectSyncRules(ownerId)), this.#pairs(ownerId)]);
    const lineage = lineageEvidence(model, lineageRows, rules);
    const grouped = groupMembers(model.members.map(groupingMember), lineage, pairs);
    const statuses = target ? await this.#statuses(ownerId, model, target, lineageRows, rules) : new Map<string, MigrationStatus>();
    const byKey = new Map(model.members.map((member) => [member.key, member]));
    const groups = grouped.map((group) => groupView(group.members.map((key) => byKey.get(key)!), group.reasons, statuses));
    groups.sort((x, y) => x.name.localeCompare(y.name) || x.id.localeCompare(y.id));
    return {
      accounts: model.accounts.map(({ account, fetchedAt }) => {
        const own = model.members.filter((member) => member.account.id === account.id);
        return { account_id: account.id, provider: account.provider, display_name: account.display_name ?? account.account_label, status: account.status, fetched_at: fetchedAt, playlists: own.length, tracks_read: own.filter((member) => member.tracks !== null).length };
      }),
      imports: model.imports.map((record) => ({ import_id: record.id, kind: record.kind, label: record.label, created_at: record.createdAt, playlists: model.members.filter((member) => member.account.id === record.id).length })),
      target: target ? { provider: target.provider, account_id: target.accountId } : null,
      groups,
    };
  }

  /** The Home overview: accounts and their health, recent and running jobs, sync rules needing attention, reviews waiting (a few aggregates, no grouping). */
  async overview(ownerId: string): Promise<HomeOverview> {
    return homeOverview(this.#deps.execute, ownerId, await this.#deps.connections.list(ownerId));
  }

  /** Reads one account's playlist list again, and the playlists whose snapshot (or last change) moved. */
  refresh(ownerId: string, accountId: string, full: boolean): Promise<RefreshView> {
    return refreshAccount({ execute: this.#deps.execute, playlists: this.#deps.playlists }, ownerId, accountId, full);
  }

  /** Joins the groups of the given members into one: the user's links outrank every other evidence and replace earlier splits between those groups. */
  async join(ownerId: string, keys: readonly string[]): Promise<WorkspaceView> {
    const groups = await this.#groupsOf(ownerId, keys);
    if (groups.length < 2) throw new WorkspaceError('invalid', 'Those members are in one group already: nothing to join.');
    // Every pair across the joined groups becomes the user's link, which also replaces earlier splits between them.
    const rows: PairRow[] = [];
    groups.forEach((group, index) => {
      for (const later of groups.slice(index + 1)) for (const x of group) for (const y of later) rows.push(pairRow(x, y, 'linked'));
    });
    await this.#deps.execute(upsertPairs(ownerId, rows));
    return this.workspace(ownerId);
  }

  /** Takes the given members out of their group (they stay together if several): they are kept apart from the rest for good. */
  async split(ownerId: string, keys: readonly string[]): Promise<WorkspaceView> {
    const groups = await this.#groupsOf(ownerId, keys);
    const leaving = new Set(keys);
    const rows: PairRow[] = [];
    for (const group of groups) for (const out of group.filter((key) => leaving.has(key))) for (const rest of group.filter((key) => !leaving.has(key))) rows.push(pairRow(out, rest, 'apart'));
    if (rows.length === 0) throw new WorkspaceError('invalid', 'Those members are a group of their own already: nothing to split.');
    const kept = [...leaving];
    for (let i = 1; i < kept.length; i++) rows.push(pairRow(kept[0]!, kept[i]!, 'linked'));
    await this.#deps.execute(upsertPairs(ownerId, rows));
    return this.workspace(ownerId);
  }

  /** The two members' songs compared by identity, from the caches: no provider call. */
  async diff(ownerId: string, a: string, b: string): Promise<DiffView> {
    const accounts = await this.#deps.connections.list(ownerId);
    const [left, right] = await Promise.all([this.#cachedMember(ownerId, accounts, a), this.#cachedMember(ownerId, accounts, b)]);
    return this.#diffOf(ownerId, a, left, b, right);
  }

  /**
   * Resolves the songs the diff of `a` and `b` could not compare by matching each on the other
   * member's account (searches; see `resolve-unknown.ts`), then answers the new diff.
   */
  async resolve(ownerId: string, a: string, b: string): Promise<ResolveView> {
    const accounts = await this.#deps.connections.list(ownerId);
    const [left, right] = await Promise.all([this.#cachedMember(ownerId, accounts, a), this.#cachedMember(ownerId, accounts, b)]);
    const matcherFor = (target: AccountView) =>
      new MatchService({
        execute: this.#deps.execute,
        transaction: this.#deps.transaction,
        catalogue: this.#deps.catalogue,
        // Searches run as the target account (its credentials, its provider's rate limits).
        plugins: { call: (_pluginId, _op, input, _context, signal) => this.#deps.connections.call(ownerId, target.id, 'searchTracks', input, signal) },
      });
    if (isAccount(left.account) && isAccount(right.account)) {
      const outcome = await resolveUnknown(this.#deps.execute, matcherFor, { account: left.account, playlist: left.playlist }, { account: right.account, playlist: right.playlist });
      return { ...outcome, diff: await this.#diffOf(ownerId, a, left, b, right) };
    }
    const [imported, account] = isAccount(right.account) ? [left, right.account] : isAccount(left.account) ? [right, left.account] : [null, null];
    if (!imported || !account) throw new WorkspaceError('invalid', 'Two imports cannot be searched: compare an import with an account’s playlist to resolve its songs not compared yet.');
    const compared = await this.#compared(isAccount(right.account) ? right : left);
    const identities = await withImportMatches(this.#deps.execute, ownerId, imported.account.id, imported.playlist.tracks, await this.#identities(imported), compared);
    const tracks = unresolvedOf(imported, identities, importTrackKey);
    const outcome = await resolveImportUnknown(tracks, account, matcherFor(account), async (source, targetTrackId) => {
      await this.#deps.execute(upsertImportMatch(ownerId, imported.account.id, { trackKey: importTrackKey(source), provider: account.provider, providerAccountId: account.id, providerTrackId: targetTrackId }));
    });
    return { ...outcome, diff: await this.#diffOf(ownerId, a, left, b, right) };
  }

  async #identities({ account, playlist }: CachedMember): Promise<(string | null)[]> {
    return identitiesOf(this.#deps.execute, account, playlist.tracks.map((track) => ({ id: track.id, isrc: track.isrc, is_local: track.is_local })));
  }

  /** An account member's tracks by provider id with their identities, for an import's remembered matches. */
  async #compared(member: CachedMember, identities?: readonly (string | null)[]): Promise<ComparedAccount> {
    const ids = identities ?? (await this.#identities(member));
    const identityOfTrack = new Map<string, string>();
    member.playlist.tracks.forEach((track, index) => {
      if (track.id !== null && ids[index] !== null && !identityOfTrack.has(track.id)) identityOfTrack.set(track.id, ids[index]!);
    });
    return { provider: member.account.provider, identityOfTrack };
  }

  async #diffOf(ownerId: string, a: string, left: CachedMember, b: string, right: CachedMember): Promise<DiffView> {
    let [leftIds, rightIds] = [await this.#identities(left), await this.#identities(right)];
    // An import's songs a resolve matched on a provider: compared through the matched track.
    if (!isAccount(left.account)) leftIds = await withImportMatches(this.#deps.execute, ownerId, left.account.id, left.playlist.tracks, leftIds, isAccount(right.account) ? await this.#compared(right, rightIds) : null);
    if (!isAccount(right.account)) rightIds = await withImportMatches(this.#deps.execute, ownerId, right.account.id, right.playlist.tracks, rightIds, isAccount(left.account) ? await this.#compared(left, leftIds) : null);
    const tracks = ({ account, playlist }: CachedMember, ids: readonly (string | null)[]) =>
      playlist.tracks.map((track, index) => ({ ...diffTrack(track, index, account.provider), identity: ids[index]! }));
    const diff = diffMembers(tracks(left, leftIds), tracks(right, rightIds));
    const side = (key: string, member: CachedMember) => ({ key, name: member.playlist.name, provider: member.account.provider, track_count: member.playlist.tracks.length });
    // One text search per distinct song without a known identity, at most: both sides of two
    // accounts; only the import's songs against an account (an import cannot be searched); none between two imports.
    const leftAccount = isAccount(left.account);
    const rightAccount = isAccount(right.account);
    const searchesNeeded =
      leftAccount && rightAccount
        ? unresolvedOf(left, leftIds).length + unresolvedOf(right, rightIds).length
        : leftAccount !== rightAccount
          ? unresolvedOf(leftAccount ? right : left, leftAccount ? rightIds : leftIds, importTrackKey).length
          : 0;
    return { a: side(a, left), b: side(b, right), ...diff, searches_needed: searchesNeeded };
  }

  /** Statuses of one account's listed playlists against a target account (for `GET /api/playlists`). */
  async statusesOf(ownerId: string, sourceAccountId: string, playlistIds: readonly string[], target: TargetContext): Promise<Map<string, MigrationStatus>> {
    const accounts = await this.#deps.connections.list(ownerId);
    this.#checkTarget(accounts, target);
    const model = await loadWorkspaceModel(this.#deps.execute, ownerId, accounts.filter((account) => account.id === sourceAccountId), false);
    const wanted = new Set(playlistIds);
    model.members = model.members.filter((member) => wanted.has(member.summary.id ?? ''));
    const [lineageRows, rules] = await Promise.all([this.#deps.execute(selectMigrationLineage(ownerId)), this.#deps.execute(selectSyncRules(ownerId))]);
    const statuses = await this.#statuses(ownerId, model, target, lineageRows, rules);
    return new Map([...statuses].map(([key, status]) => [key.slice(sourceAccountId.length + 1), status]));
  }

  #checkTarget(accounts: readonly AccountView[], target: TargetContext): void {
    const account = accounts.find((candidate) => candidate.id === target.accountId);
    if (!account) throw new WorkspaceError('not_found', 'No such target account.');
    if (account.provider !== target.provider) throw new WorkspaceError('invalid', `The target account is a ${account.provider} account, not ${target.provider}.`);
  }

  async #statuses(ownerId: string, model: WorkspaceModel, target: TargetContext, lineageRows: Record<string, unknown>[], rules: Record<string, unknown>[]): Promise<Map<string, MigrationStatus>> {
    const sources = model.members.filter((member) => member.account.id !== target.accountId);
    const statuses = new Map<string, MigrationStatus>();
    if (sources.length === 0) return statuses;
    const migrated = new Map<string, Set<string>>();
    for (const row of await this.#deps.execute(selectMigratedTracks(ownerId, target.accountId, [...new Set(sources.map((member) => member.account.id))]))) {
      const key = memberKey(String(row['source_account_id']), String(row['source_playlist_id']));
      const set = migrated.get(key) ?? new Set<string>();
      set.add(String(row['source_track_id']));
      migrated.set(key, set);
    }
    const lineage = new Set(lineageRows.filter((row) => row['target_account_id'] === target.accountId).map((row) => memberKey(String(row['source_account_id']), String(row['source_playlist_id']))));
    const ruleOf = new Map<string, { id: string; status: string }>();
    for (const rule of rules) {
      if (rule['target_account_id'] !== target.accountId) continue;
      const key = memberKey(String(rule['source_account_id']), String(rule['source_playlist_id']));
      // A healthy rule speaks for the playlist even when another one is paused.
      if (!ruleOf.has(key) || rule['status'] === 'active') ruleOf.set(key, { id: String(rule['id']), status: String(rule['status']) });
    }
    for (const member of sources) {
      statuses.set(
        member.key,
        migrationStatus(target.accountId, {
          tracks: member.tracks ? trackIdsOf(member.tracks).map((id, index) => [id, member.tracks!.migratable[index] === 1] as const) : null,
          trackCount: member.summary.track_count,
          migratedIds: migrated.get(member.key) ?? new Set(),
          hasLineage: lineage.has(member.key),
          rule: ruleOf.get(member.key) ?? null,
        }),
      );
    }
    return statuses;
  }

  async #pairs(ownerId: string): Promise<UserPair[]> {
    return (await this.#deps.execute(selectPairs(ownerId))).map((row) => ({
      a: memberKey(String(row['a_account_id']), String(row['a_playlist_id'])),
      b: memberKey(String(row['b_account_id']), String(row['b_playlist_id'])),
      relation: row['relation'] as 'linked' | 'apart',
    }));
  }

  /** The current groups holding the given members (at least two distinct members, all known). */
  async #groupsOf(ownerId: string, keys: readonly string[]): Promise<string[][]> {
    const view = await this.workspace(ownerId);
    const groups: string[][] = [];
    for (const key of new Set(keys)) {
      const group = view.groups.find((candidate) => candidate.members.some((member) => member.key === key));
      if (!group) throw new WorkspaceError('not_found', `No playlist ${key} in the workspace (refresh its account first).`);
      const members = group.members.map((member) => member.key);
      if (!groups.some((known) => known[0] === members[0])) groups.push(members);
    }
    return groups;
  }

  async #cachedMember(ownerId: string, accounts: readonly AccountView[], key: string): Promise<CachedMember> {
    const slash = key.indexOf('/');
    const account = accounts.find((candidate) => candidate.id === key.slice(0, slash));
    if (slash > 0 && !account) return this.#importMember(ownerId, key.slice(0, slash), key.slice(slash + 1), key);
    if (slash < 0 || !account) throw new WorkspaceError('not_found', `No playlist ${key} in the workspace.`);
    const [row] = await this.#deps.execute(selectCache(ownerId, account.id, `playlist:${key.slice(slash + 1)}`));
    if (!row) throw new WorkspaceError('not_read', `The songs of ${key} have not been read yet: refresh its account first.`);
    return { account, playlist: row['payload'] as Playlist };
  }

  /** An import's playlist, from its record (named as migrations name it); absent, expired or another owner's: not found. */
  async #importMember(ownerId: string, importId: string, collectionId: string, key: string): Promise<CachedMember> {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
    const [row] = uuid.test(importId) ? await this.#deps.execute(selectImportRecord(ownerId, importId)) : [];
    if (!row || row['expired'] === true) throw new WorkspaceError('not_found', `No playlist ${key} in the workspace.`);
    const playlists = expandPlaylists(row['playlists'] as unknown[]);
    const index = importCollectionIds(playlists).indexOf(collectionId);
    if (index < 0) throw new WorkspaceError('not_found', `No playlist ${key} in the workspace.`);
    const label = typeof row['source_label'] === 'string' ? row['source_label'] : `${String(row['kind'])} import`;
    return { account: { id: importId, provider: IMPORT_PROVIDER, display_name: label, account_label: null }, playlist: playlists[index]! };
  }
}

/** One member's playlist with its holder: a connected account, or an import. */
interface CachedMember {
  account: MemberSource | AccountView;
  playlist: Playlist;
}

function isAccount(source: MemberSource | AccountView): source is AccountView {
  return source.provider !== IMPORT_PROVIDER && 'plugin_id' in source;
}

function groupingMember(member: ModelMember) {
  return {
    key: member.key,
    accountId: member.account.id,
    name: member.summary.name,
    kind: member.summary.kind,
    identities: member.tracks?.distinct ?? null,
  };
}

function lineageEvidence(model: WorkspaceModel, lineageRows: Record<string, unknown>[], rules: Record<string, unknown>[]): Evidence[] {
  const names = new Map(model.members.map((member) => [member.key, `${member.summary.name} (${member.account.provider})`]));
  const evidence: Evidence[] = [];
  for (const row of lineageRows) {
    const a = memberKey(String(row['source_account_id']), String(row['source_playlist_id']));
    const b = memberKey(String(row['target_account_id']), String(row['target_playlist_id']));
    if (!names.has(a) || !names.has(b)) continue;
    const jobId = typeof row['job_id'] === 'string' ? row['job_id'] : undefined;
    evidence.push({ kind: jobId ? 'migration' : 'sync_rule', a, b, detail: `Migrated from ${names.get(a)} to ${names.get(b)}.`, ...(jobId ? { jobId } : {}) });
  }
  for (const rule of rules) {
    const a = memberKey(String(rule['source_account_id']), String(rule['source_playlist_id']));
    const b = memberKey(String(rule['target_account_id']), String(rule['target_playlist_id']));
    if (!names.has(a) || !names.has(b)) continue;
    evidence.push({ kind: 'sync_rule', a, b, detail: `A sync rule (${String(rule['status'])}) copies ${names.get(a)} into ${names.get(b)}.` });
  }
  return evidence;
}

function groupView(members: readonly ModelMember[], reasons: readonly Evidence[], statuses: ReadonlyMap<string, MigrationStatus>): GroupView {
  const songs = new Set<number>();
  const own = members.map((member) => member.tracks?.distinct ?? new Set<number>());
  for (const set of own) for (const song of set) songs.add(song);
  const keys = members.map((member) => member.key).sort();
  const name = [...members].sort((x, y) => (y.tracks?.ids.length ?? -1) - (x.tracks?.ids.length ?? -1))[0]!.summary.name;
  return {
    id: createHash('sha256').update(keys.join('\n')).digest('hex').slice(0, 16),
    name,
    songs: songs.size,
    members: members.map((member, index) => ({
      key: member.key,
      account_id: member.account.id,
      provider: member.account.provider,
      account_name: member.account.display_name ?? member.account.account_label,
      playlist_id: member.summary.id!,
      name: member.summary.name,
      kind: member.summary.kind,
      track_count: member.tracks?.ids.length ?? member.summary.track_count,
      tracks_read: member.tracks !== null,
      holds: own[index]!.size,
      missing: member.tracks ? songs.size - own[index]!.size : 0,
      unknown: member.tracks?.unknown ?? 0,
      status: statuses.get(member.key) ?? null,
    })),
    reasons: reasons.map((reason) => ({ kind: reason.kind, members: [reason.a, reason.b], detail: reason.detail, job_id: reason.jobId ?? null })),
  };
}

function pairRow(x: string, y: string, relation: 'linked' | 'apart'): PairRow {
  const [a, b] = x < y ? [x, y] : [y, x];
  const split = (key: string) => [key.slice(0, key.indexOf('/')), key.slice(key.indexOf('/') + 1)] as const;
  const [aAccountId, aPlaylistId] = split(a);
  const [bAccountId, bPlaylistId] = split(b);
  return { aAccountId, aPlaylistId, bAccountId, bPlaylistId, relation };
}

function diffTrack(track: Playlist['tracks'][number], index: number, provider: string): DiffTrack {
  return { position: track.position ?? index, title: track.title, artist: track.artist, album: track.album, isrc: track.isrc, track_id: track.id ?? null, uri: track.provider_uris[provider] ?? null };
}

export type { PlaylistSummary };
