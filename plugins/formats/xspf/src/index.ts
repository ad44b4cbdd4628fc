import { decodeXmlPieces, defineFormatPlugin, formatKit } from '@opl/plugin-sdk';
import { parseXspfDocument } from './xspf-parser.ts';
import { onePlaylist, xspfPieces, xspfPlaylistWriter, type WriterOptions } from './xspf-writer.ts';

/**
 * XSPF v1 (SPEC "Export formats"): exports one playlist as XSPF with the Open Playlist v1
 * extension; imports XSPF 1 (and 0) and JSPF. XML goes through the SDK's safe parser: a DOCTYPE,
 * entity declarations and unknown entities are refused.
 */
function writerOptions(options: Readonly<Record<string, unknown>>): WriterOptions {
  const provider = options.source_provider;
  return { sourceProvider: typeof provider === 'string' && provider !== '' ? provider : null };
}

export default defineFormatPlugin({
  parse(input, ctx) {
    // Decoded a piece at a time as it is parsed: a large file's text never exists whole, on either
    // side of the sandbox. JSPF too: a JSON document has no XML declaration, so it is read as
    // strict UTF-8 (or by its BOM).
    return parseXspfDocument(decodeXmlPieces(input.bytes, (bytes, encoding) => ctx.decodeText(bytes, encoding)), input.filename);
  },
  serialize(input) {
    return formatKit.chunkUtf8(xspfPieces(onePlaylist(input.playlists), writerOptions(input.options)));
  },
  serializePlaylist(input) {
    return xspfPlaylistWriter(input.playlist, writerOptions(input.options));
  },
});
