import { describe, expect, it } from 'vitest';
import { RateLimited, type Manifest } from '@opl/plugin-sdk';
import { trackSchema } from '@opl/plugin-sdk/schemas';
import type { AccountView } from '../../../../core/services/connections/connection.service.ts';
import { SourceLookup } from '../../../../core/services/migrations/source-lookup.ts';

const account = (id: string, provider: string, status: AccountView['status'] = 'connected') => ({ id, provider, status }) as AccountView;
const manifests: Record<string, string> = { tidal: 'opl.provider.tidal', spotify: 'opl.provider.spotify', bandcamp: 'opl.provider.bandcamp' };
const operations: Record<string, string[]> = { 'opl.provider.tidal': ['lookupTracks', 'searchTracks'], 'opl.provider.spotify': ['lookupTracks'], 'opl.provider.bandcamp': ['searchTracks'] };

function lookupWith(accounts: AccountView[], answer: (accountId: string, uri: string) => unknown) {
  const calls: Array<{ accountId: string; uris: string[] }> = [];
  let listed = 0;
  const lookups = new SourceLookup({
    connections: {
      list: async () => {
        listed += 1;
        return accounts;
      },
      call: (async (_owner: string, accountId: string, _op: string, input: { uris: string[] }) => {
        calls.push({ accountId, uris: input.uris });
        const values = input.uris.map((uri) => answer(accountId, uri));
        const failed = values.find((value) => value instanceof Error);
        if (failed) throw failed;
        return { tracks: values };
      }) as never,
    },
    catalogue: { providerPlugin: (provider) => (manifests[provider] ? ({ id: manifests[provider] } as Manifest) : undefined) },
    pluginOperations: (pluginId) => operations[pluginId] ?? [],
  });
  return { lookups, calls, listed: () => listed };
}

const song = trackSchema.parse({ title: 'One More Time', artist: 'Daft Punk', isrc: 'GBDUW0000059', provider_uris: { tidal: 'tidal:track:1' } });

describe('SourceLookup', () => {
  it('names the services the owner can read: a connected account and a plugin that implements lookupTracks', async () => {
    const { lookups } = lookupWith([account('a1', 'tidal'), account('a2', 'bandcamp'), account('a3', 'spotify', 'reauth_required')], () => null);
    expect([...(await lookups.providers('owner'))]).toEqual(['tidal']);
    expect(lookups.supports('bandcamp')).toBe(false);
    expect(lookups.supports('applemusic')).toBe(false);
  });

  it('asks the first usable account of the service, once per link, and says why when it could not ask', async () => {
    const { lookups, calls, listed } = lookupWith([account('old', 'tidal', 'reauth_required'), account('t1', 'tidal'), account('t2', 'tidal'), account('s1', 'spotify')], (_, uri) => (uri === 'tidal:track:1' ? song : uri === 'spotify:track:x' ? new Error('503 from Spotify') : null));
    const { lookup } = lookups.forOwner('owner');
    const none = { track: null, failure: null };
    expect(await lookup('tidal', 'tidal:track:1')).toEqual({ track: song, failure: null });
    expect(await lookup('tidal', 'tidal:track:1')).toEqual({ track: song, failure: null });
    expect(await lookup('tidal', 'tidal:track:404')).toEqual(none);
    // The service failed: no track, and why, in words; the song stays as it was.
    expect(await lookup('spotify', 'spotify:track:x')).toEqual({ track: null, failure: 'spotify could not be asked what it is right now: 503 from Spotify.' });
    // No plugin support, or no account: nothing is asked.
    expect(await lookup('bandcamp', 'https://artist.bandcamp.com/track/song')).toEqual(none);
    expect(await lookup('applemusic', 'applemusic:song:1')).toEqual(none);
    expect(calls).toEqual([
      { accountId: 't1', uris: ['tidal:track:1'] },
      { accountId: 't1', uris: ['tidal:track:404'] },
      { accountId: 's1', uris: ['spotify:track:x'] },
    ]);
    expect(listed()).toBe(1);
  });

  it('prefetches many links in calls of at most 50 per service, then answers from them; a failed batch is asked again link by link', async () => {
    const { lookups, calls } = lookupWith([account('t1', 'tidal'), account('s1', 'spotify')], (_, uri) => (uri.startsWith('spotify') ? new Error('HTTP 503') : song));
    const run = lookups.forOwner('owner');
    const tidal = Array.from({ length: 120 }, (_, index) => ({ provider: 'tidal', uri: `tidal:track:${index}` }));
    await run.prefetch([...tidal, tidal[0]!, { provider: 'spotify', uri: 'spotify:track:a' }, { provider: 'bandcamp', uri: 'https://x.bandcamp.com/track/y' }]);
    expect(calls.map((call) => [call.accountId, call.uris.length])).toEqual([['t1', 50], ['t1', 50], ['t1', 20], ['s1', 1]]);
    expect(await run.lookup('tidal', 'tidal:track:119')).toEqual({ track: song, failure: null });
    // Already asked: no second call, and a second prefetch asks nothing again.
    await run.prefetch(tidal);
    expect(calls).toHaveLength(4);
    // The failed Spotify batch is asked again, on its own, when its song is matched.
    expect(await run.lookup('spotify', 'spotify:track:a')).toEqual({ track: null, failure: 'spotify could not be asked what it is right now: HTTP 503.' });
    expect(calls.map((call) => [call.accountId, call.uris])).toContainEqual(['s1', ['spotify:track:a']]);
    expect(calls).toHaveLength(5);
  });

  it('does not ask a rate-limited batch again link by link: its answers say to wait, and the next run asks again', async () => {
    let limited = true;
    const { lookups, calls } = lookupWith([account('t1', 'tidal')], () => (limited ? new RateLimited('slow down', 30, null) : song));
    const run = lookups.forOwner('owner');
    const asks = [{ provider: 'tidal', uri: 'tidal:track:1' }, { provider: 'tidal', uri: 'tidal:track:2' }];
    await run.prefetch(asks);
    const answer = await run.lookup('tidal', 'tidal:track:2');
    expect(answer).toMatchObject({ track: null, failure: 'tidal could not be asked what it is right now: slow down.' });
    expect(answer.retry).toBeInstanceOf(RateLimited);
    expect(answer.retry).toMatchObject({ message: 'Reading the pasted tidal links: slow down.', retryAfterSeconds: 30, quota: null });
    expect(calls).toHaveLength(1);
    // The wait is over: the matcher's next run asks again, in one batch.
    limited = false;
    const next = lookups.forOwner('owner');
    await next.prefetch(asks);
    expect(await next.lookup('tidal', 'tidal:track:2')).toEqual({ track: song, failure: null });
    expect(calls.map((call) => call.uris)).toEqual([['tidal:track:1', 'tidal:track:2'], ['tidal:track:1', 'tidal:track:2']]);
  });

  it('does not wait for a used-up daily quota: the song is answered as not askable, with why', async () => {
    const quota = { bucket: 'default', resets_at: '2026-11-23T00:00:00.000Z' };
    const { lookups } = lookupWith([account('t1', 'tidal')], () => new RateLimited('the daily quota is used up', null, quota));
    const answer = await lookups.forOwner('owner').lookup('tidal', 'tidal:track:1');
    expect(answer.retry).toBeUndefined();
    expect(answer).toMatchObject({ track: null, failure: expect.stringMatching(/^tidal could not be asked what it is right now: .*the daily quota is used up\.$/) });
  });
});
