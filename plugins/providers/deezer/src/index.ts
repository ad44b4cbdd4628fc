import { defineProviderPlugin } from '@opl/plugin-sdk';
import { followArtists, listFollowedArtists, listLikedTracks, listSavedAlbums, removeSavedAlbums, saveAlbums, saveTracks, searchAlbums, searchArtists, unfollowArtists } from './library-ops.ts';
import { listPlaylistItems, listPlaylists, readPlaylist, testConnection } from './playlist-reads.ts';
import { addTracks, createPlaylist, deletePlaylist, removeTracks, replacePlaylistTracks, unfollowPlaylist } from './playlist-writes.ts';
import { searchTracks, validateUri } from './search-ops.ts';
import { lookupTracks } from './track-lookup.ts';

/**
 * Deezer on its public API. The engine does OAuth (Deezer Connect: `app_id`, `secret`, `perms`)
 * and the host adds the token to each request's URL; this plugin reads, searches and writes, maps
 * every answer to the universal model, and turns Deezer's 200-with-error answers into typed errors.
 */
export default defineProviderPlugin({
  testConnection,
  listPlaylists,
  readPlaylist,
  listPlaylistItems,
  listLikedTracks,
  saveTracks,
  searchTracks,
  lookupTracks,
  validateUri,
  createPlaylist,
  addTracks,
  removeTracks,
  replacePlaylistTracks,
  unfollowPlaylist,
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
