import { defineFormatPlugin } from '@opl/plugin-sdk';
import { decodePls, parsePls } from './pls-parser.ts';

/** PLS imports: one playlist per file, entries ordered by number; paths are never opened. */
export default defineFormatPlugin({
  parse(input, ctx) {
    return parsePls(decodePls(input.bytes, (bytes, encoding) => ctx.decodeText(bytes, encoding)), input.filename);
  },
});
