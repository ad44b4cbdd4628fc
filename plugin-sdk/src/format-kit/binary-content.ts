/**
 * Whether decoded text is really a binary file (an image, an archive, a UTF-16 file without its
 * byte order mark) rather than a playlist: read as windows-1252, such a file would otherwise
 * become thousands of entries named by noise. Text has few C0 control characters besides tab,
 * line ends, vertical tab and form feed; a binary file has about one in eight. `nulIsBinary`:
 * one NUL decides alone, for formats whose writers never put one in a file (a TXT export keeps a
 * NUL that is inside a title, so there it counts like the others).
 */
export function looksBinary(text: string, options: { readonly nulIsBinary: boolean }): boolean {
  const allowed = Math.max(8, text.length / 100);
  let controls = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0x20) continue;
    if (code === 0 && options.nulIsBinary) return true;
    if (code !== 0x09 && code !== 0x0a && code !== 0x0d && code !== 0x0b && code !== 0x0c && ++controls > allowed) return true;
  }
  return false;
}
