import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAvailableOn, seedCatalog } from '../../fakes/seed-catalog.ts';
import { startSyncHarness, type SyncHarness } from './sync-harness.ts';

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
  it('a removal and a new order reach a Deezer target by one replacement', async () => {
    const sourceId = h.tidalPlaylistId('Replace Me');
    const { targetId, rule } = await h.ruleFrom({ account: h.tidalAccount, playlistId: sourceId }, { provider: 'deezer', account: h.deezerAccount! }, { mode: 'mirror' });
    const deezerIds = () => [...h.deezer!.playlist(targetId)!.trackIds];
    expect(deezerIds()).toEqual(initial.map((track) => h.deezer!.trackIdOf(track.key)));

    const [first, second, , ...rest] = h.tidalKeys(sourceId);
    h.tidalEdit(sourceId, [...rest.reverse(), second!, first!]);
    const expected = h.tidalKeys(sourceId).map((key) => h.deezer!.trackIdOf(key));

    const run = await h.runNow(rule.id);
    expect(run, JSON.stringify(run)).toMatchObject({ status: 'completed', stats: { mirror: 'done', removed: 1, replaced: true } });
    expect(deezerIds()).toEqual(expected);
    const steps = await h.app.app.services.sync.execute({ text: `select kind, status from sync_mirror_step where run_id = ? order by seq`, values: [run.id] });
    expect(steps.map((step) => `${String(step['kind'])}:${String(step['status'])}`)).toEqual(['remove:done', 'move:failed', 'replace:done']);
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

    // The whole order reversed: entries move to the end too (TIDAL places only before an entry).
    const reversed = [...h.spotify.playlist(sourceId)!.uris].reverse();
    for (const [index, uri] of reversed.entries()) await h.spotifyMove(sourceId, h.spotify.playlist(sourceId)!.uris.indexOf(uri), index);
    await runAndCheck(0);
  }, 300_000);
});
