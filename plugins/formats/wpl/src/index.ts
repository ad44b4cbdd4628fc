import { decodeXmlDocument, defineFormatPlugin } from '@opl/plugin-sdk';
import { parseWplText } from './wpl-reader.ts';

/**
 * WPL imports (Windows Media Player playlists): one playlist per file; the paths it names are
 * data, never opened. XML goes through the SDK's safe parser: a DOCTYPE, entity declarations and
 * unknown entities are refused.
 */
export default defineFormatPlugin({
  parse(input, ctx) {
    return parseWplText(decodeXmlDocument(input.bytes, (bytes, encoding) => ctx.decodeText(bytes, encoding)), input.filename);
  },
});
