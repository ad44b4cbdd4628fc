import { PluginError, ProviderError, type OperationInput, type OperationReturn, type ProviderContext, type ProviderOperations } from '@opl/plugin-sdk';
import { integer, list, record } from './json-read.ts';
import { mapAlbum, mapArtist, mapSavedAlbum } from './library-mapper.ts';
import { afterFromCursor, nextAfterCursor, nextOffsetCursor, offsetFromCursor, pageSize } from './paging.ts';
import { spotifyRequest } from './spotify-client.ts';
import { parseSpotifyRef } from './spotify-uri.ts';
import { albumQuery, searchLimit } from './search-query.ts';
import { mapSavedTrack } from './track-mapper.ts';
import { chunks } from './write-batches.ts';

/**
 * The library: liked tracks (`/me/tracks`, the LIKED_TRACKS collection), saved albums
 * (`/me/albums`; saving and removing through the generic `/me/library`, ≤ 40 URIs per request)
 * and followed artists (`/me/following`, cursor-paged).
 */

/** `/me/library` takes at most 40 URIs per request. */
export const MAX_LIBRARY_URIS = 40;

type LibraryResult = OperationReturn<'saveAlbums'>;

export async function listLikedTracks(input: OperationInput<'listLikedTracks'>, ctx: ProviderContext): Promise<OperationReturn<'listLikedTracks'>> {
  const offset = offsetFromCursor(input.cursor);
  const limit = pageSize(input.limit);
  const page = record(await spotifyRequest(ctx, { path: `/me/tracks?limit=${limit}&offset=${offset}`, what: 'reading the liked tracks' }));
  if (!page) throw new ProviderError('Spotify sent no page of liked tracks.');
  const entries = list(page['items']);
  return { items: entries.map((entry, index) => mapSavedTrack(entry, offset + index)), next_cursor: nextOffsetCursor(page, offset, entries.length), total: integer(page['total']) };
}

export async function listSavedAlbums(input: OperationInput<'listSavedAlbums'>, ctx: ProviderContext): Promise<OperationReturn<'listSavedAlbums'>> {
  const offset = offsetFromCursor(input.cursor);
  const limit = pageSize(input.limit);
  const page = record(await spotifyRequest(ctx, { path: `/me/albums?limit=${limit}&offset=${offset}`, what: 'reading the saved albums' }));
  if (!page) throw new ProviderError('Spotify sent no page of saved albums.');
  const entries = list(page['items']);
  return { items: entries.map((entry) => mapSavedAlbum(entry)), next_cursor: nextOffsetCursor(page, offset, entries.length), total: integer(page['total']) };
}

export async function listFollowedArtists(input: OperationInput<'listFollowedArtists'>, ctx: ProviderContext): Promise<OperationReturn<'listFollowedArtists'>> {
  const after = afterFromCursor(input.cursor);
  const limit = pageSize(input.limit);
  const answer = record(await spotifyRequest(ctx, { path: `/me/following?type=artist&limit=${limit}${after ? `&after=${after}` : ''}`, what: 'reading the followed artists' }));
  const page = record(answer?.['artists']);
  if (!page) throw new ProviderError('Spotify sent no page of followed artists.');
  return { items: list(page['items']).map((entry) => mapArtist(entry)), next_cursor: nextAfterCursor(page), total: integer(page['total']) };
}

export async function searchAlbums(input: OperationInput<'searchAlbums'>, ctx: ProviderContext): Promise<OperationReturn<'searchAlbums'>> {
  const q = albumQuery(input.query);
  if (q === null) return { candidates: [] };
  const answer = record(await spotifyRequest(ctx, { path: `/search?type=album&limit=${searchLimit(input.limit)}&q=${encodeURIComponent(q)}`, what: 'searching albums' }));
  return { candidates: list(record(answer?.['albums'])?.['items']).flatMap((album) => (record(album) ? [mapAlbum(album)] : [])) };
}

/** Saves or removes library entities of one kind (albums, or liked tracks) through `/me/library`. */
async function changeLibrary(input: OperationInput<'saveAlbums'>, ctx: ProviderContext, method: 'PUT' | 'DELETE', entity: 'album' | 'track'): Promise<LibraryResult> {
  const results: (LibraryResult['results'][number] | null)[] = input.items.map(() => null);
  const valid: { index: number; uri: string }[] = [];
  input.items.forEach((item, index) => {
    const parsed = parseSpotifyRef(item.uri);
    if (parsed?.entity === entity) valid.push({ index, uri: parsed.uri });
    else results[index] = { uri: item.uri, ok: false, error: { type: 'InvalidInput', message: `Not a Spotify ${entity} URI.` } };
  });
  const noun = entity === 'album' ? 'albums' : 'liked tracks';
  const what = method === 'PUT' ? `saving ${noun} to the library` : `removing ${noun} from the library`;
  let done = 0;
  const batches = chunks(valid, MAX_LIBRARY_URIS);
  for (let b = 0; b < batches.length; b++) {
    const batch = batches[b]!;
    try {
      await spotifyRequest(ctx, { method, path: `/me/library?uris=${encodeURIComponent([...new Set(batch.map((item) => item.uri))].join(','))}`, what });
      done += batch.length;
      for (const item of batch) results[item.index] = { uri: input.items[item.index]!.uri, ok: true };
    } catch (error) {
      const typed = error instanceof PluginError ? error : new ProviderError('The Spotify plugin failed unexpectedly while changing the library.');
      if (done === 0) throw typed;
      for (const rest of batches.slice(b)) for (const item of rest) results[item.index] = { uri: input.items[item.index]!.uri, ok: false, error: { type: typed.type, message: typed.message } };
      break;
    }
  }
  return { results: results.map((result, index) => result ?? { uri: input.items[index]!.uri, ok: false }), snapshot_id: null };
}

export function saveAlbums(input: OperationInput<'saveAlbums'>, ctx: ProviderContext): Promise<LibraryResult> {
  return changeLibrary(input, ctx, 'PUT', 'album');
}

export function removeSavedAlbums(input: OperationInput<'removeSavedAlbums'>, ctx: ProviderContext): Promise<LibraryResult> {
  return changeLibrary(input, ctx, 'DELETE', 'album');
}

/** Liked songs: the same `/me/library` endpoint with track URIs (a track saved twice stays saved once). */
export function saveTracks(input: OperationInput<'saveTracks'>, ctx: ProviderContext): Promise<LibraryResult> {
  return changeLibrary(input, ctx, 'PUT', 'track');
}

/** The operations of this file, as the plugin definition takes them. */
export const libraryOperations = { listLikedTracks, saveTracks, listSavedAlbums, searchAlbums, saveAlbums, removeSavedAlbums, listFollowedArtists } satisfies ProviderOperations;
