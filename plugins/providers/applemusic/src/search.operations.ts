import type { OperationInput, OperationReturn, ProviderContext, ProviderOperations } from '@opl/plugin-sdk';
import { currentStorefront, getPage, query, send } from './apple-client.ts';
import { mapTrack, record } from './apple-mapping.ts';
import { appleUri, parseAppleUri } from './apple-uris.ts';

/**
 * Catalogue lookups in the account's own storefront (a song missing there cannot be added to its
 * playlists): `songs?filter[isrc]=` for ISRCs, `search?types=songs` for text. Candidates come back
 * in Apple's order; scoring is the engine's job.
 */

const ISRC = /^[A-Z]{2}[A-Z0-9]{3}\d{7}$/;
/** Apple's largest search page. */
const SEARCH_MAX = 25;
const MAX_TERM = 200;

/** The search term: free text, else "title artist" from the structured fields. */
export function searchTerm(parts: readonly (string | null | undefined)[]): string {
  return parts
    .filter((part): part is string => typeof part === 'string' && part.trim() !== '')
    .map((part) => part.trim())
    .join(' ')
    .replace(/\s+/g, ' ')
    .slice(0, MAX_TERM);
}

export function normaliseIsrc(value: string | null): string | null {
  const isrc = value?.trim().toUpperCase().replace(/-/g, '') ?? '';
  return ISRC.test(isrc) ? isrc : null;
}

export async function searchTracks(input: OperationInput<'searchTracks'>, ctx: ProviderContext): Promise<OperationReturn<'searchTracks'>> {
  const { query: wanted, limit } = input;
  if (input.mode === 'isrc') {
    const isrc = normaliseIsrc(wanted.isrc);
    if (!isrc) return { candidates: [] };
    const storefront = await currentStorefront(ctx);
    const page = await getPage(ctx, `/catalog/${storefront.id}/songs${query({ 'filter[isrc]': isrc })}`, 'looking a song up by ISRC');
    return { candidates: page.data.slice(0, limit).map((item) => mapTrack(record(item) ?? {})) };
  }
  const term = wanted.text?.trim() ? searchTerm([wanted.text]) : searchTerm([wanted.title, wanted.artist]);
  if (term === '') return { candidates: [] };
  const storefront = await currentStorefront(ctx);
  const body = await send(ctx, { path: `/catalog/${storefront.id}/search${query({ term, types: 'songs', limit: Math.min(limit, SEARCH_MAX) })}`, what: 'searching the catalog' });
  const songs = record(record(record(body)?.['results'])?.['songs']);
  const data = Array.isArray(songs?.['data']) ? (songs['data'] as unknown[]) : [];
  return { candidates: data.slice(0, limit).map((item) => mapTrack(record(item) ?? {})) };
}

export function validateUri(input: OperationInput<'validateUri'>): OperationReturn<'validateUri'> {
  const ref = parseAppleUri(input.uri);
  if (!ref) return { valid: false, entity: null, id: null, normalized_uri: null };
  const entity = ref.kind === 'song' || ref.kind === 'library-song' ? 'track' : ref.kind === 'playlist' || ref.kind === 'library-playlist' ? 'playlist' : ref.kind === 'album' || ref.kind === 'artist' ? ref.kind : null;
  // A music video is a valid Apple Music link but no entity the engine migrates.
  return { valid: true, entity, id: ref.id, normalized_uri: appleUri(ref.kind, ref.id) };
}

/** The operations of this file, as the plugin definition takes them. */
export const searchOperations = { searchTracks, validateUri } satisfies ProviderOperations;
