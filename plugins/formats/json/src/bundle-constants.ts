/**
 * Facts of the Open Playlist JSON bundle v1 (SPEC "Open Playlist JSON bundle v1"). The zod schema
 * in the SDK's schemas entry is the reference; plugins cannot import zod, so the values a plugin
 * needs are repeated here and a test holds them equal to the SDK's.
 */

export const BUNDLE_SCHEMA_VERSION = 1;
export const DEFAULT_SCHEMA_BASE = 'https://open-playlist.org/schemas';
export const BUNDLE_SCHEMA_PATH = '/export/open-playlist-bundle-v1.json';

/** Deepest nesting of arrays and objects a file may have; real bundles need about 8. */
export const MAX_NESTING_DEPTH = 64;
