import { defineProviderPlugin } from '@opl/plugin-sdk';
import { libraryOperations } from './library-ops.ts';
import { playlistReads } from './playlist-reads.ts';
import { playlistWrites } from './playlist-writes.ts';
import { searchOperations } from './search-ops.ts';
import { lookupTracks } from './track-lookup.ts';

/**
 * YouTube Music (the unofficial video-music provider) through the InnerTube API the web app uses.
 * The engine connects the account (Google's device flow with the user's own TV client, or a pasted
 * browser cookie on self-hosted instances) and attaches the credential; this plugin reads,
 * searches and writes, keeps every entry's `setVideoId`, and maps answers to the universal model
 * or a typed error.
 */
export default defineProviderPlugin({ ...playlistReads, ...searchOperations, lookupTracks, ...playlistWrites, ...libraryOperations });
