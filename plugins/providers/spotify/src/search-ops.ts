import { InvalidInput, type OperationInput, type OperationReturn, type ProviderContext, type ProviderOperations } from '@opl/plugin-sdk';
import { list, record } from './json-read.ts';
import { spotifyRequest } from './spotify-client.ts';
import { isLocalFileUri, parseSpotifyRef } from './spotify-uri.ts';
import { isrcQuery, searchLimit, textQuery } from './search-query.ts';
import { mapItem } from './track-mapper.ts';

/** Track search (by ISRC or text, at most 10 results per request) and URI validation. */

export async function searchTracks(input: OperationInput<'searchTracks'>, ctx: ProviderContext): Promise<OperationReturn<'searchTracks'>> {
  let q: string | null;
  if (input.mode === 'isrc') {
    if (input.query.isrc === null) throw new InvalidInput('An ISRC search needs an ISRC.');
    q = isrcQuery(input.query.isrc);
    // A malformed ISRC matches nothing; asking Spotify would only spend quota.
    if (q === null) return { candidates: [] };
  } else {
    q = textQuery(input.query);
    if (q === null) throw new InvalidInput('A text search needs a title, an artist, an album or free text.');
  }
  const answer = record(await spotifyRequest(ctx, { path: `/search?type=track&limit=${searchLimit(input.limit)}&q=${encodeURIComponent(q)}`, what: 'searching tracks' }));
  const items = list(record(answer?.['tracks'])?.['items']).filter((item) => record(item) !== null);
  return { candidates: items.map((item) => mapItem(item)) };
}

/** Spotify URIs and open.spotify.com links of tracks, albums, artists and playlists. */
export function validateUri(input: OperationInput<'validateUri'>): OperationReturn<'validateUri'> {
  if (isLocalFileUri(input.uri)) return { valid: false };
  const parsed = parseSpotifyRef(input.uri);
  if (!parsed) return { valid: false };
  if (parsed.entity !== 'track' && parsed.entity !== 'album' && parsed.entity !== 'artist' && parsed.entity !== 'playlist') return { valid: false };
  return { valid: true, entity: parsed.entity, id: parsed.id, normalized_uri: parsed.uri };
}

/** The operations of this file, as the plugin definition takes them. */
export const searchOperations = { searchTracks, validateUri } satisfies ProviderOperations;
