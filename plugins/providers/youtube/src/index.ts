import { defineProviderPlugin } from '@opl/plugin-sdk';
import { playlistReads } from './playlist-read.operations.ts';
import { playlistWrites } from './playlist-write.operations.ts';
import { searchOperations } from './search.operations.ts';
import { lookupTracks } from './track-lookup.operations.ts';
import { testConnection } from './youtube-client.ts';

/**
 * YouTube (the official video provider) on the YouTube Data API v3: the account's own playlists,
 * entries with per-entry playlistItem ids, liked videos, text search in the Music category, videos
 * looked up by URI or link, and writes one video per request. The engine does OAuth, attaches the
 * token and prices every request against the declared quota; a quota stop reaches the engine
 * unchanged as RateLimited with `quota` set.
 */
export default defineProviderPlugin({ testConnection, ...playlistReads, ...searchOperations, lookupTracks, ...playlistWrites });
