import { defineFormatPlugin, formatKit } from '@opl/plugin-sdk';
import { parseTxt } from './txt-parser.ts';
import { serializeOptions, serializeTxt, txtPlaylistWriter } from './txt-serializer.ts';

/**
 * The TXT v1 format (SPEC "Export formats"): tab-separated export columns after two comment lines.
 * Imports read those files back, tab-separated track tables (a header row naming columns) and
 * plain `Artist - Title` lists.
 */
export default defineFormatPlugin({
  parse(input, ctx) {
    const { text, ...decoding } = formatKit.decodeFile(input.bytes, (bytes, encoding) => ctx.decodeText(bytes, encoding));
    return parseTxt(text, input.filename, decoding);
  },
  serialize(input) {
    return serializeTxt(input.playlists, serializeOptions(input.options));
  },
  serializePlaylist(input) {
    return txtPlaylistWriter(input.playlist, serializeOptions(input.options));
  },
});
