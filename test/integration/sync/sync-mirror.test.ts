import { rename, rm, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedFakeRequest } from '../../fakes/fake-provider.ts';
import { isAvailableOn, seedCatalog } from '../../fakes/seed-catalog.ts';
import { startSyncHarness, type RuleJson, type RunJson, type SyncHarness } from './sync-harness.ts';

/**
 * Mirror sync runs end to end, TIDAL source → Spotify target, through HTTP against the fakes. The
 * source is changed the way TIDAL's app would (new entries, removals, a new order, a new
 * `lastModifiedAt`); the target must end in the source's order with the rule's own entries only
 * removed or moved — a song the owner added by hand stays where it is — reached with Spotify's
 * reorder call (no replacement), a removal cap that makes a run wait for approval, unmatched songs
 * reported and never deleting anything, and a failure in the middle of the writes converging on
 * the retry.
 */

const catalog = seedCatalog();
const onBoth = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'spotify') && isAvailableOn(track, 'tidal'));
const tidalOnly = [...catalog.tracks.values()].find((track) => track.mediaType === 'track' && isAvailableOn(track, 'tidal') && !isAvailableOn(track, 'spotify'))!;
const initial = onBoth.slice(0, 8);
const later = onBoth.slice(8, 11);
const byHand = onBoth[12]!;

let h: SyncHarness;
let sourceId = '';
let targetId = '';
let rule: RuleJson;

beforeAll(async () => {
  h = await startSyncHarness({ spotifyLibrary: {}, tidalLibrary: { playlists: [{ name: 'Evening', trackKeys: initial.map((track) => track.key) }] } });
  sourceId = h.tidalPlaylistId('Evening');
}, 300_000);

afterAll(async () => {
  await h?.close();
});

const spotifyUri = (key: string) => h.spotify.uriOf(key)!;
const targetUris = () => [...h.spotify.playlist(targetId)!.uris];
const sourceKeys = () => h.tidalKeys(sourceId);
/** The target as the source says it should be: the source's songs that Spotify has, in source order. */
const expectedFromSource = () => sourceKeys().filter((key) => isAvailableOn(catalog.tracks.get(key)!, 'spotify')).map(spotifyUri);

const editSource = (keys: readonly string[]) => h.tidalEdit(sourceId, keys);

async function preview(): Promise<Record<string, unknown> & { remove_count: number; move_count: number; add_count: number }> {
  const answer = await h.api(`/api/syncs/${rule.id}/preview`);
  expect(answer.status, answer.text).toBe(200);
  return answer.json as Record<string, unknown> & { remove_count: number; move_count: number; add_count: number };
}

async function spotifyWritesDuring(work: () => Promise<RunJson>): Promise<{ run: RunJson; writes: RecordedFakeRequest[] }> {
  const from = h.spotify.requests.length;
  const run = await work();
  return { run, writes: h.spotify.requests.slice(from).filter((request) => request.method !== 'GET' && request.path.startsWith(`/v1/playlists/${targetId}`)) };
}

describe('mirror sync runs', () => {
  it('a mirror rule is made where the target can remove and reorder, and previews nothing to do at first', async () => {
    ({ targetId, rule } = await h.ruleFrom({ account: h.tidalAccount, playlistId: sourceId }, { provider: 'spotify', account: h.spotifyAccount }, { mode: 'mirror' }));
    expect(targetUris()).toEqual(initial.map((track) => spotifyUri(track.key)));
    expect(rule).toMatchObject({ mode: 'mirror', status: 'active', mirror: { max_removals: 20, removes_foreign: false }, target: { provider: 'spotify', playlist_id: targetId } });
    expect(await preview()).toMatchObject({ can_mirror: true, add_count: 0, remove_count: 0, move_count: 0, foreign_entries: 0 });
  }, 300_000);

  it('adds, removals and a new order: the target ends in source order, by a few moves, and the owner\'s own song stays', async () => {
    await h.spotifyAdd(targetId, [spotifyUri(byHand.key)]);
    const keys = initial.map((track) => track.key);
    // Two songs added (one at the top), one removed, the last moved up to second place, one song Spotify lacks.
    const edited = [later[0]!.key, keys[7]!, ...keys.slice(0, 3), ...keys.slice(4, 7), later[1]!.key, tidalOnly.key];
    editSource(edited);
    const seen = await preview();
    expect(seen).toMatchObject({ add_count: 3, remove_count: 1, foreign_entries: 1, needs_approval: false });
    expect((seen['remove'] as { uri: string }[]).map((item) => item.uri)).toEqual([spotifyUri(keys[3]!)]);

    const { run, writes } = await spotifyWritesDuring(async () => h.runNow(rule.id));
    expect(run, JSON.stringify(run)).toMatchObject({ status: 'completed', stats: { mirror: 'done', removed: 1, replaced: false, unmatched: 1 } });
    expect(run.migration_job_id).not.toBeNull();
    const after = targetUris();
    expect(after.filter((uri) => uri !== spotifyUri(byHand.key))).toEqual(expectedFromSource());
    expect(after).toContain(spotifyUri(byHand.key));
    // Moves, not a rewrite: no replacement (PUT with uris), each move a PUT with a range.
    const puts = writes.filter((request) => request.method === 'PUT');
    expect(puts.length).toBe(run.stats['moved']);
    expect(puts.length).toBeGreaterThan(0);
    expect(puts.length).toBeLessThanOrEqual(3);
    for (const put of puts) expect(JSON.parse(put.body)).toHaveProperty('range_start');
    // The unmatched song is reported and changed nothing; the next preview has nothing left to do.
    expect(await preview()).toMatchObject({ remove_count: 0, move_count: 0, unmatched_count: 1, foreign_entries: 1 });
    // Before its first removal the run snapshotted the target as it was then: the 8 first songs,
    // the owner's own, and the 2 the run's add step had just added (the removed song still in it).
    const profiles = ((await h.api('/api/snapshots/profiles')).json as { profiles: { id: string; automatic: { origin: string; account_id: string } | null }[] }).profiles;
    const automatic = profiles.find((profile) => profile.automatic?.origin === 'sync');
    expect(automatic?.automatic).toEqual({ origin: 'sync', account_id: h.spotifyAccount });
    const taken = ((await h.api('/api/snapshots')).json as { snapshots: { id: string; profile_id: string; status: string; collections: { name: string; item_count: number; restore_id: string }[] }[] }).snapshots.filter((snapshot) => snapshot.profile_id === automatic!.id);
    expect(taken).toHaveLength(1);
    expect(taken[0]).toMatchObject({ status: 'completed', collections: [expect.objectContaining({ item_count: initial.length + 1 + 2 })] });
    const diff = await h.api(`/api/snapshots/${taken[0]!.id}/collections/${encodeURIComponent(taken[0]!.collections[0]!.restore_id)}/diff?against=live&account_id=${h.spotifyAccount}`);
    expect(diff.status, diff.text).toBe(200);
    expect((diff.json as { collections: { counts: { removed: number } }[] }).collections[0]!.counts.removed).toBe(1);
  }, 300_000);

  it('more removals than the rule allows: the run waits for approval, then removes exactly those', async () => {
    const patched = await h.api(`/api/syncs/${rule.id}`, { method: 'PATCH', body: JSON.stringify({ mirror: { max_removals: 1 } }) });
    expect(patched.status, patched.text).toBe(200);
    const before = targetUris();
    const keep = sourceKeys().slice(3);
    const dropped = sourceKeys().slice(0, 3);
    editSource(keep);
    expect(await preview()).toMatchObject({ remove_count: 2 + (isAvailableOn(catalog.tracks.get(dropped[2]!)!, 'spotify') ? 1 : 0), needs_approval: true });

    const waiting = await h.runNow(rule.id, ['approval_required', 'completed', 'failed']);
    expect(waiting, JSON.stringify(waiting)).toMatchObject({ status: 'approval_required', stats: { mirror: 'awaiting_approval', removal_cap: 1 } });
    expect(targetUris()).toEqual(before);
    const held = await h.rule(rule.id);
    expect(held).toMatchObject({ status: 'approval_required', action: { type: 'approve', run_id: waiting.id } });
    expect((await h.api(`/api/syncs/${rule.id}/run`, { method: 'POST' })).status).toBe(409);

    const approved = await h.api(`/api/syncs/${rule.id}/runs/${waiting.id}/approve`, { method: 'POST' });
    expect(approved.status, approved.text).toBe(202);
    const done = await h.waitRun(rule.id, waiting.id, ['completed', 'failed']);
    expect(done, JSON.stringify(done)).toMatchObject({ status: 'completed', stats: { mirror: 'done' } });
    expect(targetUris().filter((uri) => uri !== spotifyUri(byHand.key))).toEqual(expectedFromSource());
    expect(targetUris()).toContain(spotifyUri(byHand.key));
    expect((await h.rule(rule.id)).status).toBe('active');
  }, 300_000);

  it('a failure in the middle of the writes leaves a retryable run that converges on the retry', async () => {
    const keys = sourceKeys();
    // One removal and two songs out of place: the removal goes through, then the moves fail.
    editSource([keys[keys.length - 1]!, ...keys.slice(1, -1).reverse().slice(0, 2), ...keys.slice(1, -1).reverse().slice(2)]);
    h.spotify.failNext({ kind: 'server_error', status: 503, method: 'PUT', pathPrefix: `/v1/playlists/${targetId}/items`, times: 1_000 });
    const failed = await h.runNow(rule.id).finally(() => h.spotify.clearFailures());
    expect(failed, JSON.stringify(failed)).toMatchObject({ status: 'failed' });
    const steps = await h.app.app.services.sync.execute({ text: `select kind, status from sync_mirror_step where run_id = ? order by seq`, values: [failed.id] });
    expect(steps.map((step) => `${String(step['kind'])}:${String(step['status'])}`)).toEqual(['remove:done', 'move:failed']);
    expect(targetUris().filter((uri) => uri !== spotifyUri(byHand.key))).not.toEqual(expectedFromSource());
    const waiting = await h.rule(rule.id);
    expect(waiting).toMatchObject({ status: 'active', consecutive_failures: 1 });

    h.advance(5);
    const { created } = await h.evaluate();
    expect(created).toHaveLength(1);
    const retried = await h.waitRun(rule.id, created[0]!, ['completed', 'failed']);
    expect(retried, JSON.stringify(retried)).toMatchObject({ status: 'completed', stats: { mirror: 'done', removed: 0 } });
    expect(targetUris().filter((uri) => uri !== spotifyUri(byHand.key))).toEqual(expectedFromSource());
    expect(targetUris()).toContain(spotifyUri(byHand.key));
  }, 300_000);

  it('matched songs the owner took off the target come back at their place, once, next to the owner\'s own song', async () => {
    const expected = expectedFromSource();
    const lost = [expected[1]!, expected[expected.length - 2]!];
    await h.spotifyRemove(targetId, lost);
    expect(targetUris()).not.toContain(lost[0]);
    // The source changes too (a song moved), so the run reaches its mirror phase.
    const keys = sourceKeys();
    editSource([...keys.slice(1), keys[0]!]);
    const seen = await preview();
    expect(seen).toMatchObject({ add_count: 2, remove_count: 0 });

    const { run, writes } = await spotifyWritesDuring(async () => h.runNow(rule.id));
    expect(run, JSON.stringify(run)).toMatchObject({ status: 'completed', stats: { mirror: 'done', readded: 2, removed: 0, replaced: false } });
    const after = targetUris();
    expect(after.filter((uri) => uri !== spotifyUri(byHand.key))).toEqual(expectedFromSource());
    expect(after.filter((uri) => uri === spotifyUri(byHand.key))).toHaveLength(1);
    for (const uri of lost) expect(after.filter((candidate) => candidate === uri)).toHaveLength(1);
    // Put back at their places by one add step (Spotify takes one request per position), not appended and moved.
    const posts = writes.filter((request) => request.method === 'POST');
    expect(posts).toHaveLength(2);
    for (const post of posts) expect(JSON.parse(post.body)).toHaveProperty('position');
    const steps = await h.app.app.services.sync.execute({ text: `select kind, status from sync_mirror_step where run_id = ? and kind = 'add'`, values: [run.id] });
    expect(steps.map((step) => `${String(step['kind'])}:${String(step['status'])}`)).toEqual(['add:done']);

    // The songs added back are the rule's now; the next run with a changed source adds nothing twice.
    editSource(sourceKeys().reverse());
    const again = await h.runNow(rule.id);
    expect(again, JSON.stringify(again)).toMatchObject({ status: 'completed', stats: { mirror: 'done', readded: 0, removed: 0 } });
    expect(targetUris().filter((uri) => uri !== spotifyUri(byHand.key))).toEqual(expectedFromSource());
    expect(new Set(targetUris()).size).toBe(targetUris().length);
  }, 300_000);

  it('a snapshot that cannot be taken stops the run before its first write; the next run converges', async () => {
    // A matched song moves to the end: the run has a move to make.
    const keys = sourceKeys();
    const first = keys.find((key) => isAvailableOn(catalog.tracks.get(key)!, 'spotify'))!;
    editSource([...keys.filter((key) => key !== first), first]);
    const before = targetUris();
    // The snapshot directory cannot be used (a file stands in its place): the automatic snapshot fails.
    const root = h.app.app.services.config.snapshotDir;
    await rename(root, `${root}.aside`);
    await writeFile(root, 'not a directory');
    const { run: failed, writes } = await spotifyWritesDuring(() => h.runNow(rule.id)).finally(async () => {
      await rm(root, { force: true });
      await rename(`${root}.aside`, root);
    });
    expect(failed, JSON.stringify(failed)).toMatchObject({ status: 'failed' });
    expect(failed.error).toMatch(/automatic snapshot .*Nothing was changed/s);
    expect(writes).toEqual([]);
    expect(targetUris()).toEqual(before);
    const steps = await h.app.app.services.sync.execute({ text: `select kind from sync_mirror_step where run_id = ?`, values: [failed.id] });
    expect(steps).toEqual([]);

    const done = await h.runNow(rule.id);
    expect(done, JSON.stringify(done)).toMatchObject({ status: 'completed', stats: { mirror: 'done' } });
    expect(targetUris().filter((uri) => uri !== spotifyUri(byHand.key))).toEqual(expectedFromSource());
    expect((await h.rule(rule.id)).consecutive_failures).toBe(0);
  }, 300_000);
});
