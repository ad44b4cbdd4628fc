import { PluginError, ProviderError, type OperationInput, type OperationReturn, type ProviderContext, type ProviderOperations } from '@opl/plugin-sdk';
import { deezerRequest, deezerWrite } from './deezer-client.ts';
import { idFor, type DeezerEntity } from './deezer-uri.ts';
import { integer, list, record } from './json-read.ts';
import { mapAlbum, mapArtist } from './library-mapper.ts';
import { indexFromCursor, nextCursor, pageSize } from './paging.ts';
import { albumQuery, searchLimit } from './search-query.ts';
import { mapListedTrack } from './track-mapper.ts';

/**
 * Favourites: tracks (`/user/me/tracks`, the LIKED_TRACKS collection), albums (`/user/me/albums`)
 * and artists (`/user/me/artists`). Each is read in `index`/`limit` pages and changed one item per
 * request (`POST`/`DELETE` with `track_id`, `album_id` or `artist_id`).
 */

type LibraryResult = OperationReturn<'saveAlbums'>;

async function favouritesPage(ctx: ProviderContext, collection: 'tracks' | 'albums' | 'artists', cursor: string | null, limit: number): Promise<{ entries: unknown[]; index: number; next: string | null; total: number | null }> {
  const index = indexFromCursor(cursor);
  const page = record(await deezerRequest(ctx, { path: `/user/me/${collection}`, query: { index, limit: pageSize(limit) }, what: `reading the favourite ${collection}` }));
  if (!page) throw new ProviderError(`Deezer sent no page of favourite ${collection}.`);
  const entries = list(page['data']);
  return { entries, index, next: nextCursor(page, index, entries.length), total: integer(page['total']) };
}

export async function listLikedTracks(input: OperationInput<'listLikedTracks'>, ctx: ProviderContext): Promise<OperationReturn<'listLikedTracks'>> {
  const { entries, index, next, total } = await favouritesPage(ctx, 'tracks', input.cursor, input.limit);
  return { items: entries.map((entry, offset) => mapListedTrack(entry, index + offset)), next_cursor: next, total };
}

export async function listSavedAlbums(input: OperationInput<'listSavedAlbums'>, ctx: ProviderContext): Promise<OperationReturn<'listSavedAlbums'>> {
  const { entries, next, total } = await favouritesPage(ctx, 'albums', input.cursor, input.limit);
  return { items: entries.map((entry) => mapAlbum(entry)), next_cursor: next, total };
}

export async function listFollowedArtists(input: OperationInput<'listFollowedArtists'>, ctx: ProviderContext): Promise<OperationReturn<'listFollowedArtists'>> {
  const { entries, next, total } = await favouritesPage(ctx, 'artists', input.cursor, input.limit);
  return { items: entries.map((entry) => mapArtist(entry)), next_cursor: next, total };
}

export async function searchAlbums(input: OperationInput<'searchAlbums'>, ctx: ProviderContext): Promise<OperationReturn<'searchAlbums'>> {
  const upc = input.query.upc?.replace(/\D/g, '') ?? '';
  if (upc.length >= 12) {
    try {
      return { candidates: [mapAlbum(await deezerRequest(ctx, { path: `/album/upc:${upc}`, what: 'looking the UPC up', missing: 'album with this UPC' }))] };
    } catch (error) {
      if (!(error instanceof PluginError && error.type === 'NotFound')) throw error;
    }
  }
  const q = albumQuery(input.query);
  if (q === null) return { candidates: [] };
  const answer = record(await deezerRequest(ctx, { path: '/search/album', query: { q, limit: searchLimit(input.limit) }, what: 'searching albums' }));
  return { candidates: list(answer?.['data']).filter((album) => record(album) !== null).slice(0, input.limit).map((album) => mapAlbum(album)) };
}

export async function searchArtists(input: OperationInput<'searchArtists'>, ctx: ProviderContext): Promise<OperationReturn<'searchArtists'>> {
  const name = input.query.name.replace(/["\u201c\u201d]/g, ' ').trim();
  if (name === '') return { candidates: [] };
  const answer = record(await deezerRequest(ctx, { path: '/search/artist', query: { q: name, limit: searchLimit(input.limit) }, what: 'searching artists' }));
  return { candidates: list(answer?.['data']).filter((artist) => record(artist) !== null).slice(0, input.limit).map((artist) => mapArtist(artist)) };
}

const PARAMS: Record<'tracks' | 'albums' | 'artists', { param: string; entity: DeezerEntity; noun: string }> = {
  tracks: { param: 'track_id', entity: 'track', noun: 'track' },
  albums: { param: 'album_id', entity: 'album', noun: 'album' },
  artists: { param: 'artist_id', entity: 'artist', noun: 'artist' },
};

/** One request per item; a failure after some succeeded is reported per item, never thrown away. */
async function changeFavourites(items: readonly { uri: string }[], ctx: ProviderContext, collection: 'tracks' | 'albums' | 'artists', method: 'POST' | 'DELETE'): Promise<LibraryResult> {
  const { param, entity, noun } = PARAMS[collection];
  const what = method === 'POST' ? `adding a favourite ${noun}` : `removing a favourite ${noun}`;
  const results: LibraryResult['results'] = [];
  let done = 0;
  let stopped: PluginError | null = null;
  for (const item of items) {
    const id = idFor(entity, item.uri);
    if (!id) {
      results.push({ uri: item.uri, ok: false, error: { type: 'InvalidInput', message: `Not a Deezer ${noun} URI or link.` } });
      continue;
    }
    if (stopped) {
      results.push({ uri: item.uri, ok: false, error: { type: stopped.type, message: stopped.message } });
      continue;
    }
    try {
      await deezerWrite(ctx, { method, path: `/user/me/${collection}`, query: { [param]: id }, what, missing: noun });
      done += 1;
      results.push({ uri: item.uri, ok: true });
    } catch (error) {
      const typed = error instanceof PluginError ? error : new ProviderError('The Deezer plugin failed unexpectedly while changing favourites.');
      if (done === 0 && typed.type !== 'NotFound') throw typed;
      if (typed.type === 'NotFound') {
        // One unknown or absent item does not stop the others.
        results.push({ uri: item.uri, ok: false, error: { type: typed.type, message: typed.message } });
        continue;
      }
      stopped = typed;
      results.push({ uri: item.uri, ok: false, error: { type: typed.type, message: typed.message } });
    }
  }
  return { results, snapshot_id: null };
}

export function saveTracks(input: OperationInput<'saveTracks'>, ctx: ProviderContext): Promise<LibraryResult> {
  return changeFavourites(input.items, ctx, 'tracks', 'POST');
}

export function saveAlbums(input: OperationInput<'saveAlbums'>, ctx: ProviderContext): Promise<LibraryResult> {
  return changeFavourites(input.items, ctx, 'albums', 'POST');
}

export function removeSavedAlbums(input: OperationInput<'removeSavedAlbums'>, ctx: ProviderContext): Promise<LibraryResult> {
  return changeFavourites(input.items, ctx, 'albums', 'DELETE');
}

export function followArtists(input: OperationInput<'followArtists'>, ctx: ProviderContext): Promise<LibraryResult> {
  return changeFavourites(input.items, ctx, 'artists', 'POST');
}

export function unfollowArtists(input: OperationInput<'unfollowArtists'>, ctx: ProviderContext): Promise<LibraryResult> {
  return changeFavourites(input.items, ctx, 'artists', 'DELETE');
}

/** The operations of this file, as the plugin definition takes them. */
export const libraryOperations = { listLikedTracks, saveTracks, listSavedAlbums, searchAlbums, saveAlbums, removeSavedAlbums, listFollowedArtists, searchArtists, followArtists, unfollowArtists } satisfies ProviderOperations;
