/**
 * Whether decoded text is really a binary file (an image, an archive, a UTF-16 file without its
 * byte order mark) rather than a playlist: read as windows-1252, such a file would otherwise
 * become thousands of entries named by noise. Text has few C0 control characters besides tab,
 * line ends, vertical tab and form feed; a binary file has about one in eight. `nulIsBinary`:
 * one NUL decides alone, for formats whose writers never put one in a file (a TXT export keeps a
 * NUL that is inside a title, so there it counts like the others).
 */

/** The C0 controls text does not use: all but tab, line feed, vertical tab, form feed and carriage return (0x09–0x0D). */
// eslint-disable-next-line no-control-regex -- control characters are what is counted here
const UNUSUAL_CONTROL = /[\x00-\x08\x0e-\x1f]/g;

export function looksBinary(text: string, options: { readonly nulIsBinary: boolean }): boolean {
  if (options.nulIsBinary && text.includes('\0')) return true;
  const allowed = Math.max(8, text.length / 100);
  let controls = 0;
  // A global regular expression jumps from one control to the next: a playlist of tens of
  // megabytes has almost none, and this scan takes a fraction of a code-unit loop's time.
  UNUSUAL_CONTROL.lastIndex = 0;
  while (UNUSUAL_CONTROL.exec(text) !== null) {
    if (++controls > allowed) {
      UNUSUAL_CONTROL.lastIndex = 0;
      return true;
    }
  }
  return false;
}
