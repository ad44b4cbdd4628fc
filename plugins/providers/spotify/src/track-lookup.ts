import { lookupEach, PluginError, ProviderError, type OperationInput, type OperationReturn, type ProviderContext, type TrackInput } from '@opl/plugin-sdk';
import { record } from './json-read.ts';
import { spotifyRequest } from './spotify-client.ts';
import { parseSpotifyRef } from './spotify-uri.ts';
import { mapItem } from './track-mapper.ts';

/**
 * Tracks named by URI (`spotify:track:…` or an open.spotify.com link), looked up one by one with
 * "Get Track" (`GET /v1/tracks/{id}`): the several-tracks endpoint is deprecated. Each distinct id
 * is asked once, in input order, one request at a time (the SDK's `lookupEach`); the answer has
 * one entry per input URI.
 * A track the catalogue does not have (404, or 400 for an id it refuses) and a URI that names no
 * Spotify track are null; any other failure (rate limit, expired token, 5xx) is thrown as a typed
 * error like every other read, since a partial answer cannot be returned.
 */

type LookupResult = OperationReturn<'lookupTracks'>;

/** The id of a Spotify track URI or link; null for anything else (albums, episodes, local files, other services). */
function trackIdOf(uri: string): string | null {
  const parsed = parseSpotifyRef(uri);
  return parsed?.entity === 'track' ? parsed.id : null;
}

/** One track by id; null when Spotify has no such track. */
async function getTrack(ctx: ProviderContext, id: string): Promise<TrackInput | null> {
  let answer: unknown;
  try {
    // The id is 22 base62 characters (checked by the parser), so it is safe as a path segment.
    answer = await spotifyRequest(ctx, { path: `/tracks/${id}`, what: 'looking up a track', missing: 'track' });
  } catch (error) {
    // The id went through the parser and nothing else is sent, so a 400 can only be Spotify refusing the id.
    if (error instanceof PluginError && error.type === 'InvalidInput') return null;
    throw error;
  }
  if (!record(answer)) throw new ProviderError('Spotify sent no track while looking up a track.');
  return mapItem(answer);
}

export function lookupTracks(input: OperationInput<'lookupTracks'>, ctx: ProviderContext): Promise<LookupResult> {
  return lookupEach(input.uris, trackIdOf, (id) => getTrack(ctx, id));
}
