import { lookupEach, ProviderError, type OperationInput, type OperationReturn, type ProviderContext, type TrackInput } from '@opl/plugin-sdk';
import { deezerRequest } from './deezer-client.ts';
import { parseDeezerRef } from './deezer-uri.ts';
import { record } from './json-read.ts';
import { mapTrack } from './track-mapper.ts';

/**
 * Tracks named by URI (`deezer:track:…` or a deezer.com link, with or without a language segment),
 * looked up one by one with `GET /track/{id}`: Deezer has no several-tracks endpoint. Each distinct
 * id is asked once, in input order, one request at a time (the SDK's `lookupEach`); the answer has
 * one entry per input URI.
 * A track the catalogue does not have (Deezer's 200 with error code 800 "no data", which the client
 * turns into NotFound) and a URI that names no Deezer track are null; any other failure (quota,
 * expired token, busy, 5xx) is thrown as a typed error like every other read, since a partial
 * answer cannot be returned.
 */

type LookupResult = OperationReturn<'lookupTracks'>;

/** The id of a Deezer track URI or link; null for anything else (albums, playlists, other services). */
function trackIdOf(uri: string): string | null {
  const parsed = parseDeezerRef(uri);
  return parsed?.entity === 'track' ? parsed.id : null;
}

/** One track by id ("no data", Deezer's answer for an id it does not know, is NotFound: null). */
async function getTrack(ctx: ProviderContext, id: string): Promise<TrackInput | null> {
  // The id is a positive decimal integer (checked by the parser), so it is safe as a path segment.
  const answer = await deezerRequest(ctx, { path: `/track/${id}`, what: 'looking up a track', missing: 'track' });
  if (!record(answer)) throw new ProviderError('Deezer sent no track while looking up a track.');
  return mapTrack(answer);
}

export function lookupTracks(input: OperationInput<'lookupTracks'>, ctx: ProviderContext): Promise<LookupResult> {
  return lookupEach(input.uris, trackIdOf, (id) => getTrack(ctx, id));
}
