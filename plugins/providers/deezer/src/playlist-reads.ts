import { NotFound, ProviderError, type OperationInput, type OperationReturn, type ProviderContext, type ProviderOperations } from '@opl/plugin-sdk';
import { deezerRequest } from './deezer-client.ts';
import { idFor } from './deezer-uri.ts';
import { idOf, integer, list, nonEmpty, record } from './json-read.ts';
import { indexFromCursor, MAX_PAGE, nextCursor, pageSize } from './paging.ts';
import { mapPlaylist } from './playlist-mapper.ts';
import { mapListedTrack } from './track-mapper.ts';

/**
 * Reading: the profile, the library's playlists, one playlist, and its tracks. Nothing is cached
 * here — the engine caches by the checksums these results carry as snapshot ids.
 */

export interface CurrentUser {
  readonly id: string;
  readonly name: string | null;
  readonly country: string | null;
}

export async function currentUser(ctx: ProviderContext): Promise<CurrentUser> {
  const me = record(await deezerRequest(ctx, { path: '/user/me', what: 'reading the account profile' }));
  const id = idOf(me?.['id']);
  if (!me || !id) throw new ProviderError('Deezer sent a profile without a user id.');
  return { id, name: nonEmpty(me['name']), country: nonEmpty(me['country']) };
}

export async function testConnection(_input: OperationInput<'testConnection'>, ctx: ProviderContext): Promise<OperationReturn<'testConnection'>> {
  const me = await currentUser(ctx);
  return { ok: true, account_id: me.id, display_name: me.name, country: me.country };
}

export async function listPlaylists(input: OperationInput<'listPlaylists'>, ctx: ProviderContext): Promise<OperationReturn<'listPlaylists'>> {
  const index = indexFromCursor(input.cursor);
  const me = await currentUser(ctx);
  const page = record(await deezerRequest(ctx, { path: '/user/me/playlists', query: { index, limit: pageSize(input.limit) }, what: 'listing the playlists of the library' }));
  if (!page) throw new ProviderError('Deezer sent no playlist page.');
  const entries = list(page['data']);
  // The "Loved tracks" playlist is the favourites collection, which the engine reads through
  // listLikedTracks; listing it here would show the liked songs twice. Deezer lists it first.
  const playlists = entries.flatMap((entry) => (record(entry) ? [mapPlaylist(entry, me.id)] : []));
  const items = playlists.filter((playlist) => playlist.kind !== 'LIKED_TRACKS');
  const total = integer(page['total']);
  const lovedCounted = index > 0 || items.length < playlists.length;
  return { items, next_cursor: nextCursor(page, index, entries.length), total: total === null ? null : Math.max(0, total - (lovedCounted ? 1 : 0)) };
}

/** The id checked before it goes into a URL: a value that cannot be a Deezer id names nothing. */
export function requirePlaylistId(value: string): string {
  const id = idFor('playlist', value);
  if (!id) throw new NotFound('No Deezer playlist has this id (Deezer playlist ids are numbers).');
  return id;
}

export async function fullPlaylist(ctx: ProviderContext, id: string): Promise<Record<string, unknown>> {
  const playlist = record(await deezerRequest(ctx, { path: `/playlist/${id}`, what: 'reading the playlist', missing: 'playlist' }));
  if (!playlist || !idOf(playlist['id'])) throw new ProviderError('Deezer sent no playlist.');
  return playlist;
}

export async function readPlaylist(input: OperationInput<'readPlaylist'>, ctx: ProviderContext): Promise<OperationReturn<'readPlaylist'>> {
  const id = requirePlaylistId(input.playlist_id);
  const me = await currentUser(ctx);
  return mapPlaylist(await fullPlaylist(ctx, id), me.id);
}

/** One page of a playlist's tracks as Deezer lists them (`time_add` included). */
export async function tracksPage(ctx: ProviderContext, id: string, index: number, limit: number): Promise<{ entries: unknown[]; next: string | null; total: number | null }> {
  const page = record(await deezerRequest(ctx, { path: `/playlist/${id}/tracks`, query: { index, limit }, what: "reading the playlist's tracks", missing: 'playlist' }));
  if (!page) throw new ProviderError('Deezer sent no page of playlist tracks.');
  const entries = list(page['data']);
  return { entries, next: nextCursor(page, index, entries.length), total: integer(page['total']) };
}

/** Every track id of a playlist, in order (for writes that must know the current contents). */
export async function allTrackIds(ctx: ProviderContext, id: string): Promise<string[]> {
  const ids: string[] = [];
  let index = 0;
  for (let guard = 0; guard < 1_000; guard++) {
    const { entries, next } = await tracksPage(ctx, id, index, MAX_PAGE);
    for (const entry of entries) {
      const trackId = idOf(record(entry)?.['id']);
      if (trackId) ids.push(trackId);
    }
    if (next === null) return ids;
    index = Number(next);
  }
  throw new ProviderError('The Deezer playlist did not stop paging.');
}

/**
 * A page of tracks with the playlist's checksum read right after it, so a change between pages
 * shows up as a different snapshot id.
 */
export async function listPlaylistItems(input: OperationInput<'listPlaylistItems'>, ctx: ProviderContext): Promise<OperationReturn<'listPlaylistItems'>> {
  const id = requirePlaylistId(input.playlist_id);
  const index = indexFromCursor(input.cursor);
  const { entries, next, total } = await tracksPage(ctx, id, index, pageSize(input.limit));
  const playlist = await fullPlaylist(ctx, id);
  return {
    items: entries.map((entry, offset) => mapListedTrack(entry, index + offset)),
    next_cursor: next,
    total,
    snapshot_id: nonEmpty(playlist['checksum']) ?? nonEmpty(record(playlist['tracks'])?.['checksum']),
  };
}

/** The operations of this file, as the plugin definition takes them. */
export const playlistReads = { testConnection, listPlaylists, readPlaylist, listPlaylistItems } satisfies ProviderOperations;
