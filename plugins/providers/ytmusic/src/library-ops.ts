import type { OperationInput, OperationReturn, ProviderContext, ProviderOperations } from '@opl/plugin-sdk';
import { record } from './json-read.ts';
import { mapAlbumTile, mapArtistRow } from './playlist-mapper.ts';
import { readLibraryList } from './playlist-reads.ts';

/** The library's saved albums (`FEmusic_liked_albums`) and subscribed artists (`FEmusic_library_corpus_artists`). */

export async function listSavedAlbums(input: OperationInput<'listSavedAlbums'>, ctx: ProviderContext): Promise<OperationReturn<'listSavedAlbums'>> {
  const page = await readLibraryList(ctx, 'FEmusic_liked_albums', input.cursor, input.limit, 'listing the saved albums', (row) => {
    const tile = record(row['musicTwoRowItemRenderer']);
    return tile ? mapAlbumTile(tile) : null;
  });
  return { items: page.items, next_cursor: page.next_cursor, total: null };
}

export async function listFollowedArtists(input: OperationInput<'listFollowedArtists'>, ctx: ProviderContext): Promise<OperationReturn<'listFollowedArtists'>> {
  const page = await readLibraryList(ctx, 'FEmusic_library_corpus_artists', input.cursor, input.limit, 'listing the subscribed artists', (row) => {
    const renderer = record(row['musicResponsiveListItemRenderer']);
    return renderer ? mapArtistRow(renderer) : null;
  });
  return { items: page.items, next_cursor: page.next_cursor, total: null };
}

/** The operations of this file, as the plugin definition takes them. */
export const libraryOperations = { listSavedAlbums, listFollowedArtists } satisfies ProviderOperations;
