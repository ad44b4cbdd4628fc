import { decodeXmlDocument, defineFormatPlugin } from '@opl/plugin-sdk';
import { parseLibraryText } from './library-reader.ts';

/**
 * iTunes / Apple Music `Library.xml` imports: every user playlist of the library. XML goes through
 * the SDK's safe parser with one opt-in: the standard Apple plist DOCTYPE (public and system id,
 * no internal subset, never fetched) that every exported library carries; any other DOCTYPE,
 * entity declarations and unknown entities are refused.
 */
export default defineFormatPlugin({
  parse(input, ctx) {
    return parseLibraryText(decodeXmlDocument(input.bytes, (bytes, encoding) => ctx.decodeText(bytes, encoding)));
  },
});
