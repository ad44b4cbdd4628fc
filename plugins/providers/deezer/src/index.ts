import { defineProviderPlugin } from '@opl/plugin-sdk';
import { libraryOperations } from './library-ops.ts';
import { playlistReads } from './playlist-reads.ts';
import { playlistWrites } from './playlist-writes.ts';
import { searchOperations } from './search-ops.ts';
import { lookupTracks } from './track-lookup.ts';

/**
 * Deezer on its public API. The engine does OAuth (Deezer Connect: `app_id`, `secret`, `perms`)
 * and the host adds the token to each request's URL; this plugin reads, searches and writes, maps
 * every answer to the universal model, and turns Deezer's 200-with-error answers into typed errors.
 */
export default defineProviderPlugin({ ...playlistReads, ...libraryOperations, ...searchOperations, lookupTracks, ...playlistWrites });
