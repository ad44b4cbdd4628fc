import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeProviderServer } from '../../fakes/fake-provider.ts';
import { isAvailableOn, seedCatalog, type SeedTrack } from '../../fakes/seed-catalog.ts';
import { expectCleanMigrations } from './support/migration-checks.ts';
import { tapRequests, type RequestTap } from './support/request-tap.ts';
import { startSplitHarness, type SplitHarness } from './support/split-harness.ts';

/**
 * Two worker processes on one database share the queue: several jobs run concurrently, each one
 * completes exactly once with no duplicate, and the central rate limiter (buckets in PostgreSQL)
 * keeps each provider account within its plugin's `requests_per_second` and `burst` across both
 * processes — checked on the arrival times of the requests at the fake providers.
 */

const catalog = seedCatalog();
const onBoth = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'spotify') && isAvailableOn(track, 'tidal'));
const sets: { name: string; tracks: SeedTrack[] }[] = [0, 1, 2, 3, 4].map((index) => ({ name: `Shared ${index + 1}`, tracks: onBoth.slice(index * 20, index * 20 + 20) }));

let h: SplitHarness;
let tap: RequestTap;

beforeAll(async () => {
  h = await startSplitHarness({
    spotifyLibrary: { playlists: sets.map((set) => ({ name: set.name, trackKeys: set.tracks.map((track) => track.key) })) },
    leaseSeconds: 2,
    sliceSeconds: 3,
  });
  tap = tapRequests([h.spotify, h.tidal]);
}, 300_000);

afterAll(async () => {
  await h?.close();
});

interface Pacing {
  requests_per_second: number;
  burst: number;
}

function pacingOf(provider: string): Pacing {
  const manifest = h.app.app.services.plugins.catalogue.providerPlugin(provider);
  const pacing = manifest?.provider?.pacing;
  if (!pacing) throw new Error(`${provider}: no pacing in the manifest`);
  return pacing;
}

/**
 * The most requests any time window held beyond what a token bucket allows: `burst` plus `rate`
 * per second of the window. Arrival times carry the network's jitter, so each window gets
 * `slackS` seconds more; a positive answer means the limit was broken.
 */
function worstExcess(arrivals: readonly number[], pacing: Pacing, slackS: number): { excess: number; window: string } {
  const sorted = [...arrivals].sort((a, b) => a - b);
  let worst = { excess: -Infinity, window: '' };
  for (let i = 0; i < sorted.length; i++) {
    for (let j = i; j < sorted.length; j++) {
      const seconds = (sorted[j]! - sorted[i]!) / 1000;
      const excess = j - i + 1 - (pacing.burst + pacing.requests_per_second * (seconds + slackS));
      if (excess > worst.excess) worst = { excess, window: `${j - i + 1} requests in ${seconds.toFixed(3)} s` };
    }
  }
  return worst;
}

describe('two worker processes', () => {
  it('run several jobs concurrently, each exactly once, within the pacing of every account', async () => {
    const start = h.tidal.requests.length;
    const startSpotify = h.spotify.requests.length;
    const workers = [h.startWorker(), h.startWorker()];
    await Promise.all(workers.map((worker) => worker.ready));
    const jobIds: string[] = [];
    for (const set of sets) jobIds.push(await h.migrate(set.name));

    // Who holds which job, sampled while they run: both processes must take part.
    const holders = new Map<string, Set<string>>();
    const deadline = Date.now() + 300_000;
    for (;;) {
      const rows = await h.app.app.services.migrations.store.execute({
        text: `select id, status, lease_owner from migration_job where id in (select (jsonb_array_elements_text(?::jsonb))::uuid)`,
        values: [JSON.stringify(jobIds)],
      });
      for (const row of rows) {
        const owner = row['lease_owner'] as string | null;
        if (owner) holders.set(owner.split(':')[1]!, (holders.get(owner.split(':')[1]!) ?? new Set()).add(String(row['id'])));
      }
      if (rows.every((row) => ['completed', 'failed', 'cancelled'].includes(String(row['status'])))) break;
      if (Date.now() > deadline) throw new Error(`jobs did not finish: ${JSON.stringify(rows)}\n${workers.map((worker) => worker.output().slice(-3000)).join('\n---\n')}`);
      await sleep(100);
    }
    await Promise.all(workers.map((worker) => worker.stop()));
    expect([...holders.keys()].sort()).toEqual(workers.map((worker) => String(worker.child.pid)).sort());

    await expectCleanMigrations(
      (path) => h.api(path),
      h.app,
      h.tidal,
      h.tidalUser.userId,
      sets.map((set, index) => ({ jobId: jobIds[index]!, name: set.name, trackIds: set.tracks.map((track) => h.tidal.trackId(track.key)!) })),
    );
    // Exactly once: one playlist created per job, and every write applied once (no write repeated).
    const tidalRequests = h.tidal.requests.slice(start);
    expect(tidalRequests.filter((request) => request.method === 'POST' && request.path === '/v2/playlists')).toHaveLength(sets.length);
    const finished = workers.flatMap((worker) => worker.output().split('\n').filter((line) => line.includes('"msg":"migration finished"')));
    expect(finished.map((line) => (JSON.parse(line) as { migration: string }).migration).sort()).toEqual([...jobIds].sort());

    const check = (fake: FakeProviderServer, from: number, provider: string, atLeast: number) => {
      const arrivals = fake.requests
        .slice(from)
        .filter((request) => request.path.startsWith('/v1/') || request.path.startsWith('/v2/'))
        .map((request) => tap.arrivedAt(request));
      expect(arrivals.length, `${provider}: requests`).toBeGreaterThanOrEqual(atLeast);
      // One second of slack for the time between the grant (database clock) and the arrival at the
      // fake on a loaded machine: a limiter that paced each process alone would break the limit by
      // the dozens of requests, not by a few.
      const worst = worstExcess(arrivals, pacingOf(provider), 1);
      process.stdout.write(`two-workers: ${provider}: ${arrivals.length} requests; fullest window ${worst.window}, ${worst.excess.toFixed(2)} from the limit\n`);
      expect(worst.excess, `${provider}: worst window ${worst.window} (pacing ${JSON.stringify(pacingOf(provider))})`).toBeLessThanOrEqual(0);
    };
    check(h.tidal, start, 'tidal', 100);
    check(h.spotify, startSpotify, 'spotify', 5);
  }, 420_000);
});
