import { defineProviderPlugin } from '@opl/plugin-sdk';
import { listLikedTracks, listPlaylistItems, listPlaylists, readPlaylist } from './playlist-read.operations.ts';
import { addTracks, createPlaylist, deletePlaylist, removeTracks } from './playlist-write.operations.ts';
import { searchTracks, validateUri } from './search.operations.ts';
import { lookupTracks } from './track-lookup.operations.ts';
import { myChannel } from './youtube-client.ts';

/**
 * YouTube (the official video provider) on the YouTube Data API v3: the account's own playlists,
 * entries with per-entry playlistItem ids, liked videos, text search in the Music category, videos
 * looked up by URI or link, and writes one video per request. The engine does OAuth, attaches the
 * token and prices every request against the declared quota; a quota stop reaches the engine
 * unchanged as RateLimited with `quota` set.
 */
export default defineProviderPlugin({
  async testConnection(_input, ctx) {
    const channel = await myChannel(ctx);
    return { ok: true, account_id: channel.id, display_name: channel.title, country: channel.country };
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
});
