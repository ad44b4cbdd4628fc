import { InvalidInput, type OperationInput, type OperationReturn, type ProviderContext, type TrackInput, type ProviderOperations } from '@opl/plugin-sdk';
import { innertube } from './innertube-client.ts';
import { at, record, records, rendererOf, type JsonRecord } from './json-read.ts';
import { parseListItem } from './list-item-parser.ts';
import { mapListItem } from './track-mapper.ts';
import { parseYtRef } from './ytmusic-uri.ts';

/**
 * Text search (YouTube Music has no ISRCs). Songs — official audio — are searched first with the
 * songs filter; only when none match are videos searched (official music videos and uploads).
 * Every candidate keeps its `videoType`, so matching can prefer official audio.
 */

export const SEARCH_PARAMS = { songs: 'EgWKAQIIAWoMEA4QChADEAQQCRAF', videos: 'EgWKAQIQAWoMEA4QChADEAQQCRAF' } as const;

export function textQuery(query: OperationInput<'searchTracks'>['query']): string | null {
  const parts = query.text !== null && query.text.trim() !== '' ? [query.text] : [query.title, query.artist].filter((part): part is string => part !== null && part.trim() !== '');
  const joined = parts.join(' ').replace(/\s+/g, ' ').trim();
  return joined === '' ? null : joined.slice(0, 300);
}

/** The rows of every music shelf of a search answer. */
export function searchRows(answer: JsonRecord): JsonRecord[] {
  const sections = records(at(answer, 'contents', 'tabbedSearchResultsRenderer', 'tabs', 0, 'tabRenderer', 'content', 'sectionListRenderer', 'contents'));
  return sections.flatMap((section) => {
    const shelf = rendererOf(section);
    if (shelf?.name !== 'musicShelfRenderer') return [];
    return records(shelf.body['contents']).flatMap((row) => {
      const renderer = record(row['musicResponsiveListItemRenderer']);
      return renderer ? [renderer] : [];
    });
  });
}

async function search(ctx: ProviderContext, query: string, params: string, limit: number): Promise<TrackInput[]> {
  const answer = await innertube(ctx, { endpoint: 'search', body: { query, params }, what: 'searching' });
  return searchRows(answer)
    .map((row) => mapListItem(parseListItem(row)))
    .filter((track) => track.id)
    .slice(0, limit);
}

export async function searchTracks(input: OperationInput<'searchTracks'>, ctx: ProviderContext): Promise<OperationReturn<'searchTracks'>> {
  if (input.mode === 'isrc') throw new InvalidInput('YouTube Music has no ISRCs; search by text.');
  const query = textQuery(input.query);
  if (query === null) throw new InvalidInput('A text search needs a title, an artist or free text.');
  const songs = await search(ctx, query, SEARCH_PARAMS.songs, input.limit);
  if (songs.length > 0) return { candidates: songs };
  return { candidates: await search(ctx, query, SEARCH_PARAMS.videos, input.limit) };
}

export function validateUri(input: OperationInput<'validateUri'>): OperationReturn<'validateUri'> {
  const ref = parseYtRef(input.uri);
  if (!ref) return { valid: false };
  return { valid: true, entity: ref.entity, id: ref.id, normalized_uri: ref.uri };
}

/** The operations of this file, as the plugin definition takes them. */
export const searchOperations = { searchTracks, validateUri } satisfies ProviderOperations;
