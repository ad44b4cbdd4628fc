import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { cleanUpMigrationHistory } from '../../../core/services/migrations/migration-retention.ts';
import { isAvailableOn, seedCatalog, type SeedTrack } from '../../fakes/seed-catalog.ts';
import { startMigrationHarness, type JobJson, type MigrationHarness } from './migration-harness.ts';
import { readServerEvents, type ServerEvent } from '../support/server-events.ts';

/**
 * The migration engine end to end through the HTTP API: Spotify (fake) → TIDAL (fake), both
 * plugins in the real sandbox, jobs on pg-boss in a real worker. Preflight refusals and warnings,
 * the pipeline to a completed job, reruns without duplicates, an ambiguous write reconciled, an
 * expired connection pausing the job until it is reconnected and resumed, review, the items and
 * report endpoints, live progress resumed with Last-Event-ID, and retention.
 */

const catalog = seedCatalog();
const onBoth = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'spotify') && isAvailableOn(track, 'tidal'));
const keys = (tracks: readonly SeedTrack[]) => tracks.map((track) => track.key);

const small = onBoth.slice(0, 12);
const big = onBoth.slice(20, 80);
const ambiguous = onBoth.slice(100, 130);
const paused = onBoth.slice(140, 150);
const other = onBoth.slice(200, 205);
const tidalLiked = onBoth.slice(210, 214);
const held = onBoth.slice(230, 236);
const fenced = onBoth.slice(240, 246);
const cancelledSongs = onBoth.slice(250, 256);

let h: MigrationHarness;
let playlistIds: Record<string, string> = {};

async function create(body: Record<string, unknown>) {
  return h.api('/api/migrations', { method: 'POST', body: JSON.stringify({ source_account_id: h.spotifyAccount, target_provider: 'tidal', target_account_id: h.tidalAccount, acknowledge_warnings: true, ...body }) });
}

function tidalEntries(name: string): string[] {
  const [playlist] = h.tidal.playlistsOf(h.tidalUser.userId).filter((candidate) => candidate.name === name);
  return (h.tidal.playlistEntries(playlist!.id) ?? []).map((entry) => entry.id);
}

const finished = (job: JobJson) => ['completed', 'failed', 'cancelled'].includes(job.status);

/** TIDAL searches (by ISRC or by words) naming this song. */
function searchesFor(song: SeedTrack): number {
  return h.tidal.requests.filter((request) => request.method === 'GET' && Object.values(request.query).some((value) => (song.isrc !== null && value.toUpperCase() === song.isrc) || value.includes(song.title))).length;
}

/** How often the run asked TIDAL to create the playlist named `name`. */
function creates(name: string): number {
  return h.tidal.requests.filter((request) => request.method === 'POST' && request.path === '/v2/playlists' && request.body.includes(name)).length;
}

/**
 * Starts a migration of the source playlist `name` whose target-playlist create never answers (the
 * request hangs until the plugin gives up), and returns once the run has sent it: the run is then
 * held in the middle of the job, as a stalled process would be.
 */
async function startHeldAtCreate(name: string): Promise<string> {
  h.tidal.failNext({ kind: 'timeout', method: 'POST', pathPrefix: '/v2/playlists' });
  const started = await create({ selection: { playlist_ids: [playlistIds[name]] } });
  expect(started.status).toBe(202);
  for (let waited = 0; creates(name) === 0; waited += 50) {
    if (waited > 60_000) throw new Error('the run never tried to create the target playlist');
    await sleep(50);
  }
  return (started.json as { id: string }).id;
}

/** Waits until this worker's run of the job has ended. */
async function runEnded(jobId: string): Promise<void> {
  for (let waited = 0; h.app.app.services.migrations.runner.isRunning(jobId); waited += 100) {
    if (waited > 150_000) throw new Error('the run never ended');
    await sleep(100);
  }
}

beforeAll(async () => {
  h = await startMigrationHarness({
    spotifyLibrary: {
      playlists: [
        { name: 'Small Set', trackKeys: [...keys(small), small[0]!.key] },
        { name: 'Big Set', trackKeys: keys(big) },
        { name: 'Shaky Network', trackKeys: keys(ambiguous) },
        { name: 'Paused Set', trackKeys: keys(paused) },
        { name: 'Held Set', trackKeys: keys(held) },
        { name: 'Fenced Set', trackKeys: keys(fenced) },
        { name: 'Cancelled Set', trackKeys: keys(cancelledSongs) },
      ],
      likedTrackKeys: keys(onBoth.slice(160, 166)),
    },
    tidalLibrary: { playlists: [{ name: 'Big Set', trackKeys: keys(other) }], likedTrackKeys: keys(tidalLiked), followedArtistKeys: [...catalog.artists.keys()].slice(0, 2) },
  });
  const { json } = await h.api(`/api/playlists?account_id=${h.spotifyAccount}`);
  playlistIds = Object.fromEntries((json as { playlists: { id: string; name: string }[] }).playlists.map((playlist) => [playlist.name, playlist.id]));
}, 300_000);

afterAll(async () => {
  await h?.close();
});

describe('preflight', () => {
  it('refuses what the target cannot receive, even when the client skips the UI', async () => {
    const { status, json } = await h.api('/api/migrations', {
      method: 'POST',
      body: JSON.stringify({ source_account_id: h.tidalAccount, target_provider: 'spotify', target_account_id: h.spotifyAccount, selection: { followed_artist_ids: ['x'] } }),
    });
    // The artist id does not exist on the source: the selection is refused before anything else.
    expect(status).toBe(422);
    const artists = await h.api(`/api/playlists?account_id=${h.tidalAccount}`);
    expect(artists.status).toBe(200);
    expect((json as { code: string }).code).toMatch(/invalid_selection|unsupported_target_type/);
  });

  it('answers 409 with the warnings above the safe defaults, and a same-name target playlist with different songs', async () => {
    const { status, json } = await h.api('/api/migrations/preflight', {
      method: 'POST',
      body: JSON.stringify({ source_account_id: h.spotifyAccount, target_provider: 'tidal', target_account_id: h.tidalAccount, selection: { playlist_ids: [playlistIds['Big Set'], playlistIds['Small Set']] } }),
    });
    expect(status).toBe(200);
    const codes = (json as { warnings: { code: string }[] }).warnings.map((warning) => warning.code).sort();
    expect(codes).toEqual(['same_name_different_songs', 'too_many_playlists', 'too_many_tracks']);
    const refused = await h.api('/api/migrations', {
      method: 'POST',
      body: JSON.stringify({ source_account_id: h.spotifyAccount, target_provider: 'tidal', target_account_id: h.tidalAccount, selection: { playlist_ids: [playlistIds['Big Set']] } }),
    });
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ code: 'migration_warnings', summary: { playlists: 1, tracks: 60 } });
    // The warnings' fields are message parameters, strings as in the reference API (documented as MigrationWarning).
    expect((refused.json as { warnings: unknown[] }).warnings).toContainEqual({ code: 'too_many_tracks', message: 'This migration moves 60 tracks; the safe default is 50 per job.', count: '60', limit: '50' });
    const openapi = (await h.api('/openapi.json')).json as { paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, { schema: { $ref: string } }> }> }>> };
    expect(openapi.paths['/api/migrations']!['post']!.responses['409']!.content['application/problem+json']!.schema.$ref).toBe('#/components/schemas/MigrationWarningsProblem');
  });

  it('refuses an unknown target account and a malformed selection', async () => {
    expect((await create({ target_account_id: '00000000-0000-4000-8000-000000000000', selection: { playlist_ids: ['a'] } })).status).toBe(404);
    expect((await create({ selection: { playlist_ids: [], bogus: true } })).status).toBe(400);
    expect((await create({ selection: {} })).status).toBe(422);
  });
});

describe('a migration', () => {
  let jobId = '';

  it('runs to completion and writes each song once, in order', async () => {
    const started = await create({ selection: { playlist_ids: [playlistIds['Small Set']] } });
    expect(started.status).toBe(202);
    jobId = (started.json as { id: string }).id;
    const job = await h.waitForJob(jobId, finished);
    expect(job).toMatchObject({ status: 'completed', outcome: 'completed' });
    expect(job.counts).toMatchObject({ total: 13, written: 12, skipped: 1 });
    const entries = tidalEntries('Small Set');
    expect(entries).toEqual(keys(small).map((key) => h.tidal.trackId(key)));
    expect(job.collections[0]!.target_playlist_id).toBeTruthy();
    // The song listed twice is searched once: its second copy finds the first one's graph write,
    // which a slice commits only at its end, so reading the graph commits it first.
    expect(searchesFor(small[1]!)).toBeGreaterThan(0);
    expect(searchesFor(small[0]!)).toBe(searchesFor(small[1]!));
  });

  it('lists items with filters, paging and X-Total-Count', async () => {
    const all = await h.api(`/api/migrations/${jobId}/items`);
    expect(all.status).toBe(200);
    expect(all.json as unknown[]).toHaveLength(13);
    const page = await h.api(`/api/migrations/${jobId}/items?limit=5&offset=10`);
    expect(page.headers.get('x-total-count')).toBe('13');
    expect(page.json as unknown[]).toHaveLength(3);
    const skipped = await h.api(`/api/migrations/${jobId}/items?problem_only=true`);
    expect((skipped.json as { status: string; reason: string }[]).map((item) => item.status)).toEqual(['skipped']);
    expect((skipped.json as { reason: string }[])[0]!.reason).toMatch(/not added twice/);
    const byTitle = await h.api(`/api/migrations/${jobId}/items?title=${encodeURIComponent(small[1]!.title.slice(0, 4))}&status=written`);
    expect((byTitle.json as { title: string }[]).every((item) => item.title.includes(small[1]!.title.slice(0, 4)))).toBe(true);
    expect((await h.api(`/api/migrations/${jobId}/items?limit=501`)).status).toBe(400);
    expect((await h.api('/api/migrations/00000000-0000-4000-8000-000000000000/items')).status).toBe(404);
  });

  it('streams the report as CSV (BOM, every field quoted) and as JSON', async () => {
    const response = await fetch(`${h.baseUrl}/api/migrations/${jobId}/report?format=csv`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/csv/);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString('utf8');
    expect(text.startsWith('"report_version","job_id"')).toBe(true);
    const lines = text.trim().split('\r\n');
    expect(lines).toHaveLength(14);
    expect(lines[1]!.startsWith('"2",')).toBe(true);
    const json = await h.api(`/api/migrations/${jobId}/report?format=json&scope=problems`);
    const report = json.json as { report_version: number; items: { status: string; source_metadata: unknown }[] };
    expect(report.report_version).toBe(2);
    expect(report.items.map((item) => item.status)).toEqual(['skipped']);
    expect(typeof report.items[0]!.source_metadata).toBe('object');
  });

  it('a rerun reuses the target playlist and adds nothing twice', async () => {
    const again = await create({ selection: { playlist_ids: [playlistIds['Small Set']] } });
    expect(again.status).toBe(202);
    const job = await h.waitForJob((again.json as { id: string }).id, finished);
    expect(job.outcome).toBe('completed');
    expect(job.counts).toMatchObject({ written: 0, skipped: 13 });
    expect(h.tidal.playlistsOf(h.tidalUser.userId).filter((playlist) => playlist.name === 'Small Set')).toHaveLength(1);
    expect(tidalEntries('Small Set')).toHaveLength(12);
  });

  it('reconciles an ambiguous write (applied, answer lost) without duplicates', async () => {
    h.tidal.failNext({ kind: 'ambiguous_write', method: 'POST', pathPrefix: '/v2/playlists/' });
    const started = await create({ selection: { playlist_ids: [playlistIds['Shaky Network']] } });
    const job = await h.waitForJob((started.json as { id: string }).id, finished);
    expect(job.outcome).toBe('completed');
    expect(tidalEntries('Shaky Network')).toEqual(keys(ambiguous).map((key) => h.tidal.trackId(key)));
  });

  it('refuses liked songs for a target without a writable liked library', async () => {
    const refused = await create({ selection: { playlist_ids: ['liked'] } });
    expect(refused.status).toBe(422);
    expect(refused.json).toMatchObject({ code: 'unsupported_target_type', unsupported: [{ entity: 'liked_tracks', missing: ['WRITE_LIBRARY'] }] });
  });

  it("moves liked songs into the target's liked library, never into a playlist", async () => {
    const liked = async () => ((await h.api(`/api/playlists/liked?account_id=${h.spotifyAccount}&refresh=true`)).json as { playlist: { tracks: { title: string }[] } }).playlist.tracks;
    const before = await liked();
    const playlistsBefore = ((await h.api(`/api/playlists?account_id=${h.spotifyAccount}&refresh=true`)).json as { playlists: unknown[] }).playlists.length;
    const started = await h.api('/api/migrations', { method: 'POST', body: JSON.stringify({ source_account_id: h.tidalAccount, target_provider: 'spotify', target_account_id: h.spotifyAccount, acknowledge_warnings: true, selection: { playlist_ids: ['liked'] } }) });
    expect(started.status).toBe(202);
    const job = await h.waitForJob((started.json as { id: string }).id, finished);
    expect(job.outcome).toBe('completed');
    expect(job.counts).toMatchObject({ total: 4, written: 4 });
    const after = await liked();
    expect(after).toHaveLength(before.length + 4);
    expect(after.slice(0, 4).map((track) => track.title).sort()).toEqual(tidalLiked.map((track) => track.title).sort());
    expect(((await h.api(`/api/playlists?account_id=${h.spotifyAccount}&refresh=true`)).json as { playlists: unknown[] }).playlists).toHaveLength(playlistsBefore);
  });
});

describe('an expired connection', () => {
  it('pauses the job (retryable), and reconnecting plus resume finishes it', async () => {
    // The preflight reads the target too: the connection breaks once the job is queued.
    const started = await create({ selection: { playlist_ids: [playlistIds['Paused Set']] } });
    expect(started.status).toBe(202);
    h.tidal.failNext({ kind: 'expired_token', times: 50, pathPrefix: '/v2/' });
    const jobId = (started.json as { id: string }).id;
    const pausedJob = await h.waitForJob(jobId, (job) => job.status === 'paused' || finished(job), 40_000).finally(() => h.tidal.clearFailures());
    expect(pausedJob).toMatchObject({ status: 'paused', error_code: 'auth_expired' });
    const accounts = (await h.api('/api/auth/accounts')).json as { accounts: { id: string; status: string }[] };
    expect(accounts.accounts.find((account) => account.id === h.tidalAccount)?.status).toBe('reauth_required');
    // Reconnect the same TIDAL user, then resume.
    const begin = await h.api('/api/auth/tidal/begin', { method: 'POST', body: '{}' });
    const authorize = await fetch((begin.json as { redirect_url: string }).redirect_url, { redirect: 'manual' });
    await fetch(authorize.headers.get('location')!, { redirect: 'manual' });
    const resumed = await h.api(`/api/migrations/${jobId}/resume`, { method: 'POST' });
    expect(resumed.status).toBe(200);
    const job = await h.waitForJob(jobId, finished);
    expect(job.outcome).toBe('completed');
    expect(tidalEntries('Paused Set')).toHaveLength(10);
  });
});

describe('live progress', () => {
  /** Reads the job's stream: `stopAfter` events, or (`untilDone`) until the job event that ends it. */
  function readEvents(jobId: string, lastEventId: number | null, stopAfter: number, untilDone: boolean): Promise<ServerEvent<{ status: string; id: string }>[]> {
    return readServerEvents<{ status: string; id: string }>(`${h.baseUrl}/api/migrations/${jobId}/events`, {
      ...(lastEventId === null ? {} : { lastEventId }),
      until: (events) => (untilDone ? events.at(-1)!.type === 'job' && ['completed', 'failed'].includes(events.at(-1)!.data.status) : events.length >= stopAfter),
    });
  }

  it('resumes after a dropped connection with Last-Event-ID and loses no change', async () => {
    const started = await create({ selection: { playlist_ids: [playlistIds['Big Set']], tracks: { [playlistIds['Big Set']!]: ['pos:0', 'pos:1', 'pos:2', 'pos:3', 'pos:4', 'pos:5', 'pos:6', 'pos:7'] } } });
    const jobId = (started.json as { id: string }).id;
    const first = await readEvents(jobId, null, 3, false);
    expect(first.length).toBe(3);
    const second = await readEvents(jobId, first.at(-1)!.id, 0, true);
    const ids = [...first, ...second].map((event) => Number(event.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    // Each change is sent once; a job event that only carries new counts shares its item's number.
    const itemIds = [...first, ...second].filter((event) => event.type === 'item').map((event) => Number(event.id));
    expect(new Set(itemIds).size).toBe(itemIds.length);
    // The counts follow the items: every item event is followed by a job event with the same or a later number.
    const lastItem = Math.max(...itemIds);
    expect([...first, ...second].some((event) => event.type === 'job' && Number(event.id) >= lastItem)).toBe(true);
    // The last state of every item seen in the stream equals the persisted one.
    const lastState = new Map<string, string>();
    for (const event of [...first, ...second]) if (event.type === 'item') lastState.set(event.data.id, event.data.status);
    const { json } = await h.api(`/api/migrations/${jobId}/items`);
    const items = json as { id: string; status: string }[];
    expect(items).toHaveLength(8);
    for (const item of items) expect(lastState.get(item.id)).toBe(item.status);
  });
});

describe('retention', () => {
  it('answers 410 after the detail deadline and keeps the summary after cleanup', async () => {
    const { json } = await h.api('/api/migrations?limit=1');
    const job = (json as JobJson[])[0]!;
    await h.app.app.services.migrations.store.change(job.id, { text: `update migration_job set detail_expires_at = now() - interval '1 minute' where id = ?`, values: [job.id] });
    expect((await h.api(`/api/migrations/${job.id}/items`)).status).toBe(410);
    expect((await h.api(`/api/migrations/${job.id}/report`)).status).toBe(410);
    const removed = await cleanUpMigrationHistory(h.app.app.services.migrations.store, 90, 3, () => false);
    expect(removed.jobs).toBeGreaterThanOrEqual(1);
    const after = await h.api(`/api/migrations/${job.id}`);
    expect(after.status).toBe(200);
    expect((after.json as JobJson).counts['total']).toBe(job.counts['total']);
    expect((after.json as JobJson).detail_available).toBe(false);
    const stats = await h.api('/api/migrations/stats');
    expect((stats.json as { total_migrations: number }).total_migrations).toBe(6);
  });
});

describe('one worker', () => {
  it('runs a job once when its queue entry comes again while the job runs', async () => {
    // A request that never answers holds the run in the middle of the job, as a busy process
    // would; then a second queue entry for the job reaches the same worker (the recovery sweep
    // queues a job whose lease renewal came late). The lease names the worker, so only the worker
    // itself can tell that the job is already running here.
    const requestsNow = () => h.tidal.requests.length + h.spotify.requests.length;
    const jobId = await startHeldAtCreate('Held Set');
    const store = h.app.app.services.migrations.store;
    const leaseOf = async () => (await store.execute({ text: `select lease_owner, status from migration_job where id = ?`, values: [jobId] }))[0];
    const holder = await leaseOf();
    expect(holder).toMatchObject({ status: 'running' });
    expect(holder!['lease_owner']).toBeTruthy();
    const before = requestsNow();

    await h.app.app.services.migrations.runner.run(jobId, new AbortController().signal);
    expect(requestsNow()).toBe(before);
    expect(await leaseOf()).toEqual(holder);

    // The held request times out; the first run carries on and finishes the job alone.
    const job = await h.waitForJob(jobId, finished, 120_000);
    expect(job).toMatchObject({ status: 'completed', outcome: 'completed' });
    expect(h.tidal.playlistsOf(h.tidalUser.userId).filter((playlist) => playlist.name === 'Held Set')).toHaveLength(1);
    expect(tidalEntries('Held Set')).toEqual(keys(held).map((key) => h.tidal.trackId(key)));
  }, 180_000);
});

describe('lease fencing', () => {
  it('a run whose lease another worker took while a request hung writes nothing more; the holder finishes the job once', async () => {
    // The create request never answers, as if this worker stalled; meanwhile another worker takes
    // the job (its lease ran out). When the request gives up, the stalled run must not carry on
    // writing beside the new holder: its next write is refused by the lease, before the provider is called.
    const jobId = await startHeldAtCreate('Fenced Set');
    const { store, runner } = h.app.app.services.migrations;
    await store.change(jobId, { text: `update migration_job set lease_owner = 'another-worker', lease_expires_at = now() + interval '1 hour' where id = ?`, values: [jobId] });

    // The held request times out; the run settles it (the target has no such playlist: not
    // created) and stops at its next write, the create's retry, before calling TIDAL.
    await runEnded(jobId);
    expect(await store.execute({ text: `select operation, state, error from operation_ledger where job_id = ?`, values: [jobId] })).toEqual([
      { operation: 'create_playlist', state: 'failed', error: 'not created: the target has no playlist of this name' },
    ]);
    expect(creates('Fenced Set')).toBe(1);
    expect(h.tidal.playlistsOf(h.tidalUser.userId).filter((playlist) => playlist.name === 'Fenced Set')).toHaveLength(0);
    // The lease is the other worker's still: the stopped run did not release it.
    expect((await store.execute({ text: `select lease_owner, status from migration_job where id = ?`, values: [jobId] }))[0]).toEqual({ lease_owner: 'another-worker', status: 'running' });

    // The holder (here: this worker again, once the other one let go) finishes the job, each song once.
    await store.change(jobId, { text: `update migration_job set lease_owner = null, lease_expires_at = null where id = ?`, values: [jobId] });
    await runner.run(jobId, new AbortController().signal);
    const job = await h.waitForJob(jobId, finished, 120_000);
    expect(job).toMatchObject({ status: 'completed', outcome: 'completed' });
    expect(h.tidal.playlistsOf(h.tidalUser.userId).filter((playlist) => playlist.name === 'Fenced Set')).toHaveLength(1);
    expect(tidalEntries('Fenced Set')).toEqual(keys(fenced).map((key) => h.tidal.trackId(key)));
  }, 300_000);

  it('cancelling a job while a write hangs: the run writes nothing more, and the job stays cancelled', async () => {
    const jobId = await startHeldAtCreate('Cancelled Set');
    const cancelled = await h.api(`/api/migrations/${jobId}/cancel`, { method: 'POST' });
    expect(cancelled.status, cancelled.text).toBe(200);
    await runEnded(jobId);
    expect(creates('Cancelled Set')).toBe(1);
    expect(h.tidal.playlistsOf(h.tidalUser.userId).filter((playlist) => playlist.name === 'Cancelled Set')).toHaveLength(0);
    expect((await h.api(`/api/migrations/${jobId}`)).json).toMatchObject({ status: 'cancelled', error_code: 'cancelled' });
  }, 300_000);
});

describe('shutdown', () => {
  it('ends open event streams so that stopping the engine does not wait for them', async () => {
    const { json } = await h.api('/api/migrations?limit=1');
    const jobId = (json as JobJson[])[0]!.id;
    const response = await fetch(`${h.baseUrl}/api/migrations/${jobId}/events`);
    const reader = response.body!.getReader();
    await reader.read();
    // The stream stays open on the client side; stopping must end it (the test timeout catches a hang).
    await h.app.app.stop();
    for (;;) {
      const { done } = await reader.read();
      if (done) break;
    }
  }, 30_000);
});
