import { describe, expect, it } from 'vitest';
import { trackSchema } from '@opl/plugin-sdk/schemas';
import { RateLimited, type Track } from '@opl/plugin-sdk';
import type { Resolution } from '../../../../core/services/matching/index.ts';
import { matchTrack, type MatchContext } from '../../../../core/services/migrations/item-matcher.ts';
import type { LinkLookup } from '../../../../core/services/migrations/source-lookup.ts';

/**
 * A song that is only a link of another service: what the item matcher does with the service's
 * answer (the match service and the lookup are stand-ins; the real ones are exercised through HTTP
 * in link-list-migration.test.ts).
 */

const unsearchable: Resolution = { decision: 'reject', chosen: null, confidence: 0, reason: 'it is only a tidal link (tidal:track:7), with nothing to search by.', breakdown: [], penalties: [], candidates: [], searches: 0, from: 'unsearchable' };
const accepted: Resolution = { decision: 'accept', chosen: { id: 'sp1', uri: 'spotify:track:sp1', track: null }, confidence: 0.99, reason: 'Same ISRC.', breakdown: [], penalties: [], candidates: [], searches: 1, from: 'search' };
const linkOnly = trackSchema.parse({ title: '', artist: '', provider_uris: { tidal: 'tidal:track:7' } });

function contextWith(lookup: LinkLookup['lookup']) {
  const resolved: Track[] = [];
  const context: MatchContext = {
    ownerId: 'owner',
    sourceProvider: 'import',
    targetProvider: 'spotify',
    targetPluginId: 'opl.provider.spotify',
    targetAccountId: 'target',
    strictness: 'same_recording',
    execute: async () => [],
    matching: {
      resolve: async (request) => {
        resolved.push(request.source);
        return request.source.title === '' ? unsearchable : accepted;
      },
    },
    target: { searchAlbums: async () => [], searchArtists: async () => [], validateUri: async () => null },
    lookup: { lookup, prefetch: async () => {} },
  };
  return { context, resolved };
}

describe('a link-only song read from its own service', () => {
  it('is searched for as the service lists it, and the item shows that listing', async () => {
    const listed = trackSchema.parse({ title: 'Teardrop', artist: 'Massive Attack', album: 'Mezzanine', isrc: 'GBAAA9800001', duration_s: 330, provider_uris: { tidal: 'tidal:track:7' } });
    const { context, resolved } = contextWith(async () => ({ track: listed, failure: null }));
    const match = await matchTrack(context, linkOnly);
    expect(resolved.map((track) => [track.title, track.artist, track.isrc])).toEqual([['', '', null], ['Teardrop', 'Massive Attack', 'GBAAA9800001']]);
    expect(match).toMatchObject({
      status: 'matched',
      targetUri: 'spotify:track:sp1',
      reason: 'Read from tidal as "Massive Attack – Teardrop": Same ISRC.',
      matchDetail: { from: 'search', looked_up: { provider: 'tidal', uri: 'tidal:track:7', title: 'Teardrop', artist: 'Massive Attack', album: 'Mezzanine', isrc: 'GBAAA9800001' } },
      listed: { title: 'Teardrop', artist: 'Massive Attack', album: 'Mezzanine', isrc: 'GBAAA9800001' },
    });
  });

  it('is not searched for when the service lists it as no song to migrate, and says so', async () => {
    const video = trackSchema.parse({ title: 'Behind the scenes', artist: 'Some Channel', media_type: 'video', is_migratable: false, unsupported_reason: 'not a music video' });
    const { context, resolved } = contextWith(async () => ({ track: video, failure: null }));
    const match = await matchTrack(context, linkOnly);
    expect(resolved).toHaveLength(1);
    expect(match).toMatchObject({ status: 'skipped', reason: `No match found on spotify: ${unsearchable.reason} tidal lists it as no song to migrate (not a music video).` });
    expect(match.listed).toBeUndefined();
  });

  it('stays skipped, with why, when the service could not be asked or does not know the link', async () => {
    const down = await matchTrack(contextWith(async () => ({ track: null, failure: 'tidal could not be asked what it is right now: HTTP 503.' })).context, linkOnly);
    expect(down).toMatchObject({ status: 'skipped', reason: `No match found on spotify: ${unsearchable.reason} tidal could not be asked what it is right now: HTTP 503.` });
    const unknown = await matchTrack(contextWith(async () => ({ track: null, failure: null })).context, linkOnly);
    expect(unknown).toMatchObject({ status: 'skipped', reason: `No match found on spotify: ${unsearchable.reason}` });
  });

  it('waits when the service only asked to slow down: the matcher throws its RateLimited, so the item stays pending', async () => {
    const slowDown = new RateLimited('Reading the pasted tidal links: rate limit reached.', 7);
    const failure = 'tidal could not be asked what it is right now: rate limit reached.';
    const { context, resolved } = contextWith(async () => ({ track: null, failure, retry: slowDown }));
    await expect(matchTrack(context, linkOnly)).rejects.toBe(slowDown);
    expect(resolved).toHaveLength(1);
  });

  it('does not wait for a rate-limited link when another link of the song was read', async () => {
    const listed = trackSchema.parse({ title: 'Teardrop', artist: 'Massive Attack', provider_uris: { tidal: 'tidal:track:7' } });
    const twoLinks = trackSchema.parse({ title: '', artist: '', provider_uris: { tidal: 'tidal:track:7', deezer: 'deezer:track:3' } });
    const asked: string[] = [];
    const { context } = contextWith(async (provider) => {
      asked.push(provider);
      return provider === 'deezer' ? { track: null, failure: 'deezer could not be asked what it is right now: slow down.', retry: new RateLimited('slow down', 7) } : { track: listed, failure: null };
    });
    const match = await matchTrack(context, twoLinks);
    // Deezer, asked first, asked to slow down; TIDAL said what the song is.
    expect(asked).toEqual(['deezer', 'tidal']);
    expect(match).toMatchObject({ status: 'matched', reason: 'Read from tidal as "Massive Attack – Teardrop": Same ISRC.' });
  });
});
