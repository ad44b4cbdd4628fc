import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimited, type Pacing } from '@opl/plugin-sdk';
import { pacingSchema } from '@opl/plugin-sdk/schemas';
import { QuotaExhausted, RateLimiter, type Transaction } from '../../../core/services/pacing/rate-limiter.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * The central rate limiter against real PostgreSQL: two limiters stand in for two engine processes
 * sharing one bucket; a Retry-After seen by one holds the other back; the daily quota is shared.
 */

let testApp: TestApp;
let transaction: Transaction;
const pacing: Pacing = { requests_per_second: 5, burst: 2, jitter: false, search_quota_cost: 1, write_quota_cost: 1, daily_quota: null, quota: null };

function limiter(rules: Pacing, sleeps: number[]): RateLimiter {
  return new RateLimiter({
    transaction,
    pacingFor: (pluginId) => (pluginId === 'com.example.none' ? null : rules),
    random: () => 0,
    sleep: async (ms) => {
      sleeps.push(ms);
      await new Promise((resolve) => setTimeout(resolve, ms));
    },
  });
}

beforeAll(async () => {
  testApp = await startTestApp();
  const { orm } = testApp.app.services.database;
  transaction = (work) => orm.em.fork().transactional((em) => work((statement) => em.execute(statement.text, statement.values)));
});

afterAll(async () => {
  await testApp?.close();
});

describe('rate limiter', () => {
  it('shares one bucket between processes: the burst is spent once, then both wait for the refill', async () => {
    const sleepsA: number[] = [];
    const sleepsB: number[] = [];
    const a = limiter(pacing, sleepsA);
    const b = limiter(pacing, sleepsB);
    const permit = { pluginId: 'com.example.shared', accountId: 'acct-1', op: 'listPlaylists' as const, cost: 1 };
    // The bucket fills from its first grant, so the refill is timed from before the burst: timed from
    // after it, a slow machine's burst already used up part of the 400 ms the next two tokens need.
    const started = Date.now();
    await a.acquire(permit);
    await b.acquire(permit);
    expect(sleepsA.length + sleepsB.length).toBe(0);
    await Promise.all([a.acquire(permit), b.acquire(permit)]);
    expect(sleepsA.length + sleepsB.length).toBeGreaterThanOrEqual(2);
    // Four tokens from a burst of two at 5/s need at least ~400 ms after the first, whoever waited.
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
  });

  it('decides requests asked together in one transaction per batch, and two processes batching still spend the shared bucket once', async () => {
    let transactions = 0;
    const counted: Transaction = (work) => {
      transactions += 1;
      return transaction(work);
    };
    const batching = (rules: Pacing, sleeps: number[]) =>
      new RateLimiter({
        transaction: counted,
        pacingFor: () => rules,
        random: () => 0,
        sleep: async (ms) => {
          sleeps.push(ms);
          await new Promise((resolve) => setTimeout(resolve, ms));
        },
      });
    const permit = { pluginId: 'com.example.batch', accountId: 'acct-1', op: 'searchTracks' as const, cost: 1 };

    // Plenty of tokens: twenty requests of each process go out after one transaction per process.
    const roomy: Pacing = { ...pacing, requests_per_second: 10, burst: 40 };
    const [a, b] = [batching(roomy, []), batching(roomy, [])];
    await Promise.all([...Array.from({ length: 20 }, () => a.acquire(permit)), ...Array.from({ length: 20 }, () => b.acquire(permit))]);
    expect(transactions).toBe(2);

    // The bucket is now empty (40 of 40 spent, refilling at 10/s): the next ten requests of both
    // processes together still get only what the refill gives, one token a tenth of a second.
    const sleeps: number[] = [];
    const [c, d] = [batching(roomy, sleeps), batching(roomy, sleeps)];
    const started = Date.now();
    await Promise.all([...Array.from({ length: 5 }, () => c.acquire(permit)), ...Array.from({ length: 5 }, () => d.acquire(permit))]);
    expect(sleeps.length).toBeGreaterThan(0);
    // Ten tokens at 10/s after the burst was spent take at least ~0.9 s (less what refilled while the first batch ran).
    expect(Date.now() - started).toBeGreaterThanOrEqual(700);
  });

  it('keeps accounts and plugins in separate buckets, and lets unpaced plugins through', async () => {
    const sleeps: number[] = [];
    const one = limiter(pacing, sleeps);
    for (const accountId of ['acct-x', 'acct-y']) {
      await one.acquire({ pluginId: 'com.example.separate', accountId, op: 'listPlaylists', cost: 1 });
      await one.acquire({ pluginId: 'com.example.separate', accountId, op: 'listPlaylists', cost: 1 });
    }
    for (let index = 0; index < 5; index++) await one.acquire({ pluginId: 'com.example.none', accountId: null, op: 'parse', cost: 1 });
    expect(sleeps).toEqual([]);
  });

  it('holds every process back after a 429 Retry-After', async () => {
    const sleepsB: number[] = [];
    const a = limiter(pacing, []);
    const b = limiter(pacing, sleepsB);
    const permit = { pluginId: 'com.example.retry', accountId: 'acct-1', op: 'searchTracks' as const, cost: 1 };
    // Process A was just answered 429 with Retry-After: 1; process B asks a moment later.
    const first = a.acquire({ ...permit, retryAfterS: 1 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    await b.acquire(permit);
    expect(Date.now() - started).toBeGreaterThanOrEqual(700);
    expect(sleepsB.length).toBeGreaterThan(0);
    await first;
  });

  it('reports an exhausted daily quota instead of waiting a day', async () => {
    const quota: Pacing = { ...pacing, burst: 100, requests_per_second: 100, daily_quota: 150 };
    const a = limiter(quota, []);
    const b = limiter(quota, []);
    const permit = { pluginId: 'com.example.quota', accountId: 'acct-1', op: 'addTracks' as const, cost: 100 };
    await a.acquire(permit);
    await expect(b.acquire(permit)).rejects.toBeInstanceOf(QuotaExhausted);
    await expect(b.acquire({ ...permit, cost: 50 })).resolves.toBeUndefined();
  });

  describe('declared quota (per request kind, separate buckets, provider time zone)', () => {
    const API = 'https://www.googleapis.com/youtube/v3';
    const declared: Pacing = pacingSchema.parse({
      requests_per_second: 100,
      burst: 100,
      quota: {
        daily_units: 120,
        reset: { time_zone: 'America/Los_Angeles' },
        scope: 'client',
        costs: [
          { path_prefix: '/youtube/v3/search', methods: ['GET'], units: 1, bucket: 'search', counts_as: 'search' },
          { path_prefix: '/youtube/v3/playlistItems', methods: ['POST'], units: 50, counts_as: 'track_insert' },
        ],
        buckets: { search: { daily_units: 2 } },
      },
    });
    const insert = (pluginId: string, accountId: string) => ({ pluginId, accountId, op: 'addTracks' as const, cost: 1, request: { method: 'POST', url: `${API}/playlistItems?part=snippet` } });
    const search = (pluginId: string, accountId: string) => ({ pluginId, accountId, op: 'searchTracks' as const, cost: 1, request: { method: 'GET', url: `${API}/search?q=x` } });

    it('refuses the insert that would pass the budget, with a typed marker, and shares a client-scoped budget between accounts', async () => {
      const a = limiter(declared, []);
      await a.acquire(insert('com.example.yt1', 'acct-1'));
      await a.acquire(insert('com.example.yt1', 'acct-2'));
      const refused = await a.acquire(insert('com.example.yt1', 'acct-1')).then(() => null, (error: unknown) => error);
      expect(refused).toBeInstanceOf(QuotaExhausted);
      const quota = RateLimited.parseQuota((refused as Error).message);
      expect(quota?.bucket).toBe('default');
      expect(Date.parse(quota!.resets_at!)).toBeGreaterThan(Date.now());
      // Reads (1 unit) still fit in the 20 units left; searches have their own budget.
      await a.acquire({ pluginId: 'com.example.yt1', accountId: 'acct-1', op: 'listPlaylists', cost: 1, request: { method: 'GET', url: `${API}/playlists?mine=true` } });
      await a.acquire(search('com.example.yt1', 'acct-1'));
      await a.acquire(search('com.example.yt1', 'acct-3'));
      const searchRefused = await a.acquire(search('com.example.yt1', 'acct-1')).then(() => null, (error: unknown) => error);
      expect(RateLimited.parseQuota((searchRefused as Error).message)?.bucket).toBe('search');

      const forecast = await a.forecast('com.example.yt1', 'acct-9');
      expect(forecast).toMatchObject({ limited: true, remaining_units: 19, tracks_fit_today: 0, searches_fit_today: 0, exhausted: true });
      expect(forecast.buckets['search']).toEqual({ daily_units: 2, used_units: 2, remaining_units: 0 });
    });

    it('marks a bucket spent when the provider says its quota is gone', async () => {
      const a = limiter(declared, []);
      expect((await a.forecast('com.example.yt2', 'acct-1')).tracks_fit_today).toBe(2);
      const resetsAt = await a.markExhausted('com.example.yt2', 'acct-1', 'default');
      expect(resetsAt!.getTime()).toBeGreaterThan(Date.now());
      await expect(a.acquire(insert('com.example.yt2', 'acct-1'))).rejects.toBeInstanceOf(QuotaExhausted);
      expect(await a.forecast('com.example.yt2', 'acct-1')).toMatchObject({ remaining_units: 0, tracks_fit_today: 0, searches_fit_today: 2 });
    });
  });
});
