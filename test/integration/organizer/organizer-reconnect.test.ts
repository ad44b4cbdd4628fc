import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAvailableOn, seedCatalog } from '../../fakes/seed-catalog.ts';
import { connectByRedirect, startMigrationHarness, type MigrationHarness } from '../migrations/migration-harness.ts';
import { tapRequests, type RequestTap } from '../migrations/support/request-tap.ts';
import { organizerClient, type OrganizerJobJson } from './organizer-harness.ts';

/**
 * An organizer job whose connection dies in the middle: the user removes the app's access at
 * Spotify after the job's first change reached it. The job stops with the reconnect reason and
 * nothing but the chosen playlists or entries is ever touched; a retry before reconnecting is
 * refused; after reconnecting, the retry finishes exactly the rest (what succeeded is never sent
 * again). Also: the preflight's lifetime comes from `OPL_ORGANIZER_PREFLIGHT_TTL_SECONDS`, and an
 * expired preflight starts nothing.
 */

const PREFLIGHT_TTL_SECONDS = 45;
const catalog = seedCatalog();
const onSpotify = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'spotify')).map((track) => track.key);
const [a, b, c, d, e] = onSpotify as [string, string, string, string, string];

let h: MigrationHarness;
let client: ReturnType<typeof organizerClient>;
let tap: RequestTap;

beforeAll(async () => {
  h = await startMigrationHarness({
    spotifyLibrary: {
      playlists: [{ name: 'Keep Me', trackKeys: [a, b] }, { name: 'Trim Me', trackKeys: [a, b, c, d, e] }, { name: 'Too Late', trackKeys: [c, d] }],
      followed: [{ name: 'Old Friend 1', trackKeys: [a] }, { name: 'Old Friend 2', trackKeys: [b] }, { name: 'Old Friend 3', trackKeys: [c] }, { name: 'Still Followed', trackKeys: [d] }],
    },
    tidalLibrary: {},
    env: { OPL_ORGANIZER_PREFLIGHT_TTL_SECONDS: String(PREFLIGHT_TTL_SECONDS) },
  });
  client = organizerClient(h);
  tap = tapRequests([h.spotify]);
}, 300_000);

afterAll(async () => {
  await h?.close();
});

const playlist = (name: string) => h.spotify.playlistByName(h.spotifyUser.userId, name)!;
const libraryIds = () => [...h.spotify.library(h.spotifyUser.userId)!.playlists].sort();

/** Revokes the app's access when the `nth` request matching `method` + `pathPrefix` arrives (before Spotify answers it). */
function revokeAt(method: string, pathPrefix: string, nth: number): () => void {
  let seen = 0;
  return tap.listen((request) => {
    if (request.method === method && request.path.startsWith(pathPrefix) && ++seen === nth) h.spotify.revokeUser(h.spotifyUser.userId);
  });
}

async function start(body: unknown): Promise<OrganizerJobJson> {
  const preflight = await client.preflightOk(body);
  const started = await client.createJob({ preflight_token: preflight.token, confirmation: preflight.confirmation_phrase });
  expect(started.status, started.text).toBe(202);
  return client.waitForJob((started.json as OrganizerJobJson).id);
}

async function accountStatus(): Promise<string | undefined> {
  const { json } = await h.api('/api/auth/accounts');
  return (json as { accounts: { id: string; status: string }[] }).accounts.find((account) => account.id === h.spotifyAccount)?.status;
}

describe('the connection is revoked during an organizer job', () => {
  it('safe removal: stops with the reconnect reason, and after reconnecting the retry removes exactly the rest', async () => {
    const friends = ['Old Friend 1', 'Old Friend 2', 'Old Friend 3'].map((name) => playlist(name).id);
    const untouched = libraryIds().filter((id) => !friends.includes(id));
    // The first removal reaches Spotify; the access is revoked as the second one arrives.
    const stop = revokeAt('DELETE', '/v1/me/library', 2);
    const job = await start({ account_id: h.spotifyAccount, action: 'unfollow_playlist', playlist_ids: friends }).finally(stop);

    expect(job).toMatchObject({ status: 'partial', reconnect_required: true, counts: { items: 3, succeeded: 1, failed: 2, retryable: 2 } });
    const failed = job.items.filter((item) => item.status === 'failed');
    for (const item of failed) expect(item).toMatchObject({ retryable: true, error_code: 'auth_expired', error: expect.stringMatching(/reconnect/i) as unknown });
    // Items need not run in the order they were chosen: whichever ran first is the one that went.
    const done = job.items.find((item) => item.status === 'succeeded')!;
    expect(friends).toContain(done.playlist_id);
    // Nothing beyond the chosen playlists moved, and only that one left the library.
    expect(libraryIds()).toEqual([...untouched, ...friends.filter((id) => id !== done.playlist_id)].sort());
    expect(await accountStatus()).toBe('reauth_required');

    // Retrying before reconnecting would only fail again: refused, with what to do.
    const early = await client.retry(job.id);
    expect(early.status).toBe(409);
    expect(early.json).toMatchObject({ code: 'organizer_state_conflict', action: 'reconnect' });

    await connectByRedirect(h.baseUrl, 'spotify');
    expect(await accountStatus()).toBe('connected');
    const deletesBefore = h.spotify.requests.filter((request) => request.method === 'DELETE' && request.path.startsWith('/v1/me/library')).length;
    const retried = await client.retry(job.id);
    expect(retried.status, retried.text).toBe(202);
    const finished = await client.waitForJob(job.id);
    expect(finished).toMatchObject({ status: 'completed', reconnect_required: false, counts: { items: 3, succeeded: 3 } });
    // The successful item was not run again; the two others exactly once more.
    expect(finished.items.find((item) => item.playlist_id === done.playlist_id)!.attempts).toBe(1);
    expect(h.spotify.requests.filter((request) => request.method === 'DELETE' && request.path.startsWith('/v1/me/library')).length - deletesBefore).toBe(2);
    expect(libraryIds()).toEqual(untouched);
  });

  it('song removal: the chosen entries only, none twice, after reconnecting', async () => {
    const trim = playlist('Trim Me');
    const [uriA, uriB, uriC, uriD, uriE] = trim.uris;
    const keep = playlist('Keep Me').uris;
    const stop = revokeAt('DELETE', `/v1/playlists/${trim.id}/items`, 1);
    const job = await start({ account_id: h.spotifyAccount, action: 'remove_tracks', playlist_id: trim.id, entries: [{ position: 1, uri: uriB }, { position: 3, uri: uriD }] }).finally(stop);

    expect(job).toMatchObject({ status: 'failed', reconnect_required: true });
    expect(job.items[0]).toMatchObject({ status: 'failed', retryable: true, error_code: 'auth_expired' });
    expect(playlist('Trim Me').uris).toEqual(trim.uris);

    await connectByRedirect(h.baseUrl, 'spotify');
    expect((await client.retry(job.id)).status).toBe(202);
    const finished = await client.waitForJob(job.id);
    expect(finished).toMatchObject({ status: 'completed', reconnect_required: false });
    expect(finished.items[0]!.removed_entries!.map((entry) => entry.position)).toEqual([1, 3]);
    expect(playlist('Trim Me').uris).toEqual([uriA, uriC, uriE]);
    expect(playlist('Keep Me').uris).toEqual(keep);
  });
});

describe('the preflight lifetime', () => {
  it('is the configured one, and an expired preflight starts nothing', async () => {
    const late = playlist('Too Late');
    const preflight = await client.preflightOk({ account_id: h.spotifyAccount, action: 'remove_tracks', playlist_id: late.id, entries: [{ position: 0, uri: late.uris[0] }] });
    const sql = new pg.Client({ connectionString: h.app.databaseUrl });
    await sql.connect();
    try {
      const { rows } = await sql.query<{ ttl: number }>(`select extract(epoch from expires_at - created_at)::int as ttl from organizer_preflight where id = $1`, [preflight.token]);
      expect(rows[0]!.ttl).toBe(PREFLIGHT_TTL_SECONDS);
      // Time passes: the preflight's lifetime is over.
      await sql.query(`update organizer_preflight set expires_at = now() - interval '1 second' where id = $1`, [preflight.token]);
    } finally {
      await sql.end();
    }
    const expired = await client.createJob({ preflight_token: preflight.token, confirmation: preflight.confirmation_phrase });
    expect(expired.status).toBe(409);
    expect(expired.json).toMatchObject({ code: 'organizer_preflight_stale', detail: expect.stringMatching(/expired/) as unknown });
    expect(playlist('Too Late').uris).toEqual(late.uris);
  });
});
