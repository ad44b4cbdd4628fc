import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_OWNER_ID } from '../../../core/services/owner/owner.ts';
import { isAvailableOn, seedCatalog } from '../../fakes/seed-catalog.ts';
import { startMigrationHarness, type MigrationHarness } from '../migrations/migration-harness.ts';
import { organizerClient, type OrganizerJobJson } from './organizer-harness.ts';

/**
 * A worker that dies mid-job leaves durable state behind: the item marked `running` (its attempt
 * counted) and the job's lease held by a process that is gone. Each test puts a job in exactly the
 * state a crash at one point leaves (before the call was sent, after the provider applied it,
 * between the provider's removal and the put-back of the extra copies), with the provider's side
 * made to match, then lets a new worker run it. Nothing may be removed twice or beyond the
 * selection, and every job ends terminal. The engine runs without a worker role, so only the test
 * runs the worker.
 */

const catalog = seedCatalog();
const [a, b, c] = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'spotify')).map((track) => track.key) as [string, string, string];

let h: MigrationHarness;
let client: ReturnType<typeof organizerClient>;
let sql: pg.Client;

beforeAll(async () => {
  h = await startMigrationHarness({
    spotifyLibrary: {
      playlists: [
        { name: 'Crash Before Send', trackKeys: [a, b, c] },
        { name: 'Crash After Apply', trackKeys: [a, b, c] },
        { name: 'Crash Before Put-back', trackKeys: [a, b, a, c] },
        { name: 'Held Elsewhere', trackKeys: [a, b, c] },
      ],
    },
    tidalLibrary: {},
    worker: false,
    overrides: { organizerLeaseSeconds: 2 },
  });
  client = organizerClient(h);
  sql = new pg.Client({ connectionString: h.app.databaseUrl });
  await sql.connect();
}, 300_000);

afterAll(async () => {
  await sql?.end();
  await h?.close();
});

const playlist = (name: string) => h.spotify.playlistByName(h.spotifyUser.userId, name)!;
const deletesOf = (id: string) => h.spotify.requests.filter((request) => request.method === 'DELETE' && request.path === `/v1/playlists/${id}/items`).length;

/** Starts the job (it stays queued: nobody polls), then leaves it as a worker that died holding it. */
async function crashedJob(name: string, position: number): Promise<string> {
  const target = playlist(name);
  const preflight = await client.preflightOk({ account_id: h.spotifyAccount, action: 'remove_tracks', playlist_id: target.id, entries: [{ position, uri: target.uris[position] }] });
  const started = await client.createJob({ preflight_token: preflight.token, confirmation: preflight.confirmation_phrase });
  expect(started.status, started.text).toBe(202);
  const jobId = (started.json as OrganizerJobJson).id;
  await sql.query(`update organizer_item set status = 'running', attempts = 1 where job_id = $1`, [jobId]);
  await sql.query(`update organizer_job set status = 'running', lease_owner = 'organizer-dead-worker', lease_until = now() - interval '1 second' where id = $1`, [jobId]);
  return jobId;
}

async function runWorker(jobId: string): Promise<OrganizerJobJson> {
  await h.app.app.services.organizer.runner.run(jobId, new AbortController().signal);
  return (await client.job(jobId)).json as OrganizerJobJson;
}

describe('organizer jobs after a worker crash', () => {
  it('re-queues a job whose worker is gone', async () => {
    await crashedJob('Held Elsewhere', 0);
    expect(await h.app.app.services.organizer.recovery.sweep()).toBeGreaterThanOrEqual(1);
  });

  it('crash before the call was sent: the playlist still has its baseline, so the removal is sent once', async () => {
    const target = playlist('Crash Before Send');
    const jobId = await crashedJob('Crash Before Send', 1);
    const job = await runWorker(jobId);
    expect(job).toMatchObject({ status: 'completed', items: [{ status: 'succeeded', attempts: 2 }] });
    expect(playlist('Crash Before Send').uris).toEqual([target.uris[0], target.uris[2]]);
    expect(deletesOf(target.id)).toBe(1);
  });

  it('crash after the provider applied the removal: settled by the exact expected sequence, never sent again', async () => {
    const target = playlist('Crash After Apply');
    const jobId = await crashedJob('Crash After Apply', 0);
    // What the dead worker's call did at the provider.
    await h.app.app.services.connections.call(LOCAL_OWNER_ID, h.spotifyAccount, 'removeTracks', { playlist_id: target.id, items: [{ uri: target.uris[0]!, position: 0 }], snapshot_id: target.snapshotId });
    expect(deletesOf(target.id)).toBe(1);
    const job = await runWorker(jobId);
    expect(job).toMatchObject({ status: 'completed', items: [{ status: 'succeeded', notes: ['The removal had already been applied; it was not sent again.'] }] });
    expect(playlist('Crash After Apply').uris).toEqual([target.uris[1], target.uris[2]]);
    expect(deletesOf(target.id)).toBe(1);
  });

  it('crash between the removal of every copy and the put-back: only the put-back is finished', async () => {
    const target = playlist('Crash Before Put-back');
    const [uriA, uriB, , uriC] = target.uris;
    const jobId = await crashedJob('Crash Before Put-back', 0);
    // Spotify dropped both copies of A; the dead worker never put the unselected one back.
    await h.app.app.services.connections.call(LOCAL_OWNER_ID, h.spotifyAccount, 'removeTracks', { playlist_id: target.id, items: [{ uri: uriA!, position: 0 }], snapshot_id: target.snapshotId });
    expect(playlist('Crash Before Put-back').uris).toEqual([uriB, uriC]);
    const job = await runWorker(jobId);
    expect(job.status, JSON.stringify(job)).toBe('completed');
    expect(job.items[0]!.notes.join(' ')).toMatch(/put back at its position \(1\)/);
    expect(playlist('Crash Before Put-back').uris).toEqual([uriB, uriA, uriC]);
    expect(deletesOf(target.id)).toBe(1);
  });

  it('a worker never runs a job whose lease another live worker holds', async () => {
    const target = playlist('Held Elsewhere');
    const [{ id: jobId }] = (await sql.query<{ id: string }>(`select j.id from organizer_job j join organizer_item i on i.job_id = j.id where i.playlist_id = $1`, [target.id])).rows as [{ id: string }];
    await sql.query(`update organizer_job set lease_owner = 'organizer-live-worker', lease_until = now() + interval '1 hour' where id = $1`, [jobId]);
    const job = await runWorker(jobId);
    expect(job.status).toBe('running');
    expect(deletesOf(target.id)).toBe(0);
    expect(playlist('Held Elsewhere').uris).toEqual(target.uris);
  });
});
