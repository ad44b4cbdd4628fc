import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAvailableOn, seedCatalog, type SeedTrack } from '../../fakes/seed-catalog.ts';
import { startMigrationHarness, type JobJson, type MigrationHarness } from './migration-harness.ts';
import { expectCleanMigrations } from './support/migration-checks.ts';

/**
 * Retry waits follow the provider: a 429 whose Retry-After is short (and outlasts the sandbox
 * fetch's own two retries) is slept through by the worker for exactly that long; one whose Retry-After is longer than the worker sleeps through puts the job back in
 * the queue with a persisted resume time of that Retry-After (not a fixed guess), and the job
 * continues by itself then. (The exponential backoff without a hint is unit-tested.)
 */

const catalog = seedCatalog();
const onBoth = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'spotify') && isAvailableOn(track, 'tidal'));
const short = { name: 'Short Wait', tracks: onBoth.slice(0, 4) };
const long = { name: 'Long Wait', tracks: onBoth.slice(10, 14) };

let h: MigrationHarness;
let playlistIds: Record<string, string> = {};
const finished = (job: JobJson) => ['completed', 'failed', 'cancelled'].includes(job.status);
const trackIds = (tracks: readonly SeedTrack[]) => tracks.map((track) => h.tidal.trackId(track.key)!);

async function migrate(name: string): Promise<string> {
  const { status, json } = await h.api('/api/migrations', {
    method: 'POST',
    body: JSON.stringify({ source_account_id: h.spotifyAccount, target_provider: 'tidal', target_account_id: h.tidalAccount, acknowledge_warnings: true, selection: { playlist_ids: [playlistIds[name]] } }),
  });
  expect(status, JSON.stringify(json)).toBe(202);
  return (json as { id: string }).id;
}

/** The worker's "waits and retries" log lines of one job. */
function waits(jobId: string): { waitS: number; retryAfterS: number | null }[] {
  return h.app.logs
    .filter((line) => line.includes('migration waits and retries') && line.includes(jobId))
    .map((line) => JSON.parse(line) as { waitS: number; retryAfterS: number | null });
}

beforeAll(async () => {
  h = await startMigrationHarness({
    spotifyLibrary: { playlists: [short, long].map((set) => ({ name: set.name, trackKeys: set.tracks.map((track) => track.key) })) },
    tidalLibrary: {},
  });
  const { json } = await h.api(`/api/playlists?account_id=${h.spotifyAccount}`);
  playlistIds = Object.fromEntries((json as { playlists: { id: string; name: string }[] }).playlists.map((playlist) => [playlist.name, playlist.id]));
}, 300_000);

afterAll(async () => {
  await h?.close();
});

describe('retry waits', () => {
  it("a short Retry-After on a write is slept through for exactly the provider's time", async () => {
    // Every write of the target (playlist creation, then the adds) is a POST under /v2/playlists.
    // The sandbox's fetch itself retries a short 429 twice (after the same Retry-After); the third
    // answer reaches the worker, which waits the provider's time once more.
    h.tidal.failNext({ kind: 'rate_limit', retryAfterS: 3, method: 'POST', pathPrefix: '/v2/playlists', times: 3 });
    const jobId = await migrate(short.name);
    await h.waitForJob(jobId, finished, 120_000);
    expect(waits(jobId)).toEqual([expect.objectContaining({ waitS: 3, retryAfterS: 3 })]);
    await expectCleanMigrations((path) => h.api(path), h.app, h.tidal, h.tidalUser.userId, [{ jobId, name: short.name, trackIds: trackIds(short.tracks) }]);
  }, 180_000);

  it('a long Retry-After re-queues the job with that resume time persisted; it then finishes by itself', async () => {
    h.tidal.failNext({ kind: 'rate_limit', retryAfterS: 40, method: 'POST', pathPrefix: '/v2/playlists', times: 1 });
    const jobId = await migrate(long.name);
    const waiting = await h.waitForJob(jobId, (job) => job.error_code === 'rate_limited' || finished(job), 120_000);
    expect(waiting).toMatchObject({ status: 'queued', outcome: 'running', error_code: 'rate_limited' });
    const [row] = await h.app.app.services.migrations.store.execute({
      text: `select extract(epoch from resume_at - updated_at)::float8 as wait_s, summary->'transient_failures' as transient from migration_job where id = ?`,
      values: [jobId],
    });
    // The wait is the provider's 40 s (stored at the same instant as updated_at, give or take the statement).
    expect(Number(row!['wait_s'])).toBeGreaterThan(38);
    expect(Number(row!['wait_s'])).toBeLessThan(42);
    expect(Number(row!['transient'])).toBe(1);
    expect(waits(jobId)).toEqual([]);
    await h.waitForJob(jobId, finished, 150_000);
    await expectCleanMigrations((path) => h.api(path), h.app, h.tidal, h.tidalUser.userId, [{ jobId, name: long.name, trackIds: trackIds(long.tracks) }]);
  }, 240_000);
});
