import { InvalidInput, ProviderError, type OperationInput, type OperationReturn, type ProviderContext, type TrackInput, type ProviderOperations } from '@opl/plugin-sdk';
import { innertube } from './innertube-client.ts';
import { at, joinedText, nonEmpty, record, records, type JsonRecord } from './json-read.ts';
import { parseListItem, type ParsedListItem } from './list-item-parser.ts';
import { decodeCursor, slicePage, type PageCursor, type ProviderPage } from './page-cursor.ts';
import { mapPlaylistHeader, mapPlaylistTile, type PlaylistHeader } from './playlist-mapper.ts';
import { continuationPage, findShelf, shelfPage } from './shelves.ts';
import { mapListItem } from './track-mapper.ts';

/**
 * Reading: the account, the library's playlists, one playlist and its entries, liked music.
 * Nothing is cached here. YouTube Music has no snapshot ids, so results carry none and the engine
 * reads live.
 */

/** Liked Music: every account's automatic playlist of liked songs. */
export const LIKED_MUSIC = 'LM';
const PLAYLIST_ID = /^[A-Za-z0-9_-]{2,100}$/;

export function requirePlaylistId(value: string): string {
  const id = value.startsWith('VL') ? value.slice(2) : value;
  if (!PLAYLIST_ID.test(id)) throw new InvalidInput('This is not a YouTube Music playlist id.');
  return id;
}

export async function currentAccount(ctx: ProviderContext): Promise<{ channelId: string | null; name: string | null }> {
  const answer = await innertube(ctx, { endpoint: 'account/account_menu', what: 'reading the account' });
  const menu = record(at(answer, 'actions', 0, 'openPopupAction', 'popup', 'multiPageMenuRenderer'));
  if (!menu) throw new ProviderError('YouTube Music sent an account menu without an account.');
  const header = record(at(menu, 'header', 'activeAccountHeaderRenderer'));
  let channelId: string | null = null;
  for (const section of records(menu['sections'])) {
    for (const item of records(at(section, 'multiPageMenuSectionRenderer', 'items'))) {
      const id = nonEmpty(at(item, 'compactLinkRenderer', 'navigationEndpoint', 'browseEndpoint', 'browseId'));
      if (id?.startsWith('UC')) channelId ??= id;
    }
  }
  return { channelId, name: joinedText(header?.['accountName']) };
}

export async function testConnection(_input: OperationInput<'testConnection'>, ctx: ProviderContext): Promise<OperationReturn<'testConnection'>> {
  const account = await currentAccount(ctx);
  return { ok: true, account_id: account.channelId, display_name: account.name };
}

async function libraryGridPage(ctx: ProviderContext, browseId: string, token: string | null, what: string): Promise<ProviderPage<JsonRecord>> {
  if (token === null) {
    const answer = await innertube(ctx, { endpoint: 'browse', body: { browseId }, what });
    return shelfPage(findShelf(answer, ['gridRenderer', 'musicShelfRenderer']));
  }
  const answer = await innertube(ctx, { endpoint: 'browse', query: { ctoken: token, continuation: token, type: 'next' }, what });
  return continuationPage(answer);
}

/** A page of a library grid or shelf, mapped and filtered before slicing so cursors stay stable. */
export async function readLibraryList<T>(ctx: ProviderContext, browseId: string, cursorValue: string | null, limit: number, what: string, map: (row: JsonRecord) => T | null): Promise<{ items: T[]; next_cursor: string | null }> {
  let cursor: PageCursor = decodeCursor(cursorValue);
  // Skip provider pages that hold nothing of this kind (a grid page of buttons only).
  for (let hop = 0; hop < 20; hop++) {
    const page = await libraryGridPage(ctx, browseId, cursor.token, what);
    const mapped = page.items.map(map).filter((item): item is T => item !== null);
    const sliced = slicePage({ items: mapped, next: page.next }, cursor, limit);
    if (sliced.items.length > 0 || page.next === null) return { items: sliced.items.map((entry) => entry.item), next_cursor: sliced.next_cursor };
    cursor = { token: page.next, skip: 0, base: cursor.base + mapped.length };
  }
  throw new ProviderError(`YouTube Music kept sending empty pages while ${what}.`);
}

export async function listPlaylists(input: OperationInput<'listPlaylists'>, ctx: ProviderContext): Promise<OperationReturn<'listPlaylists'>> {
  const account = await currentAccount(ctx);
  const page = await readLibraryList(ctx, 'FEmusic_liked_playlists', input.cursor, input.limit, 'listing the playlists of the library', (row) => {
    const tile = record(row['musicTwoRowItemRenderer']);
    return tile ? mapPlaylistTile(tile, account.channelId) : null;
  });
  return { items: page.items, next_cursor: page.next_cursor, total: null };
}

async function browsePlaylist(ctx: ProviderContext, id: string): Promise<JsonRecord> {
  return innertube(ctx, { endpoint: 'browse', body: { browseId: `VL${id}` }, what: 'reading the playlist', missing: 'playlist' });
}

/** A live read of the playlist's header: details and whether the account owns it. */
export async function readPlaylistHeader(ctx: ProviderContext, id: string): Promise<PlaylistHeader> {
  return mapPlaylistHeader(await browsePlaylist(ctx, id), id);
}

export async function readPlaylist(input: OperationInput<'readPlaylist'>, ctx: ProviderContext): Promise<OperationReturn<'readPlaylist'>> {
  const id = requirePlaylistId(input.playlist_id);
  return (await readPlaylistHeader(ctx, id)).playlist;
}

function playlistShelf(answer: JsonRecord): JsonRecord | null {
  return findShelf(answer, ['musicPlaylistShelfRenderer', 'musicShelfRenderer']);
}

/** One provider page of a playlist's rows: the first from `browse VL<id>`, then continuations. */
async function entriesPage(ctx: ProviderContext, id: string, token: string | null): Promise<ProviderPage<ParsedListItem>> {
  const page = token === null ? shelfPage(playlistShelf(await browsePlaylist(ctx, id))) : continuationPage(await innertube(ctx, { endpoint: 'browse', body: { continuation: token }, what: "reading the playlist's entries", missing: 'playlist' }));
  const items = page.items.flatMap((row) => {
    const renderer = record(row['musicResponsiveListItemRenderer']);
    return renderer ? [parseListItem(renderer)] : [];
  });
  return { items, next: page.next };
}

async function pageOfTracks(ctx: ProviderContext, id: string, cursorValue: string | null, limit: number): Promise<{ items: TrackInput[]; next_cursor: string | null }> {
  const cursor = decodeCursor(cursorValue);
  const page = await entriesPage(ctx, id, cursor.token);
  const sliced = slicePage(page, cursor, limit);
  return { items: sliced.items.map(({ item, position }) => mapListItem(item, position)), next_cursor: sliced.next_cursor };
}

export async function listPlaylistItems(input: OperationInput<'listPlaylistItems'>, ctx: ProviderContext): Promise<OperationReturn<'listPlaylistItems'>> {
  const id = requirePlaylistId(input.playlist_id);
  const page = await pageOfTracks(ctx, id, input.cursor, input.limit);
  return { items: page.items, next_cursor: page.next_cursor, total: null, snapshot_id: null };
}

export async function listLikedTracks(input: OperationInput<'listLikedTracks'>, ctx: ProviderContext): Promise<OperationReturn<'listLikedTracks'>> {
  const page = await pageOfTracks(ctx, LIKED_MUSIC, input.cursor, input.limit);
  // Liked Music's entry ids are not playlist entries the engine could act on.
  return { items: page.items.map((track) => ({ ...track, source_item_id: null })), next_cursor: page.next_cursor, total: null };
}

/** Every entry of a playlist in order (writes read the live state before acting). */
export async function readAllEntries(ctx: ProviderContext, id: string): Promise<ParsedListItem[]> {
  const entries: ParsedListItem[] = [];
  let token: string | null = null;
  for (let page = 0; page < 200; page++) {
    const read: ProviderPage<ParsedListItem> = await entriesPage(ctx, id, token);
    entries.push(...read.items);
    if (read.next === null) return entries;
    token = read.next;
  }
  throw new ProviderError('The playlist has more pages than this plugin reads at once (20,000 entries).');
}

/** The operations of this file, as the plugin definition takes them. */
export const playlistReads = { testConnection, listPlaylists, readPlaylist, listPlaylistItems, listLikedTracks } satisfies ProviderOperations;
