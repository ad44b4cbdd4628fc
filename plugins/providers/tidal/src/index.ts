import { defineProviderPlugin } from '@opl/plugin-sdk';
import { libraryOperations } from './library.operations.ts';
import { moveTracks } from './playlist-move.operations.ts';
import { playlistReads } from './playlist-read.operations.ts';
import { playlistWrites } from './playlist-write.operations.ts';
import { searchOperations } from './search.operations.ts';
import { testConnection } from './tidal-client.ts';
import { lookupTracks } from './track-lookup.operations.ts';

/**
 * TIDAL (official provider B) on its JSON:API: the account's own playlists (owner-filtered),
 * entries with per-entry item ids, favourites, ISRC and text search, tracks looked up by link, and
 * writes in batches of 50 (moves: 20) with idempotency keys. The engine does OAuth; the host attaches the token
 * to API requests.
 */
export default defineProviderPlugin({ testConnection, ...playlistReads, ...searchOperations, lookupTracks, ...playlistWrites, moveTracks, ...libraryOperations });
