import { defineFormatPlugin, formatKit } from '@opl/plugin-sdk';
import { decodeDocument } from './document-text.ts';
import { parseXspfText } from './xspf-parser.ts';
import { onePlaylist, xspfPieces } from './xspf-writer.ts';

/**
 * XSPF v1 (SPEC "Export formats"): exports one playlist as XSPF with the Open Playlist v1
 * extension; imports XSPF 1 (and 0) and JSPF. XML goes through the SDK's safe parser: a DOCTYPE,
 * entity declarations and unknown entities are refused.
 */
export default defineFormatPlugin({
  parse(input, ctx) {
    return parseXspfText(decodeDocument(input.bytes, (bytes, encoding) => ctx.decodeText(bytes, encoding)), input.filename);
  },
  serialize(input) {
    const provider = input.options.source_provider;
    const playlist = onePlaylist(input.playlists);
    return formatKit.chunkUtf8(xspfPieces(playlist, { sourceProvider: typeof provider === 'string' && provider !== '' ? provider : null }));
  },
});
