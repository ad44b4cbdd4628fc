import { defineFormatPlugin } from '@opl/plugin-sdk';
import { parseBundle } from './bundle-reader.ts';
import { bundleOptions, bundlePlaylistWriter, serializeBundle } from './bundle-writer.ts';
import { decodeJson } from './text-input.ts';

/**
 * The Open Playlist JSON bundle v1 (SPEC "Open Playlist JSON bundle v1"): a lossless export of
 * universal Playlists with their ordered Tracks, and an import that reads those bundles back
 * (plus bare playlist arrays and single playlist objects).
 */
export default defineFormatPlugin({
  parse(input, ctx) {
    const decoded = decodeJson(input.bytes, ctx);
    if ('problem' in decoded) {
      const { line, column, message } = decoded.problem;
      return { playlists: [], issues: [{ line, column, code: 'invalid_utf8', message, severity: 'error' }] };
    }
    return parseBundle(decoded.text);
  },
  serialize(input) {
    return serializeBundle(input.playlists, bundleOptions(input.options));
  },
  serializePlaylist(input) {
    return bundlePlaylistWriter(input.playlist, input.options);
  },
});

