import { ProviderError, type OperationInput, type OperationReturn, type ProviderContext, type ProviderOperations } from '@opl/plugin-sdk';
import { asIdentifier, asResource, lookup, type Identifier, type Resource } from './json-api-document.ts';
import { collectPage } from './page-cursor.ts';
import { currentUser, getDocument, pageCursor, query, segment } from './tidal-client.ts';
import { entryContext, mapPlaylist, mapTrack, unavailableEntry } from './tidal-mapping.ts';

/** Reading playlists: the owner-filtered listing, one playlist, and its entries page by page. */

/** Artists, albums and album covers of every entry, in the same answer (depth 3, well within TIDAL's include limits). */
export const ITEM_INCLUDES = ['items.artists', 'items.albums.coverArt'];

export async function listPlaylists(input: OperationInput<'listPlaylists'>, ctx: ProviderContext): Promise<OperationReturn<'listPlaylists'>> {
  return collectPage(
    pageCursor(input.cursor),
    input.limit,
    async (cursor) => {
      // Oldest first: a playlist created while paging lands at the end instead of shifting pages.
      const document = await getDocument(ctx, `/playlists${query({ 'filter[owners.id]': 'me', include: ['owners', 'coverArt'], sort: 'createdAt', 'page[cursor]': cursor })}`, 'listing playlists');
      const items = document.data.map(asResource).filter((resource): resource is Resource => resource !== null && resource.type === 'playlists');
      // The owner filter is the ownership proof: every playlist listed here is the account's own.
      return { items: items.map((resource) => ({ ...mapPlaylist(document, resource, { userId: null }), is_owned: true })), next: document.nextCursor };
    },
    (playlist) => playlist,
  );
}

export async function readPlaylist(input: OperationInput<'readPlaylist'>, ctx: ProviderContext): Promise<OperationReturn<'readPlaylist'>> {
  const document = await getDocument(ctx, `/playlists/${segment(input.playlist_id)}${query({ include: ['owners', 'coverArt'] })}`, 'reading a playlist');
  const resource = asResource(document.data[0]);
  if (!resource || resource.type !== 'playlists') throw new ProviderError('TIDAL sent no playlist while reading a playlist');
  const me = await currentUser(ctx);
  return mapPlaylist(document, resource, { userId: me.id });
}

/** One TIDAL page of entries as Tracks; `base` is the absolute index of the page's first entry. */
async function itemsPage(ctx: ProviderContext, path: string, cursor: string | null, what: string) {
  const document = await getDocument(ctx, `${path}${query({ include: ITEM_INCLUDES, 'page[cursor]': cursor })}`, what);
  const identifiers = document.data.map(asIdentifier).filter((identifier): identifier is Identifier => identifier !== null);
  return { items: identifiers.map((identifier) => ({ identifier, document })), next: document.nextCursor };
}

export async function listPlaylistItems(input: OperationInput<'listPlaylistItems'>, ctx: ProviderContext): Promise<OperationReturn<'listPlaylistItems'>> {
  const page = await collectPage(
    pageCursor(input.cursor),
    input.limit,
    (cursor) => itemsPage(ctx, `/playlists/${segment(input.playlist_id)}/relationships/items`, cursor, 'reading playlist entries'),
    ({ identifier, document }, index) => {
      const entry = entryContext(identifier, index);
      const resource = lookup(document, identifier);
      return resource ? mapTrack(document, resource, entry) : unavailableEntry(identifier, entry);
    },
  );
  // TIDAL's item pages carry no version marker; readPlaylist's snapshot_id (lastModifiedAt) is the one to cache by.
  return { ...page, total: null, snapshot_id: null };
}

export async function listLikedTracks(input: OperationInput<'listLikedTracks'>, ctx: ProviderContext): Promise<OperationReturn<'listLikedTracks'>> {
  const page = await collectPage(
    pageCursor(input.cursor),
    input.limit,
    (cursor) => itemsPage(ctx, '/userCollectionTracks/me/relationships/items', cursor, 'reading favourite tracks'),
    ({ identifier, document }, index) => {
      const entry = { ...entryContext(identifier, index), itemId: null };
      const resource = lookup(document, identifier);
      return resource ? mapTrack(document, resource, entry) : unavailableEntry(identifier, entry);
    },
  );
  return { ...page, total: null };
}

/** Every entry of a playlist (ids only, no includes): positioned inserts and removals by URI need the layout. */
export async function readEntryLayout(ctx: ProviderContext, playlistId: string): Promise<{ id: string; type: string; itemId: string }[]> {
  const entries: { id: string; type: string; itemId: string }[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 1_000; pages++) {
    const document = await getDocument(ctx, `/playlists/${segment(playlistId)}/relationships/items${query({ 'page[cursor]': cursor })}`, 'reading the playlist layout');
    for (const identifier of document.data.map(asIdentifier)) {
      const itemId = identifier?.meta['itemId'];
      if (identifier && typeof itemId === 'string') entries.push({ id: identifier.id, type: identifier.type, itemId });
    }
    if (document.nextCursor === null) return entries;
    cursor = document.nextCursor;
  }
  return entries;
}

/** The operations of this file, as the plugin definition takes them. */
export const playlistReads = { listPlaylists, readPlaylist, listPlaylistItems, listLikedTracks } satisfies ProviderOperations;
