import { defineProviderPlugin } from '@opl/plugin-sdk';
import { listFollowedArtists, listLikedTracks, listSavedAlbums, removeSavedAlbums, saveAlbums, saveTracks, searchAlbums } from './library-ops.ts';
import { listPlaylistItems, listPlaylists, readPlaylist, testConnection } from './playlist-reads.ts';
import { addTracks, createPlaylist, removeTracks, replacePlaylistTracks, unfollowPlaylist } from './playlist-writes.ts';
import { searchTracks, validateUri } from './search-ops.ts';
import { lookupTracks } from './track-lookup.ts';

/**
 * Spotify (official provider A) on the current Web API: playlist contents under
 * `/playlists/{id}/items`, library changes through `/me/library`. The engine does OAuth (PKCE) and
 * attaches the token; this plugin reads, searches and writes, and maps every answer to the
 * universal model or a typed error.
 */
export default defineProviderPlugin({
  testConnection,
  listPlaylists,
  readPlaylist,
  listPlaylistItems,
  listLikedTracks,
  saveTracks,
  searchTracks,
  validateUri,
  lookupTracks,
  createPlaylist,
  addTracks,
  removeTracks,
  replacePlaylistTracks,
  unfollowPlaylist,
  listSavedAlbums,
  searchAlbums,
  saveAlbums,
  removeSavedAlbums,
  listFollowedArtists,
});
