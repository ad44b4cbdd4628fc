import { NotFound, ProviderError, type OperationInput, type OperationReturn, type ProviderContext, type ProviderOperations } from '@opl/plugin-sdk';
import { getPage, query, segment, type ResourcePage } from './apple-client.ts';
import { mapPlaylist, mapTrack, record } from './apple-mapping.ts';
import { collectOffsetPage, decodeOffset } from './offset-paging.ts';

/** Reading the library: playlists (alphabetical, as Apple lists them), their tracks, and library songs. */

const EMPTY: ResourcePage = { data: [], next: null, total: 0 };

export async function listPlaylists(input: OperationInput<'listPlaylists'>, ctx: ProviderContext): Promise<OperationReturn<'listPlaylists'>> {
  const page = await collectOffsetPage(
    decodeOffset(input.cursor),
    input.limit,
    (offset, limit) => getPage(ctx, `/me/library/playlists${query({ limit, offset: offset || null })}`, 'listing library playlists'),
    (item) => mapPlaylist(record(item) ?? {}),
  );
  return { items: page.items, next_cursor: page.next_cursor, total: page.total };
}

/** The library playlist resource (NotFound when the library has no such playlist). */
export async function readPlaylistResource(ctx: ProviderContext, playlistId: string): Promise<Record<string, unknown>> {
  const page = await getPage(ctx, `/me/library/playlists/${segment(playlistId)}`, 'reading a library playlist');
  const resource = record(page.data[0]);
  if (!resource || resource['type'] !== 'library-playlists') throw new ProviderError('Apple Music sent no playlist while reading a library playlist');
  return { ...resource };
}

export async function readPlaylist(input: OperationInput<'readPlaylist'>, ctx: ProviderContext): Promise<OperationReturn<'readPlaylist'>> {
  return mapPlaylist(await readPlaylistResource(ctx, input.playlist_id));
}

/**
 * One page of a playlist's tracks. Apple answers the tracks of an empty playlist with 404, so a
 * 404 is checked against the playlist itself: an existing playlist is an empty one.
 */
export async function playlistTracksPage(ctx: ProviderContext, playlistId: string, offset: number, limit: number, includeCatalog: boolean): Promise<ResourcePage> {
  try {
    return await getPage(ctx, `/me/library/playlists/${segment(playlistId)}/tracks${query({ include: includeCatalog ? 'catalog' : null, limit, offset: offset || null })}`, 'reading playlist tracks');
  } catch (error) {
    if (!(error instanceof NotFound)) throw error;
    await readPlaylistResource(ctx, playlistId);
    return EMPTY;
  }
}

export async function listPlaylistItems(input: OperationInput<'listPlaylistItems'>, ctx: ProviderContext): Promise<OperationReturn<'listPlaylistItems'>> {
  const page = await collectOffsetPage(
    decodeOffset(input.cursor),
    input.limit,
    (offset, limit) => playlistTracksPage(ctx, input.playlist_id, offset, limit, true),
    (item, index) => mapTrack(record(item) ?? {}, { position: index }),
  );
  return { items: page.items, next_cursor: page.next_cursor, total: page.total, snapshot_id: null };
}

/** The library's songs: what the user added to the library, Apple's equivalent of saved tracks. */
export async function listLikedTracks(input: OperationInput<'listLikedTracks'>, ctx: ProviderContext): Promise<OperationReturn<'listLikedTracks'>> {
  const page = await collectOffsetPage(
    decodeOffset(input.cursor),
    input.limit,
    (offset, limit) => getPage(ctx, `/me/library/songs${query({ include: 'catalog', limit, offset: offset || null })}`, 'reading library songs'),
    (item, index) => mapTrack(record(item) ?? {}, { position: index }),
  );
  return { items: page.items, next_cursor: page.next_cursor, total: page.total };
}

/** The operations of this file, as the plugin definition takes them. */
export const playlistReads = { listPlaylists, readPlaylist, listPlaylistItems, listLikedTracks } satisfies ProviderOperations;
