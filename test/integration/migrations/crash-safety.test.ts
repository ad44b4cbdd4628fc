import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAvailableOn, seedCatalog, type SeedTrack } from '../../fakes/seed-catalog.ts';
import { reachKillPoint, seededKillPoint, waitForWorker, workerRelay, type WorkerRelay } from './support/kill-points.ts';
import { expectCleanMigrations } from './support/migration-checks.ts';
import { seededRandom, tapRequests, testSeed, type RequestTap } from './support/request-tap.ts';
import { startSplitHarness, type SplitHarness } from './support/split-harness.ts';

/**
 * Crash safety: a worker process is killed with SIGKILL at random points of running migrations —
 * right after a provider received a search, a read or a write (so the answer is lost with the
 * process), or a little later, in the middle of the engine's own bookkeeping — and started again,
 * at least 50 times. Every job must still finish, with each song in its target playlist exactly
 * once, every item written and no write left uncertain in the ledger. The kill points come from a
 * seeded PRNG: the seed is printed, and TEST_SEED=<seed> replays a run.
 */

const LEASE_SECONDS = 2;
const MIN_KILLS = 50;
const catalog = seedCatalog();
const onBoth = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'spotify') && isAvailableOn(track, 'tidal'));
// Five jobs start at once; when the kills leave no job unfinished before the 50th, the next one
// starts (how much one life of a worker gets done varies with the random kill point).
const sets: { name: string; tracks: SeedTrack[] }[] = Array.from({ length: 18 }, (_, index) => ({ name: `Crash ${index + 1}`, tracks: onBoth.slice(index * 20, index * 20 + 20) }));
const FIRST_JOBS = 5;
const lostAnswer = { name: 'Lost Answer', tracks: onBoth.slice(360, 370) };

let h: SplitHarness;
let tap: RequestTap;
let relay: WorkerRelay;
const seed = testSeed();

beforeAll(async () => {
  h = await startSplitHarness({
    spotifyLibrary: { playlists: [...sets, lostAnswer].map((set) => ({ name: set.name, trackKeys: set.tracks.map((track) => track.key) })) },
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

async function unfinished(jobIds: readonly string[]): Promise<number> {
  const rows = await h.app.app.services.migrations.store.execute({
    text: `select count(*)::int as n from migration_job where id in (select (jsonb_array_elements_text(?::jsonb))::uuid) and status not in ('completed', 'failed', 'cancelled')`,
    values: [JSON.stringify(jobIds)],
  });
  return Number(rows[0]!['n']);
}

describe('a worker killed at random points', () => {
  it(`loses nothing and duplicates nothing over ${MIN_KILLS}+ kills (seed printed)`, async () => {
    process.stdout.write(`crash-safety seed: ${seed} (replay with TEST_SEED=${seed})\n`);
    const random = seededRandom(seed);
    const jobIds: string[] = [];
    for (const set of sets.slice(0, FIRST_JOBS)) jobIds.push(await h.migrate(set.name));

    const started = Date.now();
    let kills = 0;
    const killedAt: string[] = [];
    while (kills < MIN_KILLS) {
      if ((await unfinished(jobIds)) === 0) {
        const next = sets[jobIds.length];
        if (!next) throw new Error(`all ${jobIds.length} jobs finished after only ${kills} kills`);
        jobIds.push(await h.migrate(next.name));
      }
      const worker = await relay.next();
      // Kill after the provider received 1–3 more requests — or, half of the time, right after a
      // write — plus 0–400 ms: the answer of the last request is lost, or the engine is somewhere
      // in its bookkeeping. What is left may need no provider request at all (say, only finishing
      // a job whose last write was recorded): then the kill lands after a few seconds instead.
      const point = seededKillPoint(random, { maxRequests: 3, writeShare: 0.5, maxExtraMs: 400 });
      const at = await reachKillPoint(worker, tap, point, { isWrite: (request) => request.method !== 'GET', writeOrCount: true, giveUpMs: 5_000 });
      const before = await unfinished(jobIds);
      await relay.kill(worker);
      if (before > 0) {
        kills += 1;
        killedAt.push(at);
        process.stdout.write(`crash-safety: kill ${kills} at ${at}, ${Math.round((Date.now() - started) / 1000)} s\n`);
      }
    }
    process.stdout.write(`crash-safety: ${kills} kills over ${jobIds.length} jobs in ${Math.round((Date.now() - started) / 1000)} s; kill points: ${killedAt.join(', ')}\n`);

    // A last worker finishes the jobs undisturbed.
    const worker = await relay.next();
    await waitForWorker(worker, 'jobs did not finish after the kills', async () => (await unfinished(jobIds)) === 0, 180_000);
    await worker.stop();
    process.stdout.write(`crash-safety: finished ${Math.round((Date.now() - started) / 1000)} s after the first job was created\n`);

    await expectCleanMigrations(
      (path) => h.api(path),
      h.app,
      h.tidal,
      h.tidalUser.userId,
      jobIds.map((jobId, index) => ({ jobId, name: sets[index]!.name, trackIds: sets[index]!.tracks.map((track) => h.tidal.trackId(track.key)!) })),
    );
  }, 600_000);

  it('a worker killed once its write reached the provider: the next one confirms it by reading the target and reports the items written', async () => {
    const jobId = await h.migrate(lostAnswer.name);
    const worker = await relay.next();
    // The fake applies the write whatever happens to the caller; the kill loses only the answer.
    const written = new Promise<void>((resolve) => {
      const stop = tap.listen((request) => {
        if (request.method === 'POST' && request.path.endsWith('/relationships/items')) {
          stop();
          resolve();
        }
      });
    });
    // A worker that never writes fails here with its log, instead of as the test's time-out.
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`the worker did not write within 90 s:\n${worker.output().slice(-6000)}`)), 90_000);
    });
    try {
      await Promise.race([written, gaveUp]);
    } finally {
      clearTimeout(timer);
    }
    await relay.kill(worker);
    expect(await unfinished([jobId])).toBe(1);
    const uncertain = await h.app.app.services.migrations.store.execute({ text: `select count(*)::int as n from operation_ledger where job_id = ? and state = 'intended'`, values: [jobId] });
    expect(Number(uncertain[0]!['n'])).toBe(lostAnswer.tracks.length);

    const next = await relay.next();
    await waitForWorker(next, 'the job did not finish', async () => (await unfinished([jobId])) === 0, 60_000);
    await next.stop();
    // The write went to the provider once: the next worker read the target instead of repeating it,
    // and reports the items as written by this job — not as songs that were already there.
    const [target] = h.tidal.playlistsOf(h.tidalUser.userId).filter((playlist) => playlist.name === lostAnswer.name);
    const writes = h.tidal.requests.filter((request) => request.method === 'POST' && request.path === `/v2/playlists/${target!.id}/relationships/items`);
    expect(writes).toHaveLength(1);
    const ledger = await h.app.app.services.migrations.store.execute({ text: `select state, count(*)::int as n from operation_ledger where job_id = ? and operation = 'add_tracks' group by state`, values: [jobId] });
    expect(ledger).toEqual([{ state: 'observed', n: lostAnswer.tracks.length }]);
    await expectCleanMigrations((path) => h.api(path), h.app, h.tidal, h.tidalUser.userId, [{ jobId, name: lostAnswer.name, trackIds: lostAnswer.tracks.map((track) => h.tidal.trackId(track.key)!) }]);
  }, 300_000);
});
