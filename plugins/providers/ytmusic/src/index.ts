import { defineProviderPlugin } from '@opl/plugin-sdk';
import { listFollowedArtists, listSavedAlbums } from './library-ops.ts';
import { listLikedTracks, listPlaylistItems, listPlaylists, readPlaylist, testConnection } from './playlist-reads.ts';
import { addTracks, createPlaylist, deletePlaylist, removeTracks } from './playlist-writes.ts';
import { searchTracks, validateUri } from './search-ops.ts';
import { lookupTracks } from './track-lookup.ts';

/**
 * YouTube Music (the unofficial video-music provider) through the InnerTube API the web app uses.
 * The engine connects the account (Google's device flow with the user's own TV client, or a pasted
 * browser cookie on self-hosted instances) and attaches the credential; this plugin reads,
 * searches and writes, keeps every entry's `setVideoId`, and maps answers to the universal model
 * or a typed error.
 */
export default defineProviderPlugin({
  testConnection,
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
  listFollowedArtists,
});
