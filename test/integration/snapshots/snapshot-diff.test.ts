import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotCommand } from '../../../core/cli/snapshot.command.ts';
import { loadConfig } from '../../../core/config/index.ts';
import { SnapshotError } from '../../../core/services/snapshots/index.ts';
import { isAvailableOn, seedCatalog, type SeedTrack } from '../../fakes/seed-catalog.ts';
import { startMigrationHarness, type MigrationHarness } from '../migrations/migration-harness.ts';

/**
 * Track-level diffs of snapshots through HTTP against the Spotify fake (issue 30 item 7): two
 * snapshots taken by the real job around changes made on the provider, and a snapshot against the
 * live playlist read again through the plugin.
 */

const catalog = seedCatalog();
const songs = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'spotify'));
const keys = (tracks: readonly SeedTrack[]) => tracks.map((track) => track.key);

interface DiffEntry {
  position?: number;
  from?: number;
  to?: number;
  track: { identity: string; id: string | null; title: string };
}
interface CollectionDiffJson {
  key: string;
  name: string;
  status: string;
  from: { restore_id: string | null; item_count: number } | null;
  to: { restore_id: string | null; item_count: number } | null;
  counts: { added: number; removed: number; moved: number; unchanged: number };
  added: DiffEntry[];
  removed: DiffEntry[];
  moved: DiffEntry[];
  truncated: boolean;
}
interface DiffJson {
  from: { snapshot_id: string };
  to: { snapshot_id: string | null; created_at: string };
  collections: CollectionDiffJson[];
}
interface SnapshotJson {
  id: string;
  status: string;
  completed_at: string;
  collections: { restore_id: string; name: string }[];
}

let h: MigrationHarness;
let road = '';
let profileId = '';

const titleOf = (index: number) => songs[index]!.title;

async function takeSnapshot(): Promise<SnapshotJson> {
  const queued = await h.api('/api/snapshots', { method: 'POST', body: JSON.stringify({ profile_id: profileId }) });
  expect(queued.status, queued.text).toBe(202);
  for (let attempt = 0; attempt < 240; attempt += 1) {
    const snapshot = (await h.api(`/api/snapshots/${(queued.json as SnapshotJson).id}`)).json as SnapshotJson;
    if (!['queued', 'running'].includes(snapshot.status)) return snapshot;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the snapshot never finished');
}

/** Replaces the playlist's items on the provider, as the user would in the provider's own app. */
async function setProviderPlaylist(indexes: number[]): Promise<void> {
  const response = await fetch(`${h.spotify.baseUrl}/v1/playlists/${road}/items`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${h.spotifyUser.accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ uris: indexes.map((index) => h.spotify.uriOf(songs[index]!.key)) }),
  });
  expect(response.status).toBe(200);
}

const byName = (diff: DiffJson, name: string) => diff.collections.find((collection) => collection.name === name)!;

beforeAll(async () => {
  h = await startMigrationHarness({
    spotifyLibrary: {
      playlists: [
        { name: 'Road Songs', trackKeys: keys(songs.slice(0, 5)) },
        { name: 'Quiet Hours', trackKeys: keys(songs.slice(5, 8)) },
      ],
      likedTrackKeys: keys(songs.slice(8, 10)),
      savedAlbumKeys: [...catalog.albums.keys()].slice(0, 3),
      followedArtistKeys: [...catalog.artists.keys()].slice(0, 2),
    },
    tidalLibrary: {},
  });
  const { json } = await h.api(`/api/playlists?account_id=${h.spotifyAccount}`);
  const ids = Object.fromEntries((json as { playlists: { id: string; name: string }[] }).playlists.map((playlist) => [playlist.name, playlist.id]));
  road = ids['Road Songs']!;
  const created = await h.api('/api/snapshots/profiles', { method: 'POST', body: JSON.stringify({ name: 'Diffed', selection: { accounts: [{ account_id: h.spotifyAccount, collections: ['liked', road, ids['Quiet Hours']] }] } }) });
  expect(created.status, created.text).toBe(201);
  profileId = (created.json as { id: string }).id;
}, 300_000);

afterAll(async () => {
  await h?.close();
});

async function runCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const scratch = await mkdtemp(join(tmpdir(), 'opl-snapshot-diff-'));
  try {
    let stdout = '';
    let stderr = '';
    const code = await snapshotCommand(args, loadConfig({ OPL_DATA_DIR: scratch }), { stdout: { write: (text: string) => (stdout += text) }, stderr: { write: (text: string) => (stderr += text) } });
    return { code, stdout, stderr };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

describe('snapshot diffs', () => {
  let older: SnapshotJson;
  let newer: SnapshotJson;

  it('between two snapshots: per collection, the songs added, removed and moved, by track identity', async () => {
    older = await takeSnapshot();
    expect(older.status).toBe('completed');
    // 0 1 2 3 4  →  20 4 0 2 3: song 20 added at the top, song 1 removed, song 4 moved up.
    await setProviderPlaylist([20, 4, 0, 2, 3]);
    newer = await takeSnapshot();

    const { status, json, text } = await h.api(`/api/snapshots/${older.id}/diff?against=${newer.id}`);
    expect(status, text).toBe(200);
    const diff = json as DiffJson;
    expect(diff.from.snapshot_id).toBe(older.id);
    expect(diff.to.snapshot_id).toBe(newer.id);
    const roadDiff = byName(diff, 'Road Songs');
    expect(roadDiff).toMatchObject({ status: 'changed', counts: { added: 1, removed: 1, moved: 1, unchanged: 3 }, truncated: false, from: { item_count: 5 }, to: { item_count: 5 } });
    expect(roadDiff.added.map((entry) => [entry.position, entry.track.title])).toEqual([[0, titleOf(20)]]);
    expect(roadDiff.removed.map((entry) => [entry.position, entry.track.title])).toEqual([[1, titleOf(1)]]);
    expect(roadDiff.moved.map((entry) => [entry.from, entry.to, entry.track.title])).toEqual([[4, 1, titleOf(4)]]);
    expect(roadDiff.added[0]!.track.identity).toMatch(/^id:/);
    expect(byName(diff, 'Quiet Hours')).toMatchObject({ status: 'unchanged', counts: { added: 0, removed: 0, moved: 0, unchanged: 3 } });
    expect(diff.collections.find((collection) => collection.key.endsWith(':liked'))).toMatchObject({ status: 'unchanged' });

    // One collection only, and the lists capped by `limit` while the counts stay whole.
    const restoreId = older.collections.find((collection) => collection.name === 'Road Songs')!.restore_id;
    const one = await h.api(`/api/snapshots/${older.id}/collections/${encodeURIComponent(restoreId)}/diff?against=${newer.id}&limit=1`);
    expect(one.status, one.text).toBe(200);
    expect((one.json as DiffJson).collections).toHaveLength(1);
    const reversed = await h.api(`/api/snapshots/${newer.id}/diff?against=${older.id}&limit=1`);
    expect(byName(reversed.json as DiffJson, 'Road Songs')).toMatchObject({ counts: { added: 1, removed: 1, moved: 1 } });
  });

  it('against the live playlist, read again through the plugin: a duplicate copy is one addition', async () => {
    await setProviderPlaylist([20, 4, 0, 2, 3, 2]);
    const restoreId = newer.collections.find((collection) => collection.name === 'Road Songs')!.restore_id;
    const { status, json, text } = await h.api(`/api/snapshots/${newer.id}/collections/${encodeURIComponent(restoreId)}/diff?against=live`);
    expect(status, text).toBe(200);
    const diff = json as DiffJson;
    expect(diff.to.snapshot_id).toBeNull();
    expect(diff.collections).toHaveLength(1);
    expect(diff.collections[0]).toMatchObject({ name: 'Road Songs', status: 'changed', counts: { added: 1, removed: 0, moved: 0, unchanged: 5 }, from: { restore_id: restoreId, item_count: 5 }, to: { restore_id: null, item_count: 6 } });
    expect(diff.collections[0]!.added.map((entry) => [entry.position, entry.track.title])).toEqual([[5, titleOf(2)]]);

    // The account may be named; one of another provider is refused.
    const named = await h.api(`/api/snapshots/${newer.id}/collections/${encodeURIComponent(restoreId)}/diff?against=live&account_id=${h.spotifyAccount}`);
    expect(named.status, named.text).toBe(200);
    const wrong = await h.api(`/api/snapshots/${newer.id}/collections/${encodeURIComponent(restoreId)}/diff?against=live&account_id=${h.tidalAccount}`);
    expect(wrong.status, wrong.text).toBe(422);
  });

  it('opl snapshot diff prints the changes, against a snapshot or the live playlist', async () => {
    const between = await runCli(['diff', older.id, '--against', newer.id, '--url', h.baseUrl]);
    expect(between.code, between.stderr).toBe(0);
    expect(between.stdout).toContain(`to snapshot ${newer.id}`);
    expect(between.stdout).toContain('Road Songs: 1 added, 1 removed, 1 moved, 3 in place');
    const line = (start: string) => between.stdout.split('\n').find((text) => text.startsWith(start)) ?? '';
    expect(line('  + 1. ').endsWith(` – ${titleOf(20)}`)).toBe(true);
    expect(line('  - 2. ').endsWith(` – ${titleOf(1)}`)).toBe(true);
    expect(line('  ~ 5 → 2. ').endsWith(` – ${titleOf(4)}`)).toBe(true);
    expect(between.stdout).toContain('Quiet Hours: 0 added, 0 removed, 0 moved, 3 in place');
    const restoreId = newer.collections.find((collection) => collection.name === 'Road Songs')!.restore_id;
    const live = await runCli(['diff', newer.id, '--against', 'live', '--collection', restoreId, '--json', '--url', h.baseUrl]);
    expect(live.code, live.stderr).toBe(0);
    expect(JSON.parse(live.stdout)).toMatchObject({ to: { snapshot_id: null }, collections: [{ counts: { added: 1 } }] });
    expect((await runCli(['diff', newer.id, '--against', 'live', '--url', h.baseUrl])).code).toBe(64);
    expect((await runCli(['diff', newer.id, '--url', h.baseUrl])).code).toBe(64);
    const unknown = await runCli(['diff', newer.id, '--against', '00000000-0000-4000-8000-000000000000', '--url', h.baseUrl]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('not_found');
  });

  it('finds a playlist as it was at a time, and restoring it brings back what was removed since', async () => {
    const asOf = (at: string, playlistId = road) => h.api(`/api/snapshots/as-of?account_id=${h.spotifyAccount}&playlist_id=${encodeURIComponent(playlistId)}&at=${encodeURIComponent(at)}`);
    const latest = await asOf(new Date(Date.now() + 60_000).toISOString());
    expect(latest.status, latest.text).toBe(200);
    expect(latest.json).toMatchObject({ snapshot: { id: newer.id }, item_count: 5 });
    const then = await asOf(older.completed_at);
    expect(then.status, then.text).toBe(200);
    const found = then.json as { snapshot: { id: string }; restore_id: string };
    expect(found.snapshot.id).toBe(older.id);
    expect(found.restore_id).toBe(`s1:${road}`);

    // Before any snapshot, or for a playlist none holds: a clear 404 with its reason.
    const before = await asOf(new Date(Date.parse(older.completed_at) - 3_600_000).toISOString());
    expect(before.status).toBe(404);
    expect(before.json).toMatchObject({ code: 'not_found', reason: 'no_snapshot_before' });
    expect((await asOf(older.completed_at, 'no-such-playlist')).status).toBe(404);
    expect((await asOf('yesterday')).status).toBe(400);

    // The ordinary restore, to the same account: song 1, removed since, is back in the playlist.
    const removedUri = h.spotify.uriOf(songs[1]!.key)!;
    expect(h.spotify.playlist(road)!.uris).not.toContain(removedUri);
    const started = await h.api('/api/migrations', {
      method: 'POST',
      body: JSON.stringify({ source_provider: 'snapshot', source_account_id: found.snapshot.id, source_snapshot_id: found.snapshot.id, target_provider: 'spotify', target_account_id: h.spotifyAccount, selection: { playlist_ids: [found.restore_id] }, acknowledge_warnings: true }),
    });
    expect(started.status, started.text).toBe(202);
    const job = await h.waitForJob((started.json as { id: string }).id, (entry) => ['completed', 'failed', 'cancelled', 'awaiting_review', 'partial'].includes(entry.status), 120_000);
    expect(job.status, JSON.stringify(job)).toBe('completed');
    expect(h.spotify.playlist(road)!.uris).toContain(removedUri);
  });

  it('rewinds the playlist in place to how it was at a time: preview, confirmed removals, an automatic snapshot first, a ledger, verified; twice writes nothing', async () => {
    const uris = (indexes: number[]) => indexes.map((index) => h.spotify.uriOf(songs[index]!.key)!);
    // Changed after the older snapshot (0 1 2 3 4): song 20 added at the top, 4 moved up, 1 moved to the end.
    await setProviderPlaylist([20, 4, 0, 2, 3, 1]);
    const query = `account_id=${h.spotifyAccount}&playlist_id=${encodeURIComponent(road)}&at=${encodeURIComponent(older.completed_at)}`;
    const preview = await h.api(`/api/snapshots/rewind/preview?${query}`);
    expect(preview.status, preview.text).toBe(200);
    const plan = preview.json as { snapshot: { id: string }; method: string; counts: Record<string, number>; remove: { title: string; positions: number[] }[]; move: { title: string }[]; add: unknown[]; confirmation_required: boolean };
    expect(plan).toMatchObject({ snapshot: { id: older.id }, method: 'edit', counts: { remove: 1, move: 2, add: 0, result: 5, unrestorable: 0 }, confirmation_required: true });
    expect(plan.remove).toEqual([expect.objectContaining({ title: titleOf(20), positions: [0] })]);
    expect(plan.move.map((move) => move.title).sort()).toEqual([titleOf(1), titleOf(4)].sort());

    // Removals need confirming: without it nothing is written and no snapshot is taken.
    const body = { account_id: h.spotifyAccount, playlist_id: road, at: older.completed_at };
    const snapshotsBefore = ((await h.api('/api/snapshots')).json as { snapshots: unknown[] }).snapshots.length;
    const writesBefore = h.spotify.requests.filter((request) => request.method !== 'GET').length;
    const unconfirmed = await h.api('/api/snapshots/rewind', { method: 'POST', body: JSON.stringify(body) });
    expect(unconfirmed.status, unconfirmed.text).toBe(409);
    expect(unconfirmed.json).toMatchObject({ reason: 'confirmation_required' });
    expect(h.spotify.playlist(road)!.uris).toEqual(uris([20, 4, 0, 2, 3, 1]));
    expect(h.spotify.requests.filter((request) => request.method !== 'GET').length).toBe(writesBefore);
    expect(((await h.api('/api/snapshots')).json as { snapshots: unknown[] }).snapshots.length).toBe(snapshotsBefore);

    const done = await h.api('/api/snapshots/rewind', { method: 'POST', body: JSON.stringify({ ...body, confirm_removals: 1 }) });
    expect(done.status, done.text).toBe(200);
    const result = done.json as { rewind_id: string; status: string; automatic_snapshot_id: string; writes: { calls: number; removed: number; moved: number; replaced: boolean }; verified: boolean };
    expect(result).toMatchObject({ status: 'completed', verified: true, writes: { calls: 3, removed: 1, moved: 2, replaced: false } });
    expect(h.spotify.playlist(road)!.uris).toEqual(uris([0, 1, 2, 3, 4]));

    // The automatic snapshot holds the playlist as it was just before the rewind.
    const automatic = await h.api(`/api/snapshots/${result.automatic_snapshot_id}`);
    expect(automatic.json).toMatchObject({ status: 'completed', collections: [expect.objectContaining({ name: 'Road Songs', item_count: 6 })] });
    // Every provider write has its ledger row, settled.
    const ledger = await h.api(`/api/snapshots/rewinds/${result.rewind_id}`);
    expect(ledger.status, ledger.text).toBe(200);
    const rewind = ledger.json as { status: string; stats: { automatic_snapshot_id: string }; steps: { seq: number; kind: string; status: string }[] };
    expect(rewind.status).toBe('completed');
    expect(rewind.stats.automatic_snapshot_id).toBe(result.automatic_snapshot_id);
    expect(rewind.steps.map((step) => [step.seq, step.kind, step.status])).toEqual([[0, 'remove', 'done'], [1, 'move', 'done'], [2, 'move', 'done']]);

    // Twice: nothing to do, nothing written, no second automatic snapshot.
    const writesAfter = h.spotify.requests.filter((request) => request.method !== 'GET').length;
    const again = await h.api('/api/snapshots/rewind', { method: 'POST', body: JSON.stringify({ ...body, confirm_removals: 1 }) });
    expect(again.status, again.text).toBe(200);
    expect(again.json).toMatchObject({ status: 'unchanged', rewind_id: null, automatic_snapshot_id: null, writes: { calls: 0 }, preview: { method: 'none', counts: { remove: 0, move: 0, add: 0 } } });
    expect(h.spotify.requests.filter((request) => request.method !== 'GET').length).toBe(writesAfter);
    expect(h.spotify.playlist(road)!.uris).toEqual(uris([0, 1, 2, 3, 4]));
  });

  it('rewinds by replacement where edits cannot express the snapshot (an extra copy), and to a named snapshot; refusals change nothing', async () => {
    const uris = (indexes: number[]) => indexes.map((index) => h.spotify.uriOf(songs[index]!.key)!);
    // A second copy of song 4 and song 21 added: removing by song would take both copies of 4.
    await setProviderPlaylist([0, 1, 21, 2, 3, 4, 4]);
    const body = { account_id: h.spotifyAccount, playlist_id: road, snapshot_id: older.id };
    const preview = await h.api(`/api/snapshots/rewind/preview?account_id=${h.spotifyAccount}&playlist_id=${encodeURIComponent(road)}&snapshot_id=${older.id}`);
    expect(preview.json).toMatchObject({ method: 'replace', counts: { remove: 2, add: 0, result: 5 } });
    const short = await h.api('/api/snapshots/rewind', { method: 'POST', body: JSON.stringify({ ...body, confirm_removals: 1 }) });
    expect(short.status).toBe(409);
    const done = await h.api('/api/snapshots/rewind', { method: 'POST', body: JSON.stringify({ ...body, confirm_removals: 2 }) });
    expect(done.status, done.text).toBe(200);
    expect(done.json).toMatchObject({ status: 'completed', verified: true, writes: { calls: 1, replaced: true } });
    expect(h.spotify.playlist(road)!.uris).toEqual(uris([0, 1, 2, 3, 4]));

    // Both or neither of `at` and `snapshot_id`, unknown playlists, other owners: refused.
    expect((await h.api('/api/snapshots/rewind', { method: 'POST', body: JSON.stringify({ account_id: h.spotifyAccount, playlist_id: road }) })).status).toBe(400);
    expect((await h.api('/api/snapshots/rewind', { method: 'POST', body: JSON.stringify({ ...body, at: older.completed_at }) })).status).toBe(400);
    expect((await h.api(`/api/snapshots/rewind/preview?account_id=${h.spotifyAccount}&playlist_id=nope&snapshot_id=${older.id}`)).status).toBe(404);
    await expect(h.app.app.services.snapshots.rewinds.preview('someone-else', { accountId: h.spotifyAccount, playlistId: road, snapshotId: older.id })).rejects.toMatchObject({ code: 'not_found' });
    expect((await h.api('/api/snapshots/rewinds/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('opl snapshot rewind shows the preview, wants the removals confirmed, then rewinds', async () => {
    await setProviderPlaylist([3, 0, 1, 2, 4, 22]);
    const args = ['rewind', '--account', h.spotifyAccount, '--playlist', road, '--snapshot', older.id, '--url', h.baseUrl];
    const unconfirmed = await runCli(args);
    expect(unconfirmed.code, unconfirmed.stderr).toBe(1);
    expect(unconfirmed.stdout).toContain('1 removed, 1 moved, 0 added → 5 songs');
    expect(unconfirmed.stdout).toContain(`– ${titleOf(22)}`);
    expect(unconfirmed.stderr).toContain('--confirm-removals 1');
    expect(h.spotify.playlist(road)!.uris).toHaveLength(6);
    const done = await runCli([...args, '--confirm-removals', '1']);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toMatch(/Rewound \(2 provider writes, verified/);
    expect(h.spotify.playlist(road)!.uris).toEqual([0, 1, 2, 3, 4].map((index) => h.spotify.uriOf(songs[index]!.key)));
    const again = await runCli(['rewind', '--account', h.spotifyAccount, '--playlist', road, '--as-of', older.completed_at, '--dry-run', '--url', h.baseUrl]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('already as it was: nothing to do');
    expect((await runCli(['rewind', '--account', h.spotifyAccount, '--playlist', road, '--url', h.baseUrl])).code).toBe(64);
  });

  it('a rewind that fails midway leaves its ledger; the next one continues from the playlist as it is, never repeating a write', async () => {
    const uris = (indexes: number[]) => indexes.map((index) => h.spotify.uriOf(songs[index]!.key)!);
    await setProviderPlaylist([21, 4, 0, 1, 2, 3]);
    const body = { account_id: h.spotifyAccount, playlist_id: road, snapshot_id: older.id, confirm_removals: 1 };
    // The removal goes through; every move (a PUT of the items' order) fails.
    h.spotify.failNext({ kind: 'server_error', status: 503, method: 'PUT', pathPrefix: `/v1/playlists/${road}/items`, times: 1_000 });
    const failed = await h.api('/api/snapshots/rewind', { method: 'POST', body: JSON.stringify(body) });
    h.spotify.clearFailures();
    expect(failed.status, failed.text).toBeGreaterThanOrEqual(500);
    expect(h.spotify.playlist(road)!.uris).toEqual(uris([4, 0, 1, 2, 3]));
    const [row] = await h.app.app.services.sync.execute({ text: `select id from snapshot_rewind where playlist_id = ? order by created_at desc limit 1`, values: [road] });
    const ledger = (await h.api(`/api/snapshots/rewinds/${String(row!['id'])}`)).json as { status: string; steps: { kind: string; status: string }[] };
    expect(ledger.status).toBe('failed');
    expect(ledger.steps.map((step) => [step.kind, step.status])).toEqual([['remove', 'done'], ['move', 'failed']]);

    // Again: planned from the playlist read now: the one move left, no removal sent twice.
    const deletesBefore = h.spotify.requests.filter((request) => request.method === 'DELETE').length;
    const resumed = await h.api('/api/snapshots/rewind', { method: 'POST', body: JSON.stringify(body) });
    expect(resumed.status, resumed.text).toBe(200);
    expect(resumed.json).toMatchObject({ status: 'completed', verified: true, preview: { counts: { remove: 0, move: 1, add: 0 } }, writes: { calls: 1 } });
    expect(h.spotify.requests.filter((request) => request.method === 'DELETE').length).toBe(deletesBefore);
    expect(h.spotify.playlist(road)!.uris).toEqual(uris([0, 1, 2, 3, 4]));
  });

  it('keeps saved albums and followed artists where the provider advertises them: album and artist collections, verified like tracks, not restorable as songs', async () => {
    const created = await h.api('/api/snapshots/profiles', { method: 'POST', body: JSON.stringify({ name: 'Library', selection: { accounts: [{ account_id: h.spotifyAccount, collections: ['saved_albums', 'followed_artists'] }] } }) });
    expect(created.status, created.text).toBe(201);
    const queued = await h.api('/api/snapshots', { method: 'POST', body: JSON.stringify({ profile_id: (created.json as { id: string }).id }) });
    expect(queued.status, queued.text).toBe(202);
    let snapshot = queued.json as Omit<SnapshotJson, 'collections'> & { collections: { restore_id: string; kind: string; status: string; item_count: number }[] };
    await expect.poll(async () => (snapshot = (await h.api(`/api/snapshots/${snapshot.id}`)).json as typeof snapshot).status, { timeout: 60_000, interval: 250 }).toBe('completed');
    // The manifest's kind fixes the record type (album, artist) the verifier checks each line against.
    expect(snapshot.collections.map((entry) => [entry.kind, entry.status, entry.item_count])).toEqual([
      ['saved_albums', 'complete', 3],
      ['followed_artists', 'complete', 2],
    ]);
    // Verified again from the bytes (checksums and counts of album and artist records).
    const verified = await h.api(`/api/snapshots/${snapshot.id}/verify`, { method: 'POST', body: '{}' });
    expect(verified.status, verified.text).toBe(200);
    expect(verified.json).toMatchObject({ verification_reason: null });
    // A restore writes songs: album and artist collections are refused with a clear reason.
    const restore = await h.api('/api/migrations', {
      method: 'POST',
      body: JSON.stringify({ source_provider: 'snapshot', source_account_id: snapshot.id, source_snapshot_id: snapshot.id, target_provider: 'tidal', target_account_id: h.tidalAccount, selection: { playlist_ids: ['s1:saved_albums'] }, acknowledge_warnings: true }),
    });
    expect(restore.status, restore.text).toBeGreaterThanOrEqual(400);
    expect(restore.status).toBeLessThan(500);
  });

  it('refuses unknown ids, other owners and bad queries with problems', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await h.api(`/api/snapshots/${older.id}/diff?against=${unknown}`)).status).toBe(404);
    expect((await h.api(`/api/snapshots/${unknown}/diff?against=${older.id}`)).status).toBe(404);
    expect((await h.api(`/api/snapshots/${older.id}/collections/s9%3Anope/diff?against=live`)).status).toBe(404);
    const bad = await h.api(`/api/snapshots/${older.id}/diff?against=yesterday`);
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect((await h.api(`/api/snapshots/${older.id}/diff?against=${newer.id}&limit=0`)).status).toBe(400);

    // Another owner's ids are as unknown as ids nobody holds.
    const diffs = h.app.app.services.snapshots.diffs;
    await expect(diffs.between('someone-else', older.id, newer.id, { limit: 10 })).rejects.toMatchObject({ code: 'not_found' });
    await expect(diffs.againstLive('someone-else', older.id, 's1:liked', { limit: 10 })).rejects.toBeInstanceOf(SnapshotError);

  });
});
