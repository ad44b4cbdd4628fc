import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAvailableOn, seedCatalog, type SeedTrack } from '../../fakes/seed-catalog.ts';
import type { RecordedFakeRequest } from '../../fakes/fake-provider.ts';
import { startSyncHarness, type SyncHarness } from '../sync/sync-harness.ts';

/**
 * The Library workspace through HTTP against the Spotify and TIDAL fakes: playlists grouped by a
 * migration, by name plus songs in common and by songs alone, never by a name whose songs differ;
 * the user's split and join surviving refreshes; migration status after a partial migration, a
 * rerun, a sync run, and a snapshot restore that must not count; and not one provider request
 * while the workspace or a diff is built.
 */

const catalog = seedCatalog();
const songs = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && track.isrc !== null && isAvailableOn(track, 'spotify') && isAvailableOn(track, 'tidal'));
const noIsrc = [...catalog.tracks.values()].find((track) => track.mediaType === 'track' && track.isrc === null && isAvailableOn(track, 'spotify'))!;
const keys = (tracks: readonly SeedTrack[]) => tracks.map((track) => track.key);

interface MemberJson {
  key: string;
  provider: string;
  playlist_id: string;
  name: string;
  tracks_read: boolean;
  holds: number;
  missing: number;
  unknown: number;
  status: { state: string; migrated: number; total: number; exact: boolean; sync_rule: { id: string; status: string } | null } | null;
}
interface GroupJson {
  id: string;
  name: string;
  songs: number;
  members: MemberJson[];
  reasons: { kind: string; members: [string, string]; detail: string; job_id: string | null }[];
}
interface WorkspaceJson {
  accounts: { account_id: string; provider: string; fetched_at: string | null; playlists: number; tracks_read: number }[];
  groups: GroupJson[];
}

let h: SyncHarness;
let tidalIds: Record<string, string> = {};

beforeAll(async () => {
  h = await startSyncHarness({
    spotifyLibrary: {
      playlists: [
        { name: 'Road Trip', trackKeys: keys(songs.slice(0, 6)) },
        { name: 'Chill Evening', trackKeys: keys(songs.slice(6, 12)) },
        { name: 'Workout', trackKeys: [...keys(songs.slice(12, 17)), noIsrc.key] },
        { name: 'Partial Set', trackKeys: keys(songs.slice(17, 23)) },
        { name: 'Synced', trackKeys: keys(songs.slice(23, 27)) },
        { name: 'Restored', trackKeys: keys(songs.slice(27, 31)) },
      ],
    },
    tidalLibrary: {
      playlists: [
        // Same name once normalised, two of six songs in common: name plus overlap.
        { name: 'chill  evening!', trackKeys: [...keys(songs.slice(6, 8)), ...keys(songs.slice(32, 36))] },
        // Same name, no song in common: not the same playlist.
        { name: 'Workout', trackKeys: keys(songs.slice(40, 45)) },
        // Another name, four of five songs in common: the same playlist by its songs.
        { name: 'Gym Rotation', trackKeys: [...keys(songs.slice(12, 16)), songs[45]!.key] },
      ],
    },
  });
  tidalIds = Object.fromEntries(h.tidal.playlistsOf(h.tidalUser.userId).map((playlist) => [playlist.name, playlist.id]));
}, 300_000);

afterAll(async () => {
  await h?.close();
});

async function requestsDuring<T>(work: () => Promise<T>): Promise<{ result: T; requests: RecordedFakeRequest[] }> {
  const spotifyFrom = h.spotify.requests.length;
  const tidalFrom = h.tidal.requests.length;
  const result = await work();
  return { result, requests: [...h.spotify.requests.slice(spotifyFrom), ...h.tidal.requests.slice(tidalFrom)] };
}

async function workspace(target = false): Promise<WorkspaceJson> {
  const query = target ? `?target_provider=tidal&target_account_id=${h.tidalAccount}` : '';
  const { result, requests } = await requestsDuring(() => h.api(`/api/library/workspace${query}`));
  expect(result.status, result.text).toBe(200);
  // Built from the caches, the graph and the ledger: not one provider request, let alone a search.
  expect(requests).toEqual([]);
  return result.json as WorkspaceJson;
}

async function refresh(account: string, full = false): Promise<{ read: number; unchanged: number; playlists: number }> {
  const response = await h.api(`/api/library/accounts/${account}/refresh`, { method: 'POST', body: JSON.stringify({ full }) });
  expect(response.status, response.text).toBe(200);
  return response.json as { read: number; unchanged: number; playlists: number };
}

const spotifyKey = (name: string) => `${h.spotifyAccount}/${h.spotifyPlaylistId(name)}`;
const tidalKey = (name: string) => `${h.tidalAccount}/${tidalIds[name]}`;
const groupOf = (view: WorkspaceJson, key: string) => view.groups.find((group) => group.members.some((member) => member.key === key))!;
const memberOf = (view: WorkspaceJson, key: string) => groupOf(view, key).members.find((member) => member.key === key)!;
const together = (view: WorkspaceJson, a: string, b: string) => groupOf(view, a).id === groupOf(view, b).id;
const reasonKinds = (group: GroupJson) => [...new Set(group.reasons.map((reason) => reason.kind))].sort();

describe('grouping', () => {
  it('lists nothing before an account is refreshed; a refresh reads each playlist once, and again only what changed', async () => {
    const empty = await workspace();
    expect(empty.accounts.map((account) => [account.provider, account.fetched_at])).toEqual(expect.arrayContaining([['spotify', null], ['tidal', null]]));
    expect(empty.groups).toEqual([]);

    const first = await requestsDuring(() => refresh(h.spotifyAccount));
    expect(first.result).toMatchObject({ playlists: 7, read: 7, unchanged: 0 });
    expect(first.requests.filter((request) => request.path.includes('search'))).toEqual([]);
    expect(await refresh(h.tidalAccount)).toMatchObject({ playlists: 4, read: 4, unchanged: 0 });
    // Nothing changed: the list is read again, no playlist's tracks are — only the liked songs,
    // which have no snapshot id, change time or count to tell a change by.
    const again = await requestsDuring(() => refresh(h.spotifyAccount));
    expect(again.result).toMatchObject({ playlists: 7, read: 1, unchanged: 6 });
    expect(again.requests.filter((request) => request.path === '/v1/me/tracks')).not.toEqual([]);
    expect(again.requests.some((request) => /\/v1\/playlists\/[^/]+\/items/.test(request.path))).toBe(false);
  }, 120_000);

  it('groups by name plus songs, by songs alone, the liked collections, and never by a name whose songs differ', async () => {
    const view = await workspace();
    expect(view.accounts.find((account) => account.provider === 'spotify')).toMatchObject({ playlists: 7, tracks_read: 7 });

    const chill = groupOf(view, spotifyKey('Chill Evening'));
    expect(chill.members.map((member) => member.key).sort()).toEqual([spotifyKey('Chill Evening'), tidalKey('chill  evening!')].sort());
    expect(reasonKinds(chill)).toEqual(['same_name']);
    expect(chill.songs).toBe(10);
    expect(memberOf(view, spotifyKey('Chill Evening'))).toMatchObject({ tracks_read: true, holds: 6, missing: 4, unknown: 0 });

    const workout = groupOf(view, spotifyKey('Workout'));
    expect(workout.members.map((member) => member.key).sort()).toEqual([spotifyKey('Workout'), tidalKey('Gym Rotation')].sort());
    expect(reasonKinds(workout)).toEqual(['track_overlap']);
    expect(workout.reasons[0]!.detail).toContain('4 of 5');
    // The song without an ISRC nobody has matched yet cannot be compared.
    expect(memberOf(view, spotifyKey('Workout'))).toMatchObject({ holds: 5, unknown: 1 });
    expect(groupOf(view, tidalKey('Workout')).members).toHaveLength(1);
    expect(together(view, spotifyKey('Workout'), tidalKey('Workout'))).toBe(false);

    expect(together(view, `${h.spotifyAccount}/liked`, `${h.tidalAccount}/liked`)).toBe(true);
    expect(reasonKinds(groupOf(view, `${h.spotifyAccount}/liked`))).toEqual(['liked_collections']);
  });

  it('links a playlist to the one a migration wrote', async () => {
    const jobId = await h.migrate(h.spotifyAccount, h.spotifyPlaylistId('Road Trip'), 'tidal', h.tidalAccount);
    // The write made the target's cache stale; the refresh reads what the migration created.
    await refresh(h.tidalAccount);
    tidalIds = Object.fromEntries(h.tidal.playlistsOf(h.tidalUser.userId).map((playlist) => [playlist.name, playlist.id]));
    const view = await workspace();
    const road = groupOf(view, spotifyKey('Road Trip'));
    expect(road.members.map((member) => member.key).sort()).toEqual([spotifyKey('Road Trip'), tidalKey('Road Trip')].sort());
    // The migration a sync rule can start from comes with the reason.
    expect(road.reasons.find((reason) => reason.kind === 'migration')).toMatchObject({ members: [spotifyKey('Road Trip'), tidalKey('Road Trip')], job_id: jobId });
    expect(road.members.map((member) => [member.holds, member.missing])).toEqual([
      [6, 0],
      [6, 0],
    ]);
  }, 120_000);

  it("keeps a user's split and join across refreshes", async () => {
    const split = await h.api('/api/library/groups/split', { method: 'POST', body: JSON.stringify({ members: [tidalKey('chill  evening!')] }) });
    expect(split.status, split.text).toBe(200);
    expect(together(split.json as WorkspaceJson, spotifyKey('Chill Evening'), tidalKey('chill  evening!'))).toBe(false);
    await refresh(h.spotifyAccount, true);
    await refresh(h.tidalAccount, true);
    expect(together(await workspace(), spotifyKey('Chill Evening'), tidalKey('chill  evening!'))).toBe(false);

    const joined = await h.api('/api/library/groups/join', { method: 'POST', body: JSON.stringify({ members: [spotifyKey('Workout'), tidalKey('Workout')] }) });
    expect(joined.status, joined.text).toBe(200);
    await refresh(h.tidalAccount, true);
    const view = await workspace();
    const workout = groupOf(view, spotifyKey('Workout'));
    expect(workout.members.map((member) => member.key).sort()).toEqual([spotifyKey('Workout'), tidalKey('Workout'), tidalKey('Gym Rotation')].sort());
    expect(reasonKinds(workout)).toEqual(['track_overlap', 'user_link']);

    // Joining the split pair again undoes the split.
    const rejoined = await h.api('/api/library/groups/join', { method: 'POST', body: JSON.stringify({ members: [spotifyKey('Chill Evening'), tidalKey('chill  evening!')] }) });
    expect(together(rejoined.json as WorkspaceJson, spotifyKey('Chill Evening'), tidalKey('chill  evening!'))).toBe(true);
    // Nothing to join or split, and unknown members, are refused.
    expect((await h.api('/api/library/groups/join', { method: 'POST', body: JSON.stringify({ members: [spotifyKey('Chill Evening'), tidalKey('chill  evening!')] }) })).status).toBe(422);
    expect((await h.api('/api/library/groups/split', { method: 'POST', body: JSON.stringify({ members: [`${h.tidalAccount}/nope`] }) })).status).toBe(404);
    expect((await h.api('/api/library/groups/split', { method: 'POST', body: JSON.stringify({ members: ['not a member'] }) })).status).toBe(400);
    // Grouping changed nothing on the providers.
    expect(h.tidal.playlistsOf(h.tidalUser.userId).map((playlist) => playlist.name).sort()).toEqual(['Gym Rotation', 'Road Trip', 'Workout', 'chill  evening!']);
  }, 120_000);

  it('compares two members by identity without a provider request', async () => {
    const { result, requests } = await requestsDuring(() => h.api(`/api/library/diff?a=${encodeURIComponent(spotifyKey('Workout'))}&b=${encodeURIComponent(tidalKey('Gym Rotation'))}`));
    expect(result.status, result.text).toBe(200);
    expect(requests).toEqual([]);
    const diff = result.json as { only_a: { title: string }[]; only_b: { title: string }[]; both: unknown[]; moved: unknown[]; not_compared: { a: { title: string }[]; b: unknown[] } };
    expect(diff.only_a.map((track) => track.title)).toEqual([songs[16]!.title]);
    expect(diff.only_b.map((track) => track.title)).toEqual([songs[45]!.title]);
    expect(diff.both).toHaveLength(4);
    expect(diff.moved).toEqual([]);
    expect(diff.not_compared.a.map((track) => track.title)).toEqual([noIsrc.title]);
    expect(diff.not_compared.b).toEqual([]);
  });
});

describe('migration status against a target account', () => {
  const statusOf = async (name: string) => memberOf(await workspace(true), spotifyKey(name)).status;

  it('after a partial migration, a rerun and a sync run; a snapshot restore does not count', async () => {
    expect(await statusOf('Partial Set')).toMatchObject({ state: 'not_migrated', migrated: 0, total: 6, exact: true, sync_rule: null });
    expect(await statusOf('Road Trip')).toMatchObject({ state: 'migrated', migrated: 6, total: 6 });

    const partial = h.spotifyPlaylistId('Partial Set');
    const started = await h.api('/api/migrations', {
      method: 'POST',
      body: JSON.stringify({ source_account_id: h.spotifyAccount, target_provider: 'tidal', target_account_id: h.tidalAccount, selection: { playlist_ids: [partial], tracks: { [partial]: ['pos:0', 'pos:1', 'pos:2'] } }, acknowledge_warnings: true }),
    });
    expect(started.status, started.text).toBe(202);
    await h.waitForJob((started.json as { id: string }).id, (job) => job.status === 'completed');
    expect(await statusOf('Partial Set')).toMatchObject({ state: 'partially_migrated', migrated: 3, total: 6 });
    // Coverage, once TIDAL is read again: its copy (linked by the migration) holds three of the six songs.
    const tidalCopy = (view: WorkspaceJson) => groupOf(view, spotifyKey('Partial Set')).members.find((member) => member.provider === 'tidal');
    await refresh(h.tidalAccount);
    expect(tidalCopy(await workspace())).toMatchObject({ holds: 3, missing: 3 });

    // The same on the playlist reads, given the target context.
    const listed = await h.api(`/api/playlists?account_id=${h.spotifyAccount}&target_provider=tidal&target_account_id=${h.tidalAccount}`);
    expect(listed.status, listed.text).toBe(200);
    const entries = (listed.json as { playlists: { id: string; migration_status: { state: string; migrated: number; total: number } | null }[] }).playlists;
    expect(entries.find((entry) => entry.id === partial)!.migration_status).toMatchObject({ state: 'partially_migrated', migrated: 3, total: 6 });
    expect(entries.find((entry) => entry.id === h.spotifyPlaylistId('Workout'))!.migration_status).toMatchObject({ state: 'not_migrated' });
    const one = await h.api(`/api/playlists/${partial}?account_id=${h.spotifyAccount}&target_provider=tidal&target_account_id=${h.tidalAccount}`);
    expect((one.json as { playlist: { migration_status: unknown } }).playlist.migration_status).toMatchObject({ state: 'partially_migrated', migrated: 3, total: 6 });
    // Without a target context nothing changes; a half context or the wrong provider is refused.
    expect(((await h.api(`/api/playlists?account_id=${h.spotifyAccount}`)).json as { playlists: Record<string, unknown>[] }).playlists[1]).not.toHaveProperty('migration_status');
    expect((await h.api(`/api/playlists?account_id=${h.spotifyAccount}&target_provider=tidal`)).status).toBe(400);
    expect((await h.api(`/api/library/workspace?target_provider=deezer&target_account_id=${h.tidalAccount}`)).status).toBe(422);

    // The rerun of the whole playlist writes the rest (the first three are skipped as already there).
    await h.migrate(h.spotifyAccount, partial, 'tidal', h.tidalAccount);
    expect(await statusOf('Partial Set')).toMatchObject({ state: 'migrated', migrated: 6, total: 6 });
    await refresh(h.tidalAccount);
    expect(tidalCopy(await workspace())).toMatchObject({ holds: 6, missing: 0 });

    // A sync rule keeps a playlist in sync; its run's job counts in the ledger like any other.
    const synced = h.spotifyPlaylistId('Synced');
    const jobId = await h.migrate(h.spotifyAccount, synced, 'tidal', h.tidalAccount);
    const rule = await h.createRule(jobId);
    expect(await statusOf('Synced')).toMatchObject({ state: 'in_sync', migrated: 4, total: 4, sync_rule: { id: rule.id, status: 'active' } });
    await h.spotifyAdd(synced, [h.spotify.uriOf(songs[50]!.key)!]);
    await refresh(h.spotifyAccount);
    expect(await statusOf('Synced')).toMatchObject({ state: 'in_sync', migrated: 4, total: 5 });
    const run = await h.api(`/api/syncs/${rule.id}/run`, { method: 'POST' });
    expect(run.status, run.text).toBe(202);
    expect(await h.waitRun(rule.id, (run.json as { id: string }).id)).toMatchObject({ status: 'completed' });
    expect(await statusOf('Synced')).toMatchObject({ state: 'in_sync', migrated: 5, total: 5 });
    await refresh(h.tidalAccount);
    const syncedGroup = groupOf(await workspace(), spotifyKey('Synced'));
    expect(reasonKinds(syncedGroup)).toEqual(expect.arrayContaining(['migration', 'sync_rule']));
    // Coverage after the sync run: the TIDAL copy holds the song added since, like its source.
    expect(syncedGroup.songs).toBe(5);
    expect(syncedGroup.members.find((member) => member.provider === 'tidal')).toMatchObject({ holds: 5, missing: 0 });

    // A snapshot of "Restored" restored into TIDAL: an ordinary job, but not a live migration.
    const restoredId = h.spotifyPlaylistId('Restored');
    const profile = (await h.api('/api/snapshots/profiles', { method: 'POST', body: JSON.stringify({ name: 'Restored only', selection: { accounts: [{ account_id: h.spotifyAccount, collections: [restoredId] }] } }) })).json as { id: string };
    const queued = await h.api('/api/snapshots', { method: 'POST', body: JSON.stringify({ profile_id: profile.id }) });
    expect(queued.status, queued.text).toBe(202);
    const snapshotId = (queued.json as { id: string }).id;
    const until = Date.now() + 60_000;
    let snapshot: { status: string } = { status: 'queued' };
    while (Date.now() < until && !['completed', 'partial', 'failed'].includes(snapshot.status)) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      snapshot = (await h.api(`/api/snapshots/${snapshotId}`)).json as { status: string };
    }
    expect(snapshot.status).toBe('completed');
    const restore = await h.api('/api/migrations', {
      method: 'POST',
      body: JSON.stringify({ source_provider: 'snapshot', source_account_id: snapshotId, source_snapshot_id: snapshotId, target_provider: 'tidal', target_account_id: h.tidalAccount, selection: { playlist_ids: [`s1:${restoredId}`] }, acknowledge_warnings: true }),
    });
    expect(restore.status, restore.text).toBe(202);
    expect((await h.waitForJob((restore.json as { id: string }).id, (job) => ['completed', 'failed'].includes(job.status))).status).toBe('completed');
    expect(h.tidal.playlistsOf(h.tidalUser.userId).some((playlist) => playlist.name === 'Restored')).toBe(true);
    await refresh(h.tidalAccount);
    const view = await workspace(true);
    expect(memberOf(view, spotifyKey('Restored')).status).toMatchObject({ state: 'not_migrated', migrated: 0, total: 4 });
    // Its songs may make the two look alike, but no migration links them.
    expect(groupOf(view, spotifyKey('Restored')).reasons.map((reason) => reason.kind)).not.toContain('migration');
  }, 300_000);
});
