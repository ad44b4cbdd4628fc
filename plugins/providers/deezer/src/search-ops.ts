import { InvalidInput, PluginError, type OperationInput, type OperationReturn, type ProviderContext, type ProviderOperations } from '@opl/plugin-sdk';
import { deezerRequest } from './deezer-client.ts';
import { parseDeezerRef } from './deezer-uri.ts';
import { list, record } from './json-read.ts';
import { normalizeIsrc, searchLimit, trackQuery } from './search-query.ts';
import { mapTrack } from './track-mapper.ts';

/** Track search (ISRC lookup or advanced text search) and URI validation. */

export async function searchTracks(input: OperationInput<'searchTracks'>, ctx: ProviderContext): Promise<OperationReturn<'searchTracks'>> {
  if (input.mode === 'isrc') {
    if (input.query.isrc === null) throw new InvalidInput('An ISRC search needs an ISRC.');
    const isrc = normalizeIsrc(input.query.isrc);
    // A malformed ISRC matches nothing; asking Deezer would only spend requests.
    if (isrc === null) return { candidates: [] };
    try {
      const track = await deezerRequest(ctx, { path: `/track/isrc:${isrc}`, what: 'looking the ISRC up', missing: 'track with this ISRC' });
      return { candidates: record(track) ? [mapTrack(track)] : [] };
    } catch (error) {
      // "No data" is Deezer's way of saying no recording has this ISRC.
      if (error instanceof PluginError && error.type === 'NotFound') return { candidates: [] };
      throw error;
    }
  }
  const q = trackQuery(input.query);
  if (q === null) throw new InvalidInput('A text search needs a title, an artist, an album or free text.');
  const answer = record(await deezerRequest(ctx, { path: '/search/track', query: { q, limit: searchLimit(input.limit) }, what: 'searching tracks' }));
  return { candidates: list(answer?.['data']).filter((item) => record(item) !== null).slice(0, input.limit).map((item) => mapTrack(item)) };
}

/** Deezer URIs and deezer.com links of tracks, albums, artists and playlists. */
export function validateUri(input: OperationInput<'validateUri'>): OperationReturn<'validateUri'> {
  const parsed = parseDeezerRef(input.uri);
  if (!parsed) return { valid: false };
  return { valid: true, entity: parsed.entity, id: parsed.id, normalized_uri: parsed.uri };
}

/** The operations of this file, as the plugin definition takes them. */
export const searchOperations = { searchTracks, validateUri } satisfies ProviderOperations;
