import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PluginError, RateLimited, type Manifest, type OperationName, type Pacing } from '@opl/plugin-sdk';
import type { OperationCallInput } from '@opl/plugin-sdk/schemas';
import { PluginHost, type PluginBundle, type PluginCallContext } from '../../../core/plugin-host/index.ts';
import { nextQuotaReset, RateLimiter, type Transaction } from '../../../core/services/pacing/index.ts';
import type { FakeAccountTokens } from '../../fakes/fake-provider.ts';
import { isAvailableOn, seedCatalog } from '../../fakes/seed-catalog.ts';
import { startFakeYoutube, YOUTUBE_API_ORIGIN, type FakeYoutube } from '../../fakes/youtube/index.ts';
import { buildPluginBundle } from '../support/build-plugin.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * The YouTube quota stop end to end: the manifest's quota priced per request by the central rate
 * limiter (real PostgreSQL), the plugin host, the sandbox and the built plugin against the fake.
 * A small daily budget stands in for YouTube's 10,000 units; each account has its own bucket here
 * (the real manifest shares one per Google Cloud project) so the cases do not disturb each other.
 */

const UNITS = 260;
const SEARCHES = 2;

let testApp: TestApp;
let fake: FakeYoutube;
let host: PluginHost;
let limiter: RateLimiter;
let manifest: Manifest;
let pacing: Pacing;
let tidal: PluginBundle;
const music = [...seedCatalog().tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'youtube'));

function contextFor(tokens: FakeAccountTokens): PluginCallContext {
  return { account: { id: `acct-${tokens.userId}`, label: null }, credentials: [{ origin: YOUTUBE_API_ORIGIN, headers: { authorization: `Bearer ${tokens.accessToken}` } }] };
}

function call<N extends OperationName>(op: N, input: OperationCallInput<N>, tokens: FakeAccountTokens) {
  return host.call(manifest.id, op, input, contextFor(tokens));
}

async function failureOf(promise: Promise<unknown>): Promise<RateLimited> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(PluginError);
  expect((error as PluginError).type).toBe('RateLimited');
  return error as RateLimited;
}

function uris(from: number, count: number): string[] {
  return music.slice(from, from + count).map((track) => `youtube:video:${fake.trackId(track.key)!}`);
}

const inserts = (from: number) => fake.requests.slice(from).filter((request) => request.method === 'POST' && request.path === '/youtube/v3/playlistItems');
const searches = (from: number) => fake.requests.slice(from).filter((request) => request.path === '/youtube/v3/search');

beforeAll(async () => {
  testApp = await startTestApp();
  const { orm } = testApp.app.services.database;
  const transaction: Transaction = (work) => orm.em.fork().transactional((em) => work((statement) => em.execute(statement.text, statement.values)));
  fake = await startFakeYoutube();
  const bundle = await buildPluginBundle('plugins/providers/youtube');
  manifest = bundle.manifest;
  const declared = manifest.provider!.pacing;
  pacing = { ...declared, quota: { ...declared.quota!, daily_units: UNITS, scope: 'account', buckets: { search: { daily_units: SEARCHES } } } };
  tidal = await buildPluginBundle('plugins/providers/tidal');
  // A plugin whose client turns any failed fetch into ProviderError: one unit a day, 5 per request.
  const tidalPacing: Pacing = { ...tidal.manifest.provider!.pacing, quota: { daily_units: 1, reset: { time_zone: 'UTC' }, scope: 'account', default_units: 5, costs: [], buckets: {} } };
  limiter = new RateLimiter({ transaction, pacingFor: (pluginId) => (pluginId === manifest.id ? pacing : pluginId === tidal.manifest.id ? tidalPacing : null) });
  host = new PluginHost({
    originOverrides: fake.originOverrides,
    acquire: (permit, request) => limiter.acquire(permit, request),
    onQuotaExhausted: (event) => limiter.markExhausted(event.pluginId, event.accountId, event.bucket),
  });
  await host.start();
  await host.load(bundle);
  await host.load(tidal);
});

afterAll(async () => {
  await host?.close();
  await fake?.close();
  await testApp?.close();
});

describe('YouTube quota stop', () => {
  it('declares YouTube’s published quota: 10,000 units a day, 50 per insert, search.list on its own budget, reset at Pacific midnight, one budget per Google Cloud project', () => {
    const quota = manifest.provider!.pacing.quota!;
    expect(quota).toMatchObject({ daily_units: 10_000, reset: { time_zone: 'America/Los_Angeles' }, scope: 'client', buckets: { search: { daily_units: 100 } } });
    expect(quota.costs.find((rule) => rule.counts_as === 'track_insert')).toMatchObject({ units: 50, bucket: 'default' });
    expect(quota.costs.find((rule) => rule.counts_as === 'search')).toMatchObject({ bucket: 'search' });
  });

  it('stops a sequence of inserts with the typed quota error before the budget is exceeded, sending nothing beyond it', async () => {
    const account = fake.createAccount({ displayName: 'Quota Listener' });
    const acct = `acct-${account.userId}`;
    const created = await call('createPlaylist', { name: 'Quota Test', description: null, public: false }, account);
    expect((await limiter.forecast(manifest.id, acct)).tracks_fit_today).toBe(4);

    const before = fake.requests.length;
    const songs = uris(0, 6);
    const outcomes: (true | RateLimited)[] = [];
    for (const uri of songs) {
      // As the engine sends them: one item per call (max_add_batch 1).
      outcomes.push(
        await call('addTracks', { playlist_id: created.playlist_id, items: [{ uri }] }, account).then(
          (result) => (expect(result.results[0]!.ok).toBe(true), true as const),
          (error: unknown) => error as RateLimited,
        ),
      );
    }
    expect(outcomes.slice(0, 4)).toEqual([true, true, true, true]);
    for (const stopped of outcomes.slice(4)) {
      expect(stopped).toBeInstanceOf(RateLimited);
      const error = stopped as RateLimited;
      expect(error.quota).toEqual({ bucket: 'default', resets_at: nextQuotaReset(new Date(), 'America/Los_Angeles').toISOString() });
      expect(error.retryAfterSeconds).toBeGreaterThan(0);
      // The plugin passed the host's refusal through as is (its own words, not the host's fallback).
      expect(error.message).toContain('the request was not sent');
      expect(error.toData()).toMatchObject({ type: 'RateLimited', quota: { bucket: 'default' } });
    }
    expect(inserts(before)).toHaveLength(4);
    expect(fake.playlistEntries(created.playlist_id)).toHaveLength(4);
    expect(await limiter.forecast(manifest.id, acct)).toMatchObject({ remaining_units: 10, tracks_fit_today: 0, exhausted: true, searches_fit_today: SEARCHES });
    // Reads (1 unit) still fit in what is left.
    expect((await call('listPlaylists', { cursor: null, limit: 10 }, account)).items.map((playlist) => playlist.name)).toContain('Quota Test');
  });

  it('answers a partly applied batch per item: applied ones ok, the rest stopped by the quota', async () => {
    const account = fake.createAccount({ displayName: 'Batch Listener' });
    const created = await call('createPlaylist', { name: 'Batch', description: null, public: false }, account);
    await call('addTracks', { playlist_id: created.playlist_id, items: uris(10, 2).map((uri) => ({ uri })) }, account);
    const before = fake.requests.length;
    const result = await call('addTracks', { playlist_id: created.playlist_id, items: uris(20, 4).map((uri) => ({ uri })) }, account);
    expect(result.results.map((entry) => entry.ok)).toEqual([true, true, false, false]);
    for (const stopped of result.results.slice(2)) {
      expect(stopped.error?.type).toBe('RateLimited');
      expect(RateLimited.parseQuota(stopped.error!.message)?.bucket).toBe('default');
    }
    expect(inserts(before)).toHaveLength(2);
  });

  it('counts searches against their own budget, so inserts go on when searches are used up', async () => {
    const account = fake.createAccount({ displayName: 'Search Listener' });
    const acct = `acct-${account.userId}`;
    const target = music[40]!;
    const query = { title: target.title, artist: seedCatalog().artists.get(target.artistKeys[0]!)!.name };
    const before = fake.requests.length;
    for (let index = 0; index < SEARCHES; index++) expect((await call('searchTracks', { query, mode: 'text', limit: 5 }, account)).candidates.length).toBeGreaterThan(0);
    const stopped = await failureOf(call('searchTracks', { query, mode: 'text', limit: 5 }, account));
    expect(stopped.quota?.bucket).toBe('search');
    expect(searches(before)).toHaveLength(SEARCHES);
    const forecast = await limiter.forecast(manifest.id, acct);
    expect(forecast).toMatchObject({ searches_fit_today: 0, exhausted: false });
    // Each search also read its videos' details from the default bucket: 1 unit each.
    expect(forecast.buckets['default']).toMatchObject({ used_units: SEARCHES });
    const created = await call('createPlaylist', { name: 'Still Writable', description: null, public: false }, account);
    expect((await call('addTracks', { playlist_id: created.playlist_id, items: [{ uri: uris(50, 1)[0]! }] }, account)).results[0]!.ok).toBe(true);
  });

  it('turns the provider’s own 403 quotaExceeded into the same error and marks the bucket spent until the reset', async () => {
    const account = fake.createAccount({ displayName: 'Provider Quota Listener' });
    const acct = `acct-${account.userId}`;
    const created = await call('createPlaylist', { name: 'Provider Says No', description: null, public: false }, account);
    // The project's real budget is gone (other software shares it): YouTube answers 403 quotaExceeded.
    const used = fake.quotaUsed();
    fake.setQuotaUsed({ units: 10_000 });
    try {
      const error = await failureOf(call('addTracks', { playlist_id: created.playlist_id, items: [{ uri: uris(60, 1)[0]! }] }, account));
      expect(error.quota).toEqual({ bucket: 'default', resets_at: nextQuotaReset(new Date(), 'America/Los_Angeles').toISOString() });
      expect(error.retryAfterSeconds).toBeGreaterThan(0);
      expect(error.message).toContain('quotaExceeded');
      expect(await limiter.forecast(manifest.id, acct)).toMatchObject({ remaining_units: 0, tracks_fit_today: 0, exhausted: true });
      // Marked spent: the next write is refused before it is sent.
      const before = fake.requests.length;
      const again = await failureOf(call('addTracks', { playlist_id: created.playlist_id, items: [{ uri: uris(61, 1)[0]! }] }, account));
      expect(again.quota?.bucket).toBe('default');
      expect(fake.requests.length).toBe(before);
    } finally {
      fake.setQuotaUsed({ units: used.units });
    }
  });

  it('marks the bucket spent when the provider stops a batch midway, answering per item', async () => {
    const account = fake.createAccount({ displayName: 'Midway Listener' });
    const acct = `acct-${account.userId}`;
    const created = await call('createPlaylist', { name: 'Midway', description: null, public: false }, account);
    const used = fake.quotaUsed();
    // Room for exactly one more insert at YouTube.
    fake.setQuotaUsed({ units: 10_000 - 50 });
    try {
      const result = await call('addTracks', { playlist_id: created.playlist_id, items: uris(70, 2).map((uri) => ({ uri })) }, account);
      expect(result.results.map((entry) => entry.ok)).toEqual([true, false]);
      expect(RateLimited.parseQuota(result.results[1]!.error!.message)?.bucket).toBe('default');
      expect(await limiter.forecast(manifest.id, acct)).toMatchObject({ tracks_fit_today: 0, exhausted: true });
    } finally {
      fake.setQuotaUsed({ units: used.units });
    }
  });

  it('maps a provider-side search quota stop to the search bucket', async () => {
    const account = fake.createAccount({ displayName: 'Provider Search Quota' });
    fake.failNext({ kind: 'quota', pathPrefix: '/youtube/v3/search' });
    const error = await failureOf(call('searchTracks', { query: { text: 'Golden Hour' }, mode: 'text', limit: 5 }, account));
    expect(error.quota?.bucket).toBe('search');
    expect((await limiter.forecast(manifest.id, `acct-${account.userId}`)).searches_fit_today).toBe(0);
  });

  it('fails the call with the quota error even when a plugin reports the refused fetch as something else', async () => {
    const error = await failureOf(host.call(tidal.manifest.id, 'listPlaylists', { cursor: null, limit: 5 }, { account: { id: 'acct-tidal', label: null }, credentials: [] }));
    expect(error.quota).toEqual({ bucket: 'default', resets_at: nextQuotaReset(new Date()).toISOString() });
    expect(error.message).toContain('the engine sent no request beyond it');
  });
});
