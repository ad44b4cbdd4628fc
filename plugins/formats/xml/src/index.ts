import { decodeXmlDocument, defineFormatPlugin } from '@opl/plugin-sdk';
import { parseGenericXml } from './generic-xml-reader.ts';

/**
 * Generic XML playlists (the plain `<playlists><playlist><track/></playlist></playlists>` shape
 * other tools export): one or several playlists per file. XML goes through the SDK's safe parser:
 * a DOCTYPE, entity declarations and unknown entities are refused.
 */
export default defineFormatPlugin({
  parse(input, ctx) {
    return parseGenericXml(decodeXmlDocument(input.bytes, (bytes, encoding) => ctx.decodeText(bytes, encoding)), input.filename);
  },
});
