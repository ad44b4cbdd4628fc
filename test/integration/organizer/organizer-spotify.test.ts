import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAvailableOn, seedCatalog } from '../../fakes/seed-catalog.ts';
import { startMigrationHarness, type MigrationHarness } from '../migrations/migration-harness.ts';
import { organizerClient, type OrganizerJobJson } from './organizer-harness.ts';

/**
 * The organizer on official provider A (the Spotify fake, whose song removal drops every copy of
 * a URI like the real API): safe removal only, song removal by URI + positions + snapshot id with
 * unselected copies put back, and every bypass a hostile client could try answered 4xx with
 * nothing changed on the fake.
 */

const catalog = seedCatalog();
const onSpotify = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'spotify')).map((track) => track.key);
const [a, b, c, d, e] = onSpotify as [string, string, string, string, string];

let h: MigrationHarness;
let client: ReturnType<typeof organizerClient>;

beforeAll(async () => {
  h = await startMigrationHarness({
    spotifyLibrary: {
      playlists: [
        { name: 'Road Trip', trackKeys: [a, b, a, c] },
        { name: 'Ambiguous Mix', trackKeys: [a, d, a, e] },
        { name: 'Lost Answer', trackKeys: [b, c, d] },
        { name: 'Changes Under Us', trackKeys: [c, d, e] },
        { name: 'Big One', trackKeys: onSpotify.slice(0, 30) },
        { name: 'Summer Hits', trackKeys: [a, b, c, d] },
        { name: 'summer hits!', trackKeys: [a, b, e] },
        { name: 'Dupes Inside', trackKeys: [a, b, a, c, b] },
      ],
      followed: [{ name: 'Summer Hits', trackKeys: [a, b] }, { name: 'Friend Mix', trackKeys: [c, d] }, { name: 'Rate Limited Friend', trackKeys: [e] }, { name: 'Shared Jam', trackKeys: [a, e], collaborative: true }],
      likedTrackKeys: [a, b],
    },
    tidalLibrary: {},
  });
  client = organizerClient(h);
}, 300_000);

afterAll(async () => {
  await h?.close();
});

const playlist = (name: string) => h.spotify.playlistByName(h.spotifyUser.userId, name)!;
const inLibrary = (id: string) => h.spotify.library(h.spotifyUser.userId)!.playlists.includes(id);

describe('organizer playlists on official provider A', () => {
  it('lists ownership and, per action, whether it is available and why not', async () => {
    const answer = await client.playlists(h.spotifyAccount);
    expect(answer.status, answer.text).toBe(200);
    // What Spotify offers for no playlist at all, once, from its manifest.
    expect((answer.json as { provider_actions: Record<string, { available: boolean; reason: string | null }> }).provider_actions).toMatchObject({
      unfollow_playlist: { available: true, reason: null },
      delete_playlist: { available: false, reason: expect.stringMatching(/no endpoint that deletes/) as unknown },
      remove_tracks: { available: true, reason: null },
    });
    const rows = (answer.json as { playlists: { id: string; name: string; relation: string; actions: Record<string, { available: boolean; reason: string | null }> }[] }).playlists;
    const byName = (name: string) => rows.find((row) => row.name === name)!;
    expect(byName('Road Trip')).toMatchObject({ relation: 'owned', actions: { unfollow_playlist: { available: true }, delete_playlist: { available: false }, remove_tracks: { available: true } } });
    expect(byName('Road Trip').actions['delete_playlist']!.reason).toMatch(/no endpoint that deletes/);
    expect(byName('Friend Mix')).toMatchObject({ relation: 'followed', actions: { unfollow_playlist: { available: true }, remove_tracks: { available: false } } });
    expect(byName('Shared Jam')).toMatchObject({ relation: 'collaborative', actions: { remove_tracks: { available: true } } });
    const liked = rows.find((row) => row.relation === 'liked_collection')!;
    expect(Object.values(liked.actions).every((action) => !action.available && /not ordinary playlists/.test(action.reason ?? ''))).toBe(true);
  });
});

describe('safe removal and refusals', () => {
  it('removes a followed playlist from the library only, after a preflight', async () => {
    const friend = playlist('Friend Mix');
    expect(inLibrary(friend.id)).toBe(true);
    const { preflight, job } = await client.run({ account_id: h.spotifyAccount, action: 'unfollow_playlist', playlist_ids: [friend.id] });
    expect(preflight.confirmation_phrase).toBeNull();
    expect(preflight.playlists[0]).toMatchObject({ relation: 'followed', effect: expect.stringMatching(/stays on Spotify/) });
    expect(job).toMatchObject({ status: 'completed', counts: { succeeded: 1, failed: 0 } });
    expect(inLibrary(friend.id)).toBe(false);
    // The playlist itself still exists for its owner.
    expect(h.spotify.playlist(friend.id)).not.toBeNull();
    // Successful items never rerun.
    const retry = await client.retry(job.id);
    expect(retry.status).toBe(409);
    expect((retry.json as { code: string }).code).toBe('organizer_state_conflict');
  });

  it('never substitutes a permanent deletion: deleting on a provider without one is refused', async () => {
    const before = h.spotify.requests.length;
    const answer = await client.preflight({ account_id: h.spotifyAccount, action: 'delete_playlist', playlist_ids: [playlist('Road Trip').id] });
    expect(answer.status).toBe(422);
    expect(answer.json).toMatchObject({ code: 'organizer_unsupported' });
    expect(h.spotify.requests.slice(before).filter((request) => request.method !== 'GET')).toEqual([]);
    expect(playlist('Road Trip')).not.toBeNull();
  });

  it('refuses the liked collection as an ordinary playlist', async () => {
    const answer = await client.preflight({ account_id: h.spotifyAccount, action: 'unfollow_playlist', playlist_ids: ['liked'] });
    expect(answer.status).toBe(422);
    expect((answer.json as { detail: string }).detail).toMatch(/not ordinary playlists/);
  });

  it('refuses a job without a preflight, and a preflight token of another owner', async () => {
    const none = await client.createJob({ preflight_token: crypto.randomUUID(), confirmation: null });
    expect(none.status).toBe(404);
    const sql = new pg.Client({ connectionString: h.app.databaseUrl });
    await sql.connect();
    try {
      const token = crypto.randomUUID();
      await sql.query(`insert into organizer_preflight (id, owner_id, provider, account_id, action, plan, expires_at) values ($1, 'someone-else', 'spotify', $2, 'unfollow_playlist', $3, now() + interval '5 minutes')`, [
        token,
        h.spotifyAccount,
        JSON.stringify({ action: 'unfollow_playlist', identify_by: null, removes_every_occurrence: false, positional_insert: false, playlists: [{ playlist_id: playlist('Road Trip').id, name: 'Road Trip' }] }),
      ]);
      const foreign = await client.createJob({ preflight_token: token, confirmation: null });
      expect(foreign.status).toBe(404);
    } finally {
      await sql.end();
    }
    expect(inLibrary(playlist('Road Trip').id)).toBe(true);
  });

  it('refuses a job naming more playlists than its preflight', async () => {
    const preflight = await client.preflightOk({ account_id: h.spotifyAccount, action: 'unfollow_playlist', playlist_ids: [playlist('Shared Jam').id] });
    const widened = await client.createJob({ preflight_token: preflight.token, playlist_ids: [playlist('Shared Jam').id, playlist('Road Trip').id] });
    expect(widened.status).toBe(422);
    expect(widened.json).toMatchObject({ code: 'organizer_selection_mismatch' });
    expect(inLibrary(playlist('Road Trip').id)).toBe(true);
    expect(inLibrary(playlist('Shared Jam').id)).toBe(true);
  });

  it('retries a rate-limited removal by itself (bounded) and finishes', async () => {
    const target = playlist('Rate Limited Friend');
    h.spotify.failNext({ kind: 'rate_limit', method: 'DELETE', pathPrefix: '/v1/me/library', retryAfterS: 1 });
    const { job } = await client.run({ account_id: h.spotifyAccount, action: 'unfollow_playlist', playlist_ids: [target.id] });
    expect(job.status).toBe('completed');
    expect(inLibrary(target.id)).toBe(false);
  });
});

describe('duplicate scans (read-only)', () => {
  it('pairs same-named playlists of one owner with enough overlap, explains why, and reads nothing again from warm caches', async () => {
    await client.playlists(h.spotifyAccount);
    const before = h.spotify.requests.length;
    const first = await h.api('/api/organizer/duplicates', { method: 'POST', body: JSON.stringify({ scope: 'playlists', account_id: h.spotifyAccount }) });
    expect(first.status, first.text).toBe(200);
    const scan = first.json as { read: number; pairs: { playlists: { name: string }[]; overlap: number; evidence: string[] }[] };
    const names = scan.pairs.map((pair) => pair.playlists.map((playlist) => playlist.name).sort().join(' + '));
    expect(names).toContain('Summer Hits + summer hits!');
    // The friend's “Summer Hits” has another owner: never a candidate.
    expect(scan.pairs.filter((pair) => pair.playlists.some((playlist) => playlist.name === 'Summer Hits'))).toHaveLength(1);
    const pair = scan.pairs.find((candidate) => candidate.playlists.some((playlist) => playlist.name === 'summer hits!'))!;
    expect(pair.overlap).toBeCloseTo(2 / 3);
    expect(pair.evidence.join(' ')).toMatch(/2 of the smaller playlist's 3 songs/);
    const writes = h.spotify.requests.slice(before).filter((request) => request.method !== 'GET');
    expect(writes).toEqual([]);
    const afterFirst = h.spotify.requests.length;
    const second = await h.api('/api/organizer/duplicates', { method: 'POST', body: JSON.stringify({ scope: 'playlists', account_id: h.spotifyAccount }) });
    expect(second.status).toBe(200);
    expect(h.spotify.requests.length).toBe(afterFirst);
  });

  it('finds repeated entries inside a playlist and proposes removals by keep policy, selecting nothing', async () => {
    const dupes = playlist('Dupes Inside');
    const answer = await h.api('/api/organizer/duplicates', { method: 'POST', body: JSON.stringify({ scope: 'entries', account_id: h.spotifyAccount, playlist_id: dupes.id, levels: ['same_id'], keep: 'last' }) });
    expect(answer.status, answer.text).toBe(200);
    const scan = answer.json as { groups: { original: { position: number }; duplicates: { position: number }[] }[]; proposed_removals: { position: number; uri: string }[] };
    expect(scan.groups.map((group) => [group.original.position, group.duplicates.map((entry) => entry.position)])).toEqual([
      [0, [2]],
      [1, [4]],
    ]);
    expect(scan.proposed_removals.map((entry) => entry.position)).toEqual([0, 1]);
    expect(playlist('Dupes Inside').uris).toEqual(dupes.uris);
    // The proposal becomes a removal only through its own preflight and typed phrase.
    const { job } = await client.run({ account_id: h.spotifyAccount, action: 'remove_tracks', playlist_id: dupes.id, entries: scan.proposed_removals.map(({ position, uri }) => ({ position, uri })) });
    expect(job.status).toBe('completed');
    expect(playlist('Dupes Inside').uris).toEqual([dupes.uris[2], dupes.uris[3], dupes.uris[4]]);
  });
});

describe('song removal by URI + positions + snapshot id', () => {
  it('removes exactly the chosen copy of a duplicated song, putting back the copy the provider also dropped', async () => {
    const road = playlist('Road Trip');
    const [uriA, uriB, , uriC] = road.uris;
    const preflight = await client.preflightOk({ account_id: h.spotifyAccount, action: 'remove_tracks', playlist_id: road.id, entries: [{ position: 0, uri: uriA }] });
    expect(preflight.confirmation_phrase).toBe('remove 1 song');
    expect(preflight.playlists[0]!.warnings).toContainEqual(expect.objectContaining({ code: 'unselected_copies_put_back', positions: [2] }));

    // Wrong phrase, other entries, a widened selection: refused, nothing sent.
    const before = h.spotify.requests.length;
    expect((await client.createJob({ preflight_token: preflight.token, confirmation: 'remove 2 songs' })).status).toBe(422);
    expect((await client.createJob({ preflight_token: preflight.token, confirmation: 'remove 1 song', entries: [{ position: 0, uri: uriA }, { position: 2, uri: uriA }] })).status).toBe(422);
    expect(h.spotify.requests.slice(before).filter((request) => request.method !== 'GET')).toEqual([]);
    expect(playlist('Road Trip').uris).toEqual(road.uris);

    const started = await client.createJob({ preflight_token: preflight.token, confirmation: 'remove 1 song', entries: [{ position: 0, uri: uriA }] });
    expect(started.status, started.text).toBe(202);
    const job = await client.waitForJob((started.json as OrganizerJobJson).id);
    expect(job.status).toBe('completed');
    expect(playlist('Road Trip').uris).toEqual([uriB, uriA, uriC]);
    expect(job.items[0]!.notes.join(' ')).toMatch(/put back/);
    expect(job.items[0]!.removed_entries).toEqual([expect.objectContaining({ position: 0, uri: uriA })]);

    // The preflight started its one job.
    const again = await client.createJob({ preflight_token: preflight.token, confirmation: 'remove 1 song' });
    expect(again.status).toBe(409);

    // Undo puts the removed entry back where it was, once.
    const undo = await h.api(`/api/organizer/jobs/${job.id}/undo`, { method: 'POST' });
    expect(undo.status, undo.text).toBe(202);
    const undone = await client.waitForJob((undo.json as OrganizerJobJson).id);
    expect(undone).toMatchObject({ status: 'completed', action: 'restore_tracks' });
    expect(undone.items[0]!.notes.join(' ')).toMatch(/1 removed entry was put back at its position \(0\)/);
    expect(playlist('Road Trip').uris).toEqual(road.uris);
    const twice = await h.api(`/api/organizer/jobs/${job.id}/undo`, { method: 'POST' });
    expect(twice.status).toBe(409);
    expect(playlist('Road Trip').uris).toEqual(road.uris);
  });

  it('refuses a selection that does not match the playlist, and more than 100 entries', async () => {
    const road = playlist('Road Trip');
    const wrong = await client.preflight({ account_id: h.spotifyAccount, action: 'remove_tracks', playlist_id: road.id, entries: [{ position: 0, uri: road.uris[1] }] });
    expect(wrong.status).toBe(422);
    const big = playlist('Big One');
    const tooMany = await client.preflight({ account_id: h.spotifyAccount, action: 'remove_tracks', playlist_id: big.id, entries: Array.from({ length: 101 }, (_, position) => ({ position, uri: big.uris[position % big.uris.length] })) });
    expect(tooMany.status).toBe(400);
    expect(playlist('Big One').uris).toEqual(big.uris);
  });

  it('refuses a job on a stale preflight after the playlist changed, with nothing removed', async () => {
    const changing = playlist('Changes Under Us');
    const first = await client.preflightOk({ account_id: h.spotifyAccount, action: 'remove_tracks', playlist_id: changing.id, entries: [{ position: 0, uri: changing.uris[0] }] });
    const { job } = await client.run({ account_id: h.spotifyAccount, action: 'remove_tracks', playlist_id: changing.id, entries: [{ position: 2, uri: changing.uris[2] }] });
    expect(job.status).toBe('completed');
    const afterSecond = playlist('Changes Under Us').uris;
    const stale = await client.createJob({ preflight_token: first.token, confirmation: first.confirmation_phrase });
    expect(stale.status).toBe(409);
    expect(stale.json).toMatchObject({ code: 'organizer_preflight_stale' });
    expect(playlist('Changes Under Us').uris).toEqual(afterSecond);
  });

  it('settles an applied removal whose answer was lost by the exact expected sequence, never removing twice', async () => {
    const mix = playlist('Ambiguous Mix');
    const [uriA, uriD, , uriE] = mix.uris;
    h.spotify.failNext({ kind: 'ambiguous_write', method: 'DELETE', pathPrefix: `/v1/playlists/${mix.id}/items` });
    const { job } = await client.run({ account_id: h.spotifyAccount, action: 'remove_tracks', playlist_id: mix.id, entries: [{ position: 2, uri: uriA }] });
    expect(job.status, JSON.stringify(job)).toBe('completed');
    expect(playlist('Ambiguous Mix').uris).toEqual([uriA, uriD, uriE]);
    // The lost answer was settled by reading: the extra copy the provider dropped went back.
    expect(job.items[0]!.notes.join(' ')).toMatch(/put back at its position \(0\)/);
    const deletes = h.spotify.requests.filter((request) => request.method === 'DELETE' && request.path === `/v1/playlists/${mix.id}/items`);
    expect(deletes).toHaveLength(1);
  });

  it('leaves a removal the provider never applied retryable, and the retry removes it once', async () => {
    const lost = playlist('Lost Answer');
    h.spotify.failNext({ kind: 'server_error', status: 503, method: 'DELETE', pathPrefix: `/v1/playlists/${lost.id}/items`, times: 20 });
    const { job } = await client.run({ account_id: h.spotifyAccount, action: 'remove_tracks', playlist_id: lost.id, entries: [{ position: 1, uri: lost.uris[1] }] });
    expect(job.status).toBe('failed');
    expect(job.items[0]).toMatchObject({ status: 'failed', retryable: true });
    expect(playlist('Lost Answer').uris).toEqual(lost.uris);
    h.spotify.clearFailures();
    const retried = await client.retry(job.id);
    expect(retried.status, retried.text).toBe(202);
    const finished = await client.waitForJob(job.id);
    expect(finished.status).toBe('completed');
    expect(playlist('Lost Answer').uris).toEqual([lost.uris[0], lost.uris[2]]);
  });
});
