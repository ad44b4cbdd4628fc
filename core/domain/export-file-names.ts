/**
 * File names of playlists inside a multi-playlist archive or output directory (SPEC "Multi-playlist
 * archive and manifest v1", rule 4): ASCII-safe base names derived from playlist names; path
 * separators and traversal segments removed; Windows reserved device names prefixed; trailing
 * characters Windows cannot keep stripped; an empty name falls back to the playlist id; names that
 * collide case-insensitively get deterministic `-2`, `-3`, … suffixes in playlist order.
 */

const MAX_BASE_LENGTH = 100;
/**
 * Windows opens a device for these names (COM0 and LPT0 included, as Microsoft's naming rules list
 * them), also with an extension or a stream after them and with spaces before that: Windows cuts
 * the name at its first `.` or `:` and drops the spaces before the cut, so `CON .txt` is CON.
 */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])\s*([.:].*)?$/i;

/** True for a name Windows reserves for a device (`CON`, `aux.txt`, `LPT1 .m3u`, `CONIN$`…), which no file may have. */
export function isWindowsReservedName(name: string): boolean {
  return WINDOWS_RESERVED.test(name);
}

/**
 * True when a device name is written in `name` itself, before any cleaning: the ASCII `filename`
 * and the Unicode `filename*` made from it then both take the `_` prefix, even where cleaning left
 * one of them harmless (`CONIN$` has no `$` in ASCII, `ＣＯＮ` is `CON` only there).
 */
export function namesWindowsDevice(name: string): boolean {
  return isWindowsReservedName(
    name
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .replace(/^[.\s]+|[.\s]+$/g, ''),
  );
}

/** One base name (without extension) from a playlist name; empty when nothing usable is left. */
export function safeBaseName(name: string): string {
  let base = name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '') // diacritics: "Café" → "Cafe"
    .replace(/[/\\]+/g, ' ') // path separators never survive
    .replace(/[^A-Za-z0-9 ._()-]+/g, '_') // anything else outside a portable ASCII set
    .replace(/_+/g, '_')
    .replace(/\s+/g, ' ');
  // Traversal segments: no "..", and no leading dots (hidden files, "." itself).
  base = base.replace(/\.{2,}/g, '.').replace(/^[.\s_]+/, '');
  base = base.slice(0, MAX_BASE_LENGTH);
  // Windows drops trailing dots and spaces, which would make two names the same file.
  base = base.replace(/[.\s]+$/, '');
  if (base !== '' && (isWindowsReservedName(base) || namesWindowsDevice(name))) base = `_${base}`;
  return base;
}

/**
 * Unique file names for `playlists` in order, each `<base><extension>` (extension with its dot,
 * e.g. `.csv`). Deterministic: the same input always gives the same names.
 */
export function exportFileNames(playlists: readonly { id: string | null; name: string }[], extension: string): string[] {
  const taken = new Set<string>();
  return playlists.map((playlist, index) => {
    const base = safeBaseName(playlist.name) || safeBaseName(playlist.id ?? '') || `playlist-${index + 1}`;
    let candidate = base;
    for (let suffix = 2; taken.has(`${candidate}${extension}`.toLowerCase()); suffix += 1) candidate = `${base}-${suffix}`;
    const file = `${candidate}${extension}`;
    taken.add(file.toLowerCase());
    return file;
  });
}
