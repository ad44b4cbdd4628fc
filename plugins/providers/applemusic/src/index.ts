import { defineProviderPlugin } from '@opl/plugin-sdk';
import { currentStorefront } from './apple-client.ts';
import { listLikedTracks, listPlaylistItems, listPlaylists, readPlaylist } from './playlist-read.operations.ts';
import { addTracks, createPlaylist } from './playlist-write.operations.ts';
import { searchTracks, validateUri } from './search.operations.ts';
import { lookupTracks } from './track-lookup.operations.ts';

/**
 * Apple Music (the catalog provider with a user-token flow) on the Apple Music API: library
 * playlists and their tracks (with catalog ISRCs), library songs, ISRC and text search in the
 * account's storefront, catalog songs looked up by link, playlist creation and appends confirmed
 * by reading back. The engine signs the developer token and the host attaches it with the music
 * user token; the plugin sees neither. Apple offers no removal, reordering or deletion, so none is
 * declared.
 */

/**
 * Apple exposes no account identifier to apps: every connection of one owner is "the" Apple Music
 * library. A token fingerprint would change with every reconnection, which is the only way to
 * renew an expired music user token.
 */
export const ACCOUNT_ID = 'me';

export default defineProviderPlugin({
  async testConnection(_input, ctx) {
    const storefront = await currentStorefront(ctx);
    return { ok: true, account_id: ACCOUNT_ID, display_name: storefront.name ? `Apple Music (${storefront.name})` : 'Apple Music', country: storefront.id.toUpperCase() };
  },
  listPlaylists,
  readPlaylist,
  listPlaylistItems,
  listLikedTracks,
  searchTracks,
  validateUri,
  lookupTracks,
  createPlaylist,
  addTracks,
});
