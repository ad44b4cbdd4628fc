import { defineFormatPlugin, formatKit } from '@opl/plugin-sdk';
import { parseCsv } from './csv-parser.ts';
import { csvPlaylistWriter, serializeCsv, serializeOptions } from './csv-writer.ts';

/**
 * The CSV v1 format (SPEC "Export formats"): UTF-8 with BOM, every field quoted, the v1 export
 * columns. Imports read those files back, Exportify exports, and generic CSV track lists.
 */
export default defineFormatPlugin({
  parse(input, ctx) {
    const { text, ...decoding } = formatKit.decodeFile(input.bytes, (bytes, encoding) => ctx.decodeText(bytes, encoding));
    return parseCsv(text, input.filename, decoding);
  },
  serialize(input) {
    return serializeCsv(input.playlists, serializeOptions(input.options));
  },
  serializePlaylist(input) {
    return csvPlaylistWriter(input.playlist, serializeOptions(input.options));
  },
});
