import { describe, expect, it } from 'vitest';
import type { Manifest } from '@opl/plugin-sdk';
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
        const value = answer(accountId, input.uris[0]!);
        if (value instanceof Error) throw value;
        return { tracks: [value] };
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
    const lookup = lookups.forOwner('owner');
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
});
