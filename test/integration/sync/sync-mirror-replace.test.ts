import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAvailableOn, seedCatalog } from '../../fakes/seed-catalog.ts';
import { startSyncHarness, type RuleJson, type SyncHarness } from './sync-harness.ts';

/**
 * Mirror into the targets that move entries their own way, through HTTP against the fakes:
 * - Deezer can remove and reorder but has no single-entry move (its reorder call takes the whole
 *   order): the run falls back to one full replacement of the computed sequence, recorded in the
 *   ledger, and the target ends in source order (TIDAL source).
 * - TIDAL moves entries by item id before another entry (`PATCH …/relationships/items` with
 *   `positionBefore`): after adds, removals and reorders of a Spotify source the TIDAL target ends
 *   in source order by moves, every entry that stayed keeps its item id and its added-at date, and
 *   a song the owner added by hand is left alone.
 */

const catalog = seedCatalog();
const onAll = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'deezer') && isAvailableOn(track, 'tidal') && isAvailableOn(track, 'spotify'));
const initial = onAll.slice(0, 6);
const intoTidal = onAll.slice(6, 14);
const laterIntoTidal = onAll.slice(14, 16);
const byHandOnTidal = onAll[17]!;

let h: SyncHarness;

beforeAll(async () => {
  h = await startSyncHarness({ spotifyLibrary: { playlists: [{ name: 'Into TIDAL', trackKeys: intoTidal.map((track) => track.key) }] }, tidalLibrary: { playlists: [{ name: 'Replace Me', trackKeys: initial.map((track) => track.key) }] }, deezerLibrary: {} });
}, 300_000);

afterAll(async () => {
  await h?.close();
});

describe('mirror by replacement', () => {
  let sourceId = '';
  let targetId = '';
  let rule: RuleJson;
  const deezerIds = () => [...h.deezer!.playlist(targetId)!.trackIds];
  const expectedFromSource = () => h.tidalKeys(sourceId).map((key) => h.deezer!.trackIdOf(key));
  const steps = async (runId: string) => (await h.app.app.services.sync.execute({ text: `select kind, status from sync_mirror_step where run_id = ? order by seq`, values: [runId] })).map((step) => `${String(step['kind'])}:${String(step['status'])}`);

  it('a removal and a new order reach a Deezer target by one replacement', async () => {
    sourceId = h.tidalPlaylistId('Replace Me');
    ({ targetId, rule } = await h.ruleFrom({ account: h.tidalAccount, playlistId: sourceId }, { provider: 'deezer', account: h.deezerAccount! }, { mode: 'mirror' }));
    expect(deezerIds()).toEqual(initial.map((track) => h.deezer!.trackIdOf(track.key)));

    const [first, second, , ...rest] = h.tidalKeys(sourceId);
    h.tidalEdit(sourceId, [...rest.reverse(), second!, first!]);
    const expected = h.tidalKeys(sourceId).map((key) => h.deezer!.trackIdOf(key));

    const run = await h.runNow(rule.id);
    expect(run, JSON.stringify(run)).toMatchObject({ status: 'completed', stats: { mirror: 'done', removed: 1, replaced: true } });
    expect(deezerIds()).toEqual(expected);
    expect(await steps(run.id)).toEqual(['remove:done', 'move:failed', 'replace:done']);
  }, 300_000);

  it('a failure in the second request of a replacement leaves a retryable run that converges, adding nothing twice', async () => {
    // The owner takes a song off the target (mirror adds it back) and the source gets a new order:
    // the replacement is two requests, the lost song appended, then the whole order.
    const lost = deezerIds()[1]!;
    const removed = await fetch(`${h.deezer!.baseUrl}/playlist/${targetId}/tracks?songs=${lost}&access_token=${h.deezerUser!.accessToken}`, { method: 'DELETE' });
    expect(removed.status, await removed.text()).toBe(200);
    h.tidalEdit(sourceId, [...h.tidalKeys(sourceId)].reverse());
    h.deezer!.failNext({ kind: 'server_error', status: 503, method: 'POST', pathPrefix: `/playlist/${targetId}/tracks`, after: 1, times: 1_000 });
    const failed = await h.runNow(rule.id).finally(() => h.deezer!.clearFailures());
    expect(failed, JSON.stringify(failed)).toMatchObject({ status: 'failed' });
    expect(await steps(failed.id)).toEqual(['move:failed', 'replace:failed']);
    expect(deezerIds()).toContain(lost);
    expect(deezerIds()).not.toEqual(expectedFromSource());
    expect(await h.rule(rule.id)).toMatchObject({ status: 'active', consecutive_failures: 1 });

    // The retry, with the source unchanged, reads the target again and finishes the order.
    h.advance(5);
    const { created } = await h.evaluate();
    expect(created).toHaveLength(1);
    const retried = await h.waitRun(rule.id, created[0]!, ['completed', 'failed']);
    expect(retried, JSON.stringify(retried)).toMatchObject({ status: 'completed', stats: { mirror: 'done', replaced: true, readded: 0 } });
    expect(deezerIds()).toEqual(expectedFromSource());
  }, 300_000);

  it('a deleted source pauses the rule with that reason, and nothing is created or changed', async () => {
    const before = deezerIds();
    h.tidal.state.playlists.delete(sourceId);
    const done = await h.runNow(rule.id);
    expect(done, JSON.stringify(done)).toMatchObject({ status: 'failed', error_code: 'source_deleted', migration_job_id: null });
    expect(await h.rule(rule.id)).toMatchObject({ status: 'paused', pause_code: 'source_deleted', next_run_at: null });
    expect(deezerIds()).toEqual(before);
  }, 300_000);
});

describe('mirror into TIDAL by moves', () => {
  it('adds, removals and reorders of the source end in source order on TIDAL; kept entries keep their item ids and dates', async () => {
    const { providers } = (await h.api('/providers')).json as { providers: { name: string; can_mirror: boolean; capabilities: string[] }[] };
    expect(providers.find((provider) => provider.name === 'tidal')).toMatchObject({ can_mirror: true, capabilities: expect.arrayContaining(['REMOVE_TRACKS', 'REORDER']) });
    const sourceId = h.spotifyPlaylistId('Into TIDAL');
    const { targetId, rule } = await h.ruleFrom({ account: h.spotifyAccount, playlistId: sourceId }, { provider: 'tidal', account: h.tidalAccount }, { mode: 'mirror' });
    const entries = () => h.tidal.playlistEntries(targetId)!;
    const keyOfSpotifyUri = new Map(onAll.map((track) => [h.spotify.uriOf(track.key), track.key]));
    const expectedFromSource = () => h.spotify.playlist(sourceId)!.uris.map((uri) => h.tidal.trackId(keyOfSpotifyUri.get(uri)!)!);
    const handId = h.tidal.trackId(byHandOnTidal.key)!;
    const ownIds = () => entries().map((entry) => entry.id).filter((id) => id !== handId);
    expect(entries().map((entry) => entry.id)).toEqual(expectedFromSource());

    // The owner adds a song on TIDAL by hand (TIDAL's own API), between the rule's entries.
    const added = await fetch(`${h.tidal.baseUrl}/v2/playlists/${targetId}/relationships/items`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.tidalUser.accessToken}`, 'content-type': 'application/vnd.api+json' },
      body: JSON.stringify({ data: [{ id: handId, type: 'tracks' }], meta: { positionBefore: entries()[3]!.itemId } }),
    });
    expect(added.status, await added.text()).toBe(200);

    /** Runs the rule and checks the target: source order, kept entries unchanged, the owner's song untouched. */
    const runAndCheck = async (removed: number) => {
      const before = new Map(entries().map((entry) => [entry.itemId, entry]));
      const handBefore = entries().find((entry) => entry.id === handId)!;
      const from = h.tidal.requests.length;
      const run = await h.runNow(rule.id);
      expect(run, JSON.stringify(run)).toMatchObject({ status: 'completed', stats: { mirror: 'done', removed, replaced: false } });
      expect(ownIds()).toEqual(expectedFromSource());
      expect(entries().filter((entry) => entry.id === handId)).toEqual([handBefore]);
      for (const entry of entries()) if (before.has(entry.itemId)) expect(entry).toEqual(before.get(entry.itemId));
      // Moves, not a rewrite: PATCHes only (a move to the end is two), one ledger row per move.
      const patches = h.tidal.requests.slice(from).filter((request) => request.method === 'PATCH');
      const moved = Number(run.stats['moved']);
      expect(moved).toBeGreaterThan(0);
      expect(patches.length).toBeGreaterThanOrEqual(moved);
      expect(patches.length).toBeLessThanOrEqual(2 * moved);
      const steps = await h.app.app.services.sync.execute({ text: `select kind, status from sync_mirror_step where run_id = ? order by seq`, values: [run.id] });
      expect(steps.map((step) => `${String(step['kind'])}:${String(step['status'])}`)).toEqual([...(removed > 0 ? ['remove:done'] : []), ...Array.from({ length: moved }, () => 'move:done')]);
      return moved;
    };

    // Two songs added (one moved to the top), one removed, the last moved up to second place.
    const uris = h.spotify.playlist(sourceId)!.uris;
    await h.spotifyRemove(sourceId, [uris[2]!]);
    await h.spotifyAdd(sourceId, laterIntoTidal.map((track) => h.spotify.uriOf(track.key)!));
    await h.spotifyMove(sourceId, h.spotify.playlist(sourceId)!.uris.length - 1, 0);
    await h.spotifyMove(sourceId, h.spotify.playlist(sourceId)!.uris.length - 2, 1);
    await runAndCheck(1);

    // The target renamed in TIDAL's app: the rule follows it by id, and no playlist is made.
    h.tidal.state.playlists.get(targetId)!.name = 'Renamed on TIDAL';
    const playlistsBefore = h.tidal.playlistsOf(h.tidalUser.userId).length;
    // The whole order reversed: entries move to the end too (TIDAL places only before an entry).
    const reversed = [...h.spotify.playlist(sourceId)!.uris].reverse();
    for (const [index, uri] of reversed.entries()) await h.spotifyMove(sourceId, h.spotify.playlist(sourceId)!.uris.indexOf(uri), index);
    await runAndCheck(0);
    expect(h.tidal.playlistsOf(h.tidalUser.userId)).toHaveLength(playlistsBefore);
    expect(h.tidal.state.playlists.get(targetId)!.name).toBe('Renamed on TIDAL');
  }, 300_000);
});
