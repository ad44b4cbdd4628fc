import { NotFound, ProviderError, Unsupported, type OperationInput, type OperationReturn, type ProviderContext, type ProviderOperations } from '@opl/plugin-sdk';
import { integer, list, nonEmpty, record, text } from './json-read.ts';
import { nextOffsetCursor, offsetFromCursor, pageSize } from './paging.ts';
import { mapPlaylist } from './playlist-mapper.ts';
import { spotifyRequest } from './spotify-client.ts';
import { playlistIdOf } from './spotify-uri.ts';
import { mapPlaylistEntry } from './track-mapper.ts';

/**
 * Reading: the profile, the library's playlists, one playlist, and its items. Nothing is cached
 * here — the engine caches by the snapshot ids these results carry.
 */

/** Items embedded in a full playlist object: the API's first page holds up to 100. */
const EMBEDDED_PAGE = 100;

export async function currentUser(ctx: ProviderContext): Promise<{ id: string; displayName: string | null; country: string | null }> {
  const me = record(await spotifyRequest(ctx, { path: '/me', what: 'reading the account profile' }));
  const id = nonEmpty(me?.['id']);
  if (!me || !id) throw new ProviderError('Spotify sent a profile without a user id.');
  return { id, displayName: nonEmpty(me['display_name']), country: nonEmpty(me['country']) };
}

export async function testConnection(_input: OperationInput<'testConnection'>, ctx: ProviderContext): Promise<OperationReturn<'testConnection'>> {
  const me = await currentUser(ctx);
  return { ok: true, account_id: me.id, display_name: me.displayName, country: me.country };
}

export async function listPlaylists(input: OperationInput<'listPlaylists'>, ctx: ProviderContext): Promise<OperationReturn<'listPlaylists'>> {
  const offset = offsetFromCursor(input.cursor);
  const limit = pageSize(input.limit);
  const me = await currentUser(ctx);
  const page = record(await spotifyRequest(ctx, { path: `/me/playlists?limit=${limit}&offset=${offset}`, what: 'listing the playlists of the library' }));
  if (!page) throw new ProviderError('Spotify sent no playlist page.');
  // A playlist deleted meanwhile may come back as null: skip it rather than invent one.
  const items = list(page['items']).flatMap((entry) => (record(entry) ? [mapPlaylist(entry, me.id)] : []));
  return { items, next_cursor: nextOffsetCursor(page, offset, list(page['items']).length), total: integer(page['total']) };
}

/** The id checked before it goes into a URL: a value that cannot be a Spotify id names nothing. */
export function requirePlaylistId(value: string): string {
  const id = playlistIdOf(value);
  if (!id) throw new NotFound('No Spotify playlist has this id (Spotify playlist ids are 22 letters and digits).');
  return id;
}

async function fullPlaylist(ctx: ProviderContext, id: string): Promise<Record<string, unknown>> {
  const playlist = record(await spotifyRequest(ctx, { path: `/playlists/${id}?additional_types=track,episode`, what: 'reading the playlist', missing: 'playlist' }));
  if (!playlist) throw new ProviderError('Spotify sent no playlist.');
  return playlist;
}

export async function readPlaylist(input: OperationInput<'readPlaylist'>, ctx: ProviderContext): Promise<OperationReturn<'readPlaylist'>> {
  const id = requirePlaylistId(input.playlist_id);
  const me = await currentUser(ctx);
  return mapPlaylist(await fullPlaylist(ctx, id), me.id);
}

function ownerOnlyError(name: string | null): Unsupported {
  return new Unsupported(
    `Spotify gives apps the items of a playlist only when the account owns it or collaborates on it${name ? `, and “${name}” belongs to someone else` : ''}. Ask its owner to add you as a collaborator, or copy it into a playlist of your own in Spotify, then read that one.`,
  );
}

/**
 * The first page comes from the playlist object itself, so items and snapshot id are read in one
 * answer; later pages come from `/items`, each with the snapshot id read right after it, so a
 * change between pages shows up as a different snapshot id.
 */
export async function listPlaylistItems(input: OperationInput<'listPlaylistItems'>, ctx: ProviderContext): Promise<OperationReturn<'listPlaylistItems'>> {
  const id = requirePlaylistId(input.playlist_id);
  const offset = offsetFromCursor(input.cursor);
  if (offset === 0) {
    const playlist = await fullPlaylist(ctx, id);
    const page = record(playlist['items']) ?? record(playlist['tracks']);
    if (!page) throw ownerOnlyError(text(playlist['name']));
    const limit = pageSize(input.limit, EMBEDDED_PAGE);
    const entries = list(page['items']).slice(0, limit);
    return {
      items: entries.map((entry, index) => mapPlaylistEntry(entry, index)),
      next_cursor: nextOffsetCursor(page, 0, entries.length),
      total: integer(page['total']),
      snapshot_id: nonEmpty(playlist['snapshot_id']),
    };
  }
  const limit = pageSize(input.limit);
  const page = record(
    await spotifyRequest(ctx, { path: `/playlists/${id}/items?limit=${limit}&offset=${offset}&additional_types=track,episode`, what: "reading the playlist's items", missing: 'playlist', ownerOnly: true }),
  );
  if (!page) throw new ProviderError('Spotify sent no page of playlist items.');
  const snapshot = record(await spotifyRequest(ctx, { path: `/playlists/${id}?fields=snapshot_id`, what: "reading the playlist's snapshot id", missing: 'playlist' }));
  const entries = list(page['items']);
  return {
    items: entries.map((entry, index) => mapPlaylistEntry(entry, offset + index)),
    next_cursor: nextOffsetCursor(page, offset, entries.length),
    total: integer(page['total']),
    snapshot_id: nonEmpty(snapshot?.['snapshot_id']),
  };
}

/** The operations of this file, as the plugin definition takes them. */
export const playlistReads = { testConnection, listPlaylists, readPlaylist, listPlaylistItems } satisfies ProviderOperations;
