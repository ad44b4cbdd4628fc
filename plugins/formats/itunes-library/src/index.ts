import { defineFormatPlugin, formatKit } from '@opl/plugin-sdk';
import { parseLibraryText } from './library-reader.ts';
import { decodeLibrary } from './library-text.ts';

/**
 * iTunes / Apple Music `Library.xml` imports: every user playlist of the library. XML goes through
 * the SDK's safe parser with one opt-in: the standard Apple plist DOCTYPE (public and system id,
 * no internal subset, never fetched) that every exported library carries; any other DOCTYPE,
 * entity declarations and unknown entities are refused. Bytes that are not UTF-8 and control
 * characters in text are read as U+FFFD with a warning per line (library-text.ts), not refused.
 */
export default defineFormatPlugin({
  parse(input, ctx) {
    const issues = new formatKit.IssueCollector();
    return parseLibraryText(decodeLibrary(input.bytes, (bytes, encoding) => ctx.decodeText(bytes, encoding), issues), issues);
  },
});
