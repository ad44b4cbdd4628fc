import { defineFormatPlugin, formatKit } from '@opl/plugin-sdk';
import { parsePls } from './pls-parser.ts';

/** PLS imports: one playlist per file, entries ordered by number; paths are never opened. */
export default defineFormatPlugin({
  parse(input, ctx) {
    const { text, ...decoding } = formatKit.decodeFile(input.bytes, (bytes, encoding) => ctx.decodeText(bytes, encoding));
    return parsePls(text, input.filename, decoding);
  },
});
