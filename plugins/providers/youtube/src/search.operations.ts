import { Unsupported, type OperationInput, type OperationReturn, type ProviderContext, type ProviderOperations } from '@opl/plugin-sdk';
import { videosById } from './playlist-read.operations.ts';
import { trackFromVideo } from './video-mapper.ts';
import { list, query } from './youtube-client.ts';
import { parseYoutubeUri, playlistUri, videoUri } from './youtube-uris.ts';

/**
 * Search: search.list in the Music category (one call of its own daily budget of 100), then
 * videos.list for the found videos' durations and channels (1 unit) — search snippets lack both
 * and are HTML-escaped. YouTube has no ISRC lookup.
 */

export function searchText(query: OperationInput<'searchTracks'>['query']): string {
  if (query.text) return query.text;
  return [query.artist, query.title].filter((part): part is string => Boolean(part)).join(' ');
}

export async function searchTracks(input: OperationInput<'searchTracks'>, ctx: ProviderContext): Promise<OperationReturn<'searchTracks'>> {
  if (input.mode === 'isrc') throw new Unsupported('YouTube cannot search by ISRC; search by title and artist instead');
  const q = searchText(input.query).trim();
  if (q === '') return { candidates: [] };
  const answer = await list<{ id?: { videoId?: unknown } }>(ctx, `/search${query({ part: 'snippet', type: 'video', videoCategoryId: '10', maxResults: Math.min(input.limit, 50), q })}`, 'searching videos');
  const ids = answer.items.map((item) => item.id?.videoId).filter((id): id is string => typeof id === 'string');
  if (ids.length === 0) return { candidates: [] };
  const videos = await videosById(ctx, ids);
  const candidates = ids.map((id) => videos.get(id)).filter((video) => video !== undefined).map((video) => trackFromVideo(video));
  return { candidates: candidates.slice(0, input.limit) };
}

export function validateUri(input: OperationInput<'validateUri'>): OperationReturn<'validateUri'> {
  const ref = parseYoutubeUri(input.uri);
  if (!ref) return { valid: false };
  return { valid: true, entity: ref.entity, id: ref.id, normalized_uri: ref.entity === 'track' ? videoUri(ref.id) : playlistUri(ref.id) };
}

/** The operations of this file, as the plugin definition takes them. */
export const searchOperations = { searchTracks, validateUri } satisfies ProviderOperations;
