import { defineFormatPlugin, formatKit } from '@opl/plugin-sdk';
import { parseM3u } from './m3u-parser.ts';
import { m3uPlaylistWriter, serializeM3u, serializeOptions } from './m3u-serializer.ts';

/**
 * M3U / M3U8 (SPEC "Export formats", M3U v1): one serializer for both extensions. Exports are
 * extended M3U in UTF-8 with `#OPL-*` metadata comments; imports read extended and plain M3U in
 * UTF-8, UTF-16 and Latin-1, never opening a path named in the file.
 */
export default defineFormatPlugin({
  parse(input, ctx) {
    const { text, ...decoding } = formatKit.decodeFile(input.bytes, (bytes, encoding) => ctx.decodeText(bytes, encoding));
    return parseM3u(text, input.filename, decoding);
  },
  serialize(input) {
    return serializeM3u(input.playlists, serializeOptions(input.options));
  },
  serializePlaylist(input) {
    return m3uPlaylistWriter(input.playlist, serializeOptions(input.options));
  },
});
