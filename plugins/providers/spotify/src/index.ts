import { defineProviderPlugin } from '@opl/plugin-sdk';
import { libraryOperations } from './library-ops.ts';
import { playlistReads } from './playlist-reads.ts';
import { playlistWrites } from './playlist-writes.ts';
import { searchOperations } from './search-ops.ts';
import { lookupTracks } from './track-lookup.ts';

/**
 * Spotify (official provider A) on the current Web API: playlist contents under
 * `/playlists/{id}/items`, library changes through `/me/library`. The engine does OAuth (PKCE) and
 * attaches the token; this plugin reads, searches and writes, and maps every answer to the
 * universal model or a typed error.
 */
export default defineProviderPlugin({ ...playlistReads, ...libraryOperations, ...searchOperations, lookupTracks, ...playlistWrites });
