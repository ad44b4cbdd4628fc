import type { OperationInput, OperationReturn, ProviderContext, ProviderOperations } from '@opl/plugin-sdk';
import { primary, related, type Document, type Resource } from './json-api-document.ts';
import { getDocument, query } from './tidal-client.ts';
import { mapAlbum, mapArtist, mapTrack } from './tidal-mapping.ts';
import { parseTidalUri, tidalUri } from './tidal-uris.ts';

/**
 * Catalogue lookups: `filter[isrc]` and `filter[barcodeId]` for exact identifiers, the
 * `searchResults` resource for text. Candidates come back in TIDAL's order; scoring is the
 * engine's job.
 */

const MAX_QUERY = 256;
const ISRC = /^[A-Z]{2}[A-Z0-9]{3}\d{7}$/;

/** A catalogue track's artists, album and album cover, in the same answer: what `mapTrack` reads. */
export const TRACK_INCLUDES = ['artists', 'albums.coverArt'];

/** The text TIDAL searches for: free text, else "artist title album" from the structured fields. */
export function searchText(parts: readonly (string | null | undefined)[]): string {
  return parts
    .filter((part): part is string => typeof part === 'string' && part.trim() !== '')
    .map((part) => part.trim())
    .join(' ')
    .replace(/\s+/g, ' ')
    .slice(0, MAX_QUERY);
}

/** The searchResults resource's `member` relationship, resolved through `included`. */
async function searchFor(ctx: ProviderContext, text: string, member: 'tracks' | 'albums' | 'artists', includes: string[]): Promise<{ document: Document; found: Resource[] }> {
  const document = await getDocument(ctx, `/searchResults${query({ 'filter[query]': text, include: includes })}`, `searching ${member}`);
  const result = primary(document, 'searchResults')[0];
  return { document, found: result ? related(document, result, member) : [] };
}

export async function searchTracks(input: OperationInput<'searchTracks'>, ctx: ProviderContext): Promise<OperationReturn<'searchTracks'>> {
  const { query: wanted, limit } = input;
  if (input.mode === 'isrc') {
    const isrc = wanted.isrc?.trim().toUpperCase().replace(/-/g, '') ?? '';
    if (!ISRC.test(isrc)) return { candidates: [] };
    const document = await getDocument(ctx, `/tracks${query({ 'filter[isrc]': isrc, include: TRACK_INCLUDES })}`, 'looking a recording up by ISRC');
    return { candidates: primary(document, 'tracks').slice(0, limit).map((resource) => mapTrack(document, resource)) };
  }
  const text = wanted.text?.trim() ? searchText([wanted.text]) : searchText([wanted.artist, wanted.title]);
  if (text === '') return { candidates: [] };
  const { document, found } = await searchFor(ctx, text, 'tracks', ['tracks.artists', 'tracks.albums.coverArt']);
  return { candidates: found.slice(0, limit).map((resource) => mapTrack(document, resource)) };
}

export async function searchAlbums(input: OperationInput<'searchAlbums'>, ctx: ProviderContext): Promise<OperationReturn<'searchAlbums'>> {
  const { query: wanted, limit } = input;
  const upc = wanted.upc?.replace(/\D/g, '') ?? '';
  if (upc.length >= 12) {
    const document = await getDocument(ctx, `/albums${query({ 'filter[barcodeId]': upc, include: ['artists', 'coverArt'] })}`, 'looking an album up by barcode');
    const albums = primary(document, 'albums');
    if (albums.length) return { candidates: albums.slice(0, limit).map((resource) => mapAlbum(document, resource)) };
  }
  const text = searchText([wanted.artist, wanted.title]);
  if (text === '') return { candidates: [] };
  const { document, found } = await searchFor(ctx, text, 'albums', ['albums.artists', 'albums.coverArt']);
  return { candidates: found.slice(0, limit).map((resource) => mapAlbum(document, resource)) };
}

export async function searchArtists(input: OperationInput<'searchArtists'>, ctx: ProviderContext): Promise<OperationReturn<'searchArtists'>> {
  const text = searchText([input.query.name]);
  if (text === '') return { candidates: [] };
  const { document, found } = await searchFor(ctx, text, 'artists', ['artists.profileArt']);
  return { candidates: found.slice(0, input.limit).map((resource) => mapArtist(document, resource)) };
}

export function validateUri(input: OperationInput<'validateUri'>): OperationReturn<'validateUri'> {
  const ref = parseTidalUri(input.uri);
  if (!ref) return { valid: false, entity: null, id: null, normalized_uri: null };
  // A video is a valid TIDAL link but no entity the engine migrates.
  return { valid: true, entity: ref.entity === 'video' ? null : ref.entity, id: ref.id, normalized_uri: tidalUri(ref.entity, ref.id) };
}

/** The operations of this file, as the plugin definition takes them. */
export const searchOperations = { searchTracks, searchAlbums, searchArtists, validateUri } satisfies ProviderOperations;
