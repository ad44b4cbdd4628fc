import { defineProviderPlugin } from '@opl/plugin-sdk';
import { followArtists, listFollowedArtists, listSavedAlbums, removeSavedAlbums, saveAlbums, unfollowArtists } from './library.operations.ts';
import { listLikedTracks, listPlaylistItems, listPlaylists, readPlaylist } from './playlist-read.operations.ts';
import { addTracks, createPlaylist, deletePlaylist, removeTracks } from './playlist-write.operations.ts';
import { searchAlbums, searchArtists, searchTracks, validateUri } from './search.operations.ts';
import { currentUser } from './tidal-client.ts';
import { lookupTracks } from './track-lookup.operations.ts';

/**
 * TIDAL (official provider B) on its JSON:API: the account's own playlists (owner-filtered),
 * entries with per-entry item ids, favourites, ISRC and text search, tracks looked up by link, and
 * writes in batches of 50 with idempotency keys. The engine does OAuth; the host attaches the token
 * to API requests.
 */
export default defineProviderPlugin({
  async testConnection(_input, ctx) {
    const user = await currentUser(ctx);
    return { ok: true, account_id: user.id, display_name: user.username, country: user.country };
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
  removeTracks,
  deletePlaylist,
  listSavedAlbums,
  searchAlbums,
  saveAlbums,
  removeSavedAlbums,
  listFollowedArtists,
  searchArtists,
  followArtists,
  unfollowArtists,
});
