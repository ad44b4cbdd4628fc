import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAvailableOn, seedCatalog } from '../../fakes/seed-catalog.ts';
import { reachKillPoint, seededKillPoint, workerRelay, type WorkerRelay } from '../migrations/support/kill-points.ts';
import { seededRandom, tapRequests, testSeed, type RequestTap } from '../migrations/support/request-tap.ts';
import { startSplitHarness, type SplitHarness } from '../migrations/support/split-harness.ts';
import type { RuleJson, RunJson } from './sync-harness.ts';

/**
 * Sync runs in real worker processes on one database (Spotify source → TIDAL target):
 *
 * - **Crash safety of add-only runs.** A worker is killed with SIGKILL at seeded points of a run's
 *   path — after 1–6 provider requests of it (source read, search, target read), or right after a
 *   write reached TIDAL (its answer lost), plus 0–300 ms of the engine's bookkeeping — at least 20
 *   times, one worker process per kill (built while the one before works). Between runs the source gains songs, some of which the
 *   owner already put on the target by hand. The next worker takes the run over (its lease ran
 *   out; the evaluation re-queues it) or finishes its migration job. At the end every source song
 *   is on the target exactly once. Small on purpose: a few songs per round. *
 * TEST_SEED=<seed> replays the kill points.
 */

const LEASE_SECONDS = 2;
const MIN_KILLS = 20;
const catalog = seedCatalog();
const onBoth = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'spotify') && isAvailableOn(track, 'tidal'));
const crashSongs = onBoth.slice(0, 4);
const pool = onBoth.slice(4, 90);

let h: SplitHarness;
let tap: RequestTap;
let relay: WorkerRelay;
const seed = testSeed();

beforeAll(async () => {
  h = await startSplitHarness({
    spotifyLibrary: { playlists: [{ name: 'Sync Crash', trackKeys: crashSongs.map((track) => track.key) }] },
    leaseSeconds: LEASE_SECONDS,
    sliceSeconds: 5,
  });
  tap = tapRequests([h.spotify, h.tidal]);
  relay = workerRelay((options) => h.startWorker(options), LEASE_SECONDS);
}, 300_000);

afterAll(async () => {
  await relay?.close();
  await h?.close();
});

const sync = () => h.app.app.services.sync;
const tidalIds = (playlistId: string) => h.tidal.state.playlists.get(playlistId)!.items.map((item) => item.id);

async function spotifyAppend(playlistName: string, keys: readonly string[]): Promise<void> {
  const response = await fetch(`${h.spotify.baseUrl}/v1/playlists/${h.playlistIds[playlistName]}/items`, {
    method: 'POST',
    headers: { authorization: `Bearer ${h.spotifyUser.accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ uris: keys.map((key) => h.spotify.uriOf(key)!) }),
  });
  expect(response.status, await response.text()).toBe(201);
}

/** The owner adds songs on TIDAL by hand (its app: new entries, a new `lastModifiedAt`). */
function tidalAddByHand(playlistId: string, keys: readonly string[]): void {
  const playlist = h.tidal.state.playlists.get(playlistId)!;
  for (const key of keys) playlist.items.push(h.tidal.state.newEntry('tracks', h.tidal.trackId(key)!));
  playlist.lastModifiedAt = h.tidal.state.timestamp();
}

/** Migrates one source playlist with a worker, makes an add-only rule of it; returns the rule and its target. */
async function ruleFor(playlistName: string): Promise<{ rule: RuleJson; targetId: string }> {
  const jobId = await h.migrate(playlistName);
  const deadline = Date.now() + 120_000;
  while ((await h.job(jobId)).status !== 'completed') {
    if (Date.now() > deadline) throw new Error(`the origin migration did not complete: ${JSON.stringify(await h.job(jobId))}`);
    await sleep(250);
  }
  const targetId = (await h.job(jobId)).collections[0]!.target_playlist_id!;
  const created = await h.api('/api/syncs', { method: 'POST', body: JSON.stringify({ migration_job_id: jobId, schedule: { kind: 'interval', every_minutes: 60 } }) });
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  return { rule: created.json as RuleJson, targetId };
}

const rule = async (ruleId: string) => (await h.api(`/api/syncs/${ruleId}`)).json as RuleJson;
const runs = async (ruleId: string) => (await h.api(`/api/syncs/${ruleId}/runs`)).json as RunJson[];

describe('add-only sync runs in killed workers', () => {
  it(`an add-only run killed at ${MIN_KILLS}+ seeded points and run again never duplicates and converges (seed printed)`, async () => {
    process.stdout.write(`sync crash-safety seed: ${seed} (replay with TEST_SEED=${seed})\n`);
    const random = seededRandom(seed);
    const setup = await relay.next();
    const { rule: crashRule, targetId } = await ruleFor('Sync Crash');
    await setup.stop();

    const expected = new Set(crashSongs.map((track) => h.tidal.trackId(track.key)!));
    let next = 0;
    let kills = 0;
    let rounds = 0;
    const killedAt: string[] = [];
    const started = Date.now();
    while (kills < MIN_KILLS) {
      if ((await rule(crashRule.id)).active_run === null) {
        // A new round: the source gains two songs; half of the time the owner already put one on the target.
        const added = pool.slice(next, next + 2).map((track) => track.key);
        next += 2;
        expect(added, 'the pool of songs ran out before enough kills').toHaveLength(2);
        if (random() < 0.5) tidalAddByHand(targetId, [added[0]!]);
        await spotifyAppend('Sync Crash', added);
        for (const key of added) expected.add(h.tidal.trackId(key)!);
        const queued = await h.api(`/api/syncs/${crashRule.id}/run`, { method: 'POST' });
        expect(queued.status, JSON.stringify(queued.json)).toBe(202);
        rounds += 1;
      }
      const worker = await relay.next();
      // Token refreshes and connection checks are not the run's steps.
      const point = seededKillPoint(random, { maxRequests: 6, writeShare: 0.4, maxExtraMs: 300 });
      const at = await reachKillPoint(worker, tap, point, {
        isStep: (request) => request.path.startsWith('/v1/playlists') || request.path.startsWith('/v2/'),
        isWrite: (request) => request.method === 'POST',
        giveUpMs: 2_000,
      });
      const open = (await rule(crashRule.id)).active_run !== null;
      await relay.kill(worker);
      if (open) {
        kills += 1;
        killedAt.push(at);
        process.stdout.write(`sync crash-safety: kill ${kills} at ${at}, ${Math.round((Date.now() - started) / 1000)} s\n`);
      }
      // What the every-minute evaluation does: a run whose worker vanished is queued again.
      await sync().scheduler.evaluate();
      // Never two entries of one song, whatever the kill interrupted.
      const now = tidalIds(targetId);
      expect(new Set(now).size, `duplicates after kill ${kills} (${at})`).toBe(now.length);
    }

    // A last worker finishes undisturbed; a run that failed because of a kill is followed by one more.
    const worker = await relay.next();
    const deadline = Date.now() + 90_000;
    for (;;) {
      const current = await rule(crashRule.id);
      if (current.active_run === null) {
        if (tidalIds(targetId).length === expected.size) break;
        const again = await h.api(`/api/syncs/${crashRule.id}/run`, { method: 'POST' });
        expect(again.status, JSON.stringify(again.json)).toBe(202);
      }
      if (Date.now() > deadline) throw new Error(`the rule did not converge: ${JSON.stringify(current)}\n${worker.output().slice(-4000)}`);
      await sync().scheduler.evaluate();
      await sleep(300);
    }
    await worker.stop();
    process.stdout.write(`sync crash-safety: ${kills} kills over ${rounds} rounds in ${Math.round((Date.now() - started) / 1000)} s; kill points: ${killedAt.join(', ')}\n`);
    const final = tidalIds(targetId);
    expect(new Set(final).size).toBe(final.length);
    expect(new Set(final)).toEqual(expected);
    // Every run ended, and none was recorded twice: each run has at most one migration job.
    const all = await runs(crashRule.id);
    expect(all.every((run) => ['completed', 'failed', 'cancelled'].includes(run.status)), JSON.stringify(all)).toBe(true);
    const jobs = await sync().execute({ text: `select sync_run_id, count(*)::int as n from migration_job where sync_run_id is not null group by sync_run_id having count(*) > 1`, values: [] });
    expect(jobs).toEqual([]);
  }, 600_000);
});
