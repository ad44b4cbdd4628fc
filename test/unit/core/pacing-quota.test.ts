import { describe, expect, it } from 'vitest';
import type { Pacing } from '@opl/plugin-sdk';
import { pacingSchema } from '@opl/plugin-sdk/schemas';
import { exhaustQuota, nextQuotaReset, priceRequest, quotaBucketKey, quotaDay, quotaForecast, takeQuota, type Quota } from '../../../core/services/pacing/index.ts';

/** The YouTube Data API's declared quota, as its manifest has it (see plugins/providers/youtube). */
const youtube: Pacing = pacingSchema.parse({
  requests_per_second: 5,
  burst: 10,
  search_quota_cost: 100,
  write_quota_cost: 50,
  daily_quota: 10_000,
  quota: {
    daily_units: 10_000,
    reset: { time_zone: 'America/Los_Angeles' },
    scope: 'client',
    default_units: 1,
    costs: [
      { path_prefix: '/youtube/v3/search', methods: ['GET'], units: 1, bucket: 'search', counts_as: 'search' },
      { path_prefix: '/youtube/v3/playlistItems', methods: ['POST'], units: 50, counts_as: 'track_insert' },
      { path_prefix: '/youtube/v3/playlistItems', methods: ['DELETE'], units: 50, counts_as: 'track_remove' },
      { path_prefix: '/youtube/v3/playlists', methods: ['POST', 'PUT', 'DELETE'], units: 50 },
    ],
    buckets: { search: { daily_units: 100 } },
  },
});
const quota = youtube.quota as Quota;
const API = 'https://www.googleapis.com/youtube/v3';

describe('quota days in the provider time zone', () => {
  it('counts a request against the Pacific day, which turns over at 08:00 UTC in winter and 07:00 UTC in summer', () => {
    expect(quotaDay(new Date('2026-11-21T07:59:59Z'), 'America/Los_Angeles')).toBe('2026-11-20');
    expect(quotaDay(new Date('2026-11-21T08:00:00Z'), 'America/Los_Angeles')).toBe('2026-11-21');
    expect(nextQuotaReset(new Date('2026-11-21T12:00:00Z'), 'America/Los_Angeles').toISOString()).toBe('2026-11-22T08:00:00.000Z');
    expect(nextQuotaReset(new Date('2026-07-04T12:00:00Z'), 'America/Los_Angeles').toISOString()).toBe('2026-07-05T07:00:00.000Z');
    expect(nextQuotaReset(new Date('2026-11-21T12:00:00Z')).toISOString()).toBe('2026-11-22T00:00:00.000Z');
  });

  it('finds the right midnight on the days the clocks change', () => {
    // US daylight saving time ends on 2026-11-01 and starts on 2026-03-08.
    expect(nextQuotaReset(new Date('2026-11-01T06:30:00Z'), 'America/Los_Angeles').toISOString()).toBe('2026-11-01T07:00:00.000Z');
    expect(nextQuotaReset(new Date('2026-11-01T12:00:00Z'), 'America/Los_Angeles').toISOString()).toBe('2026-11-02T08:00:00.000Z');
    expect(nextQuotaReset(new Date('2026-03-08T09:00:00Z'), 'America/Los_Angeles').toISOString()).toBe('2026-03-09T07:00:00.000Z');
  });
});

describe('pricing requests from the manifest', () => {
  it('prices each request kind by method and path, the longest prefix winning', () => {
    expect(priceRequest(quota, { method: 'GET', url: `${API}/search?part=snippet&q=x` }, 99)).toEqual({ bucket: 'search', units: 1, countsAs: 'search' });
    expect(priceRequest(quota, { method: 'POST', url: `${API}/playlistItems?part=snippet` }, 99)).toEqual({ bucket: 'default', units: 50, countsAs: 'track_insert' });
    expect(priceRequest(quota, { method: 'GET', url: `${API}/playlistItems?playlistId=PL1` }, 99)).toEqual({ bucket: 'default', units: 1, countsAs: null });
    expect(priceRequest(quota, { method: 'GET', url: `${API}/videos?id=a,b` }, 99)).toMatchObject({ units: 1 });
    // `/playlists` must not price `/playlistItems` (a path boundary, not a string prefix).
    expect(priceRequest(quota, { method: 'DELETE', url: `${API}/playlists?id=PL1` }, 99)).toMatchObject({ units: 50, countsAs: null });
  });

  it('falls back to the operation cost when the host could not say which request it was', () => {
    expect(priceRequest(quota, null, 100)).toEqual({ bucket: 'default', units: 100, countsAs: null });
  });

  it('keeps a client-scoped quota in one bucket for every account', () => {
    expect(quotaBucketKey('opl.provider.youtube', 'acct-1', quota, 'search')).toBe(quotaBucketKey('opl.provider.youtube', 'acct-2', quota, 'search'));
    expect(quotaBucketKey('p', 'acct-1', { scope: 'account' }, 'default')).not.toBe(quotaBucketKey('p', 'acct-2', { scope: 'account' }, 'default'));
  });

  it('refuses a manifest whose rules name an undeclared bucket or an unknown time zone', () => {
    expect(pacingSchema.safeParse({ quota: { daily_units: 10, costs: [{ path_prefix: '/x', units: 1, bucket: 'search' }] } }).success).toBe(false);
    expect(pacingSchema.safeParse({ quota: { daily_units: 10, reset: { time_zone: 'Mars/Olympus_Mons' } } }).success).toBe(false);
    expect(pacingSchema.parse({}).quota).toBeNull();
  });
});

describe('daily buckets', () => {
  const now = new Date('2026-11-21T12:00:00Z');

  it('refuses the request that would pass the budget, before it is sent, and says when it resets', () => {
    const first = takeQuota({ quotaDay: null, quotaUsed: 0 }, 120, 50, now, 'America/Los_Angeles');
    expect(first).toMatchObject({ kind: 'granted', next: { quotaDay: '2026-11-21', quotaUsed: 50 } });
    const second = takeQuota(first.next, 120, 50, now, 'America/Los_Angeles');
    expect(second).toMatchObject({ kind: 'granted', next: { quotaUsed: 100 } });
    const third = takeQuota(second.next, 120, 50, now, 'America/Los_Angeles');
    expect(third.kind).toBe('quota_exhausted');
    if (third.kind === 'quota_exhausted') expect(third.resetsAt.toISOString()).toBe('2026-11-22T08:00:00.000Z');
    // A cheaper request still fits; after the Pacific midnight the budget is whole again.
    expect(takeQuota(second.next, 120, 20, now, 'America/Los_Angeles').kind).toBe('granted');
    expect(takeQuota(second.next, 120, 120, new Date('2026-11-22T08:00:01Z'), 'America/Los_Angeles').kind).toBe('granted');
  });

  it('marks a bucket spent when the provider says so', () => {
    const spent = exhaustQuota({ quotaDay: '2026-11-21', quotaUsed: 10 }, 100, now, 'America/Los_Angeles');
    expect(spent).toEqual({ quotaDay: '2026-11-21', quotaUsed: 100 });
    expect(takeQuota(spent, 100, 1, now, 'America/Los_Angeles').kind).toBe('quota_exhausted');
  });
});

describe('quota forecast', () => {
  const now = new Date('2026-11-21T12:00:00Z');

  it('says how many songs and searches fit in what is left today', () => {
    const forecast = quotaForecast(youtube, { default: { quotaDay: '2026-11-21', quotaUsed: 9_000 }, search: { quotaDay: '2026-11-21', quotaUsed: 40 } }, now);
    expect(forecast).toMatchObject({ limited: true, remaining_units: 1_000, tracks_fit_today: 20, searches_fit_today: 60, resets_at: '2026-11-22T08:00:00.000Z', exhausted: false });
    expect(forecast.buckets['search']).toEqual({ daily_units: 100, used_units: 40, remaining_units: 60 });
  });

  it('forgets yesterday’s usage and reports an exhausted day', () => {
    expect(quotaForecast(youtube, { default: { quotaDay: '2026-11-20', quotaUsed: 10_000 } }, now)).toMatchObject({ tracks_fit_today: 200, searches_fit_today: 100 });
    expect(quotaForecast(youtube, { default: { quotaDay: '2026-11-21', quotaUsed: 9_990 } }, now)).toMatchObject({ tracks_fit_today: 0, exhausted: true });
  });

  it('reads the legacy daily_quota fields, and is unlimited without a quota', () => {
    const legacy = pacingSchema.parse({ daily_quota: 1_000, write_quota_cost: 10, search_quota_cost: 100 });
    expect(quotaForecast(legacy, { default: { quotaDay: '2026-11-21', quotaUsed: 500 } }, now, { tracksPerInsert: 100 })).toMatchObject({
      remaining_units: 500,
      tracks_fit_today: 5_000,
      searches_fit_today: 5,
      resets_at: '2026-11-22T00:00:00.000Z',
    });
    expect(quotaForecast(pacingSchema.parse({}), {}, now)).toMatchObject({ limited: false, tracks_fit_today: null, resets_at: null, exhausted: false });
  });
});
