import { defineProviderPlugin } from '@opl/plugin-sdk';
import { testConnection } from './apple-client.ts';
import { playlistReads } from './playlist-read.operations.ts';
import { playlistWrites } from './playlist-write.operations.ts';
import { searchOperations } from './search.operations.ts';
import { lookupTracks } from './track-lookup.operations.ts';

/**
 * Apple Music (the catalog provider with a user-token flow) on the Apple Music API: library
 * playlists and their tracks (with catalog ISRCs), library songs, ISRC and text search in the
 * account's storefront, catalog songs looked up by link, playlist creation and appends confirmed
 * by reading back. The engine signs the developer token and the host attaches it with the music
 * user token; the plugin sees neither. Apple offers no removal, reordering or deletion, so none is
 * declared.
 */
export default defineProviderPlugin({ testConnection, ...playlistReads, ...searchOperations, lookupTracks, ...playlistWrites });
