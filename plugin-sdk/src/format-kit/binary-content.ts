/**
 * Whether decoded text is really a binary file (an image, an archive, a UTF-16 file without its
 * byte order mark) rather than a playlist: read as windows-1252, such a file would otherwise
 * become thousands of entries named by noise. Text has few C0 control characters besides tab,
 * line ends, vertical tab and form feed; a binary file has about one in eight. `nulIsBinary`:
 * one NUL decides alone, for formats whose writers never put one in a file (a TXT export keeps a
 * NUL that is inside a title, so there it counts like the others).
 *
 * `legacyDecoded`: the text was decoded as windows-1252 (the bytes were not UTF-8). Then the C1
 * controls U+0080–U+009F count too: that decoding gives them only for the five bytes windows-1252
 * leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D), which no text in that encoding (nor in
 * ISO-8859-1, where 0x80–0x9F are controls) uses, while random high bytes hit them one time in
 * 26. Garbage made only of bytes 0x80–0xFF has no C0 controls, so this is what tells it from a
 * Latin-1 list. Not for UTF-8 text, where C1 characters are what a file decoded as ISO-8859-1 and
 * saved again as UTF-8 holds for every curly quote: mojibake, but the user's text.
 */

/** The C0 controls text does not use: all but tab, line feed, vertical tab, form feed and carriage return (0x09–0x0D). */
// eslint-disable-next-line no-control-regex -- control characters are what is counted here
const UNUSUAL_CONTROL = /[\x00-\x08\x0e-\x1f]/g;
/** The same, and the C1 controls (for text decoded as windows-1252, see above). */
// eslint-disable-next-line no-control-regex -- control characters are what is counted here
const UNUSUAL_CONTROL_OR_C1 = /[\x00-\x08\x0e-\x1f\x80-\x9f]/g;

export function looksBinary(text: string, options: { readonly nulIsBinary: boolean; readonly legacyDecoded?: boolean }): boolean {
  if (options.nulIsBinary && text.includes('\0')) return true;
  const allowed = Math.max(8, text.length / 100);
  const pattern = options.legacyDecoded === true ? UNUSUAL_CONTROL_OR_C1 : UNUSUAL_CONTROL;
  let controls = 0;
  // A global regular expression jumps from one control to the next: a playlist of tens of
  // megabytes has almost none, and this scan takes a fraction of a code-unit loop's time.
  pattern.lastIndex = 0;
  while (pattern.exec(text) !== null) {
    if (++controls > allowed) {
      pattern.lastIndex = 0;
      return true;
    }
  }
  return false;
}
