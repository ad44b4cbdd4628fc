import { uriReferenceProblem } from './uri-reference.ts';

/**
 * An imported location as the URI an XSPF `<location>` must hold (XSPF 1, https://xspf.org/spec:
 * `<location>` is a URI). Tracks imported from M3U, PLS or WPL keep the line they were read from
 * in `metadata.location` — often a file path (`C:\Music\a.mp3`, `/home/me/a b.mp3`,
 * `..\a.mp3`), which written as it is would be no URI at all: players would misread the drive
 * letter as a scheme, the backslashes as characters of a name, and `#` or `%` in a file name
 * as a fragment or an escape.
 *
 * - Already a URI (a scheme of two or more characters and a colon: `file:`, `http:`,
 *   `spotify:`, `urn:` …): as it is. It was written by software that meant a URI; the XML writer
 *   escapes it as text. Unless it holds what a URI cannot (uri-reference.ts; our reader refuses
 *   nothing for a location, but other software may): `https://example.org/a b.mp3` ⇒
 *   `…/a%20b.mp3`, a stray `%` ⇒ `%25`, a second `#` ⇒ `%23`, as browsers escape a typed
 *   address. A `file:` URL written with a space is a path written as it is (so the reader reads
 *   it, see locations.ts): its `#`, `?` and `%` are characters of the file name, escaped too
 *   (`file:///C:/My Music/#1.mp3` ⇒ `file:///C:/My%20Music/%231.mp3`).
 * - Windows drive path `C:\Music\a.mp3` ⇒ `file:///C:/Music/a.mp3` (RFC 8089; the drive colon kept).
 * - UNC path `\\server\share\a.mp3` (or `//server/share/a.mp3`) ⇒ `file://server/share/a.mp3`.
 *   `\\?\C:\…` and `\\?\UNC\server\…` (Windows' long-path prefix) lose the prefix first.
 * - POSIX absolute path `/home/me/a b.mp3` ⇒ `file:///home/me/a%20b.mp3`. Only `/` separates
 *   there: a backslash is a character of a POSIX file name (`%5C`). A Windows path on the current
 *   drive (`\Music\a.mp3`) ⇒ `file:///Music/a.mp3`.
 * - Anything else is a relative path ⇒ a relative URI reference (`..\Music\a.mp3` ⇒
 *   `../Music/a.mp3`, `.` and `..` kept): XSPF resolves a relative URI against the playlist's
 *   own location (its base URI), just as a player resolves a relative M3U path against the
 *   playlist file's folder. A drive-relative `C:a.mp3` has no URI form; it becomes the relative
 *   `C%3Aa.mp3` (the colon escaped so that `C` is not read as a scheme).
 *
 * Every path segment (and a UNC host) is percent-encoded as RFC 3986 allows for any octet:
 * everything but the unreserved `A–Z a–z 0–9 - . _ ~` becomes the `%XX` escapes of its UTF-8
 * bytes (a space `%20`, `#` `%23`, `%` `%25`, `é` `%C3%A9`, a control character `%07`), so the
 * result holds only URI characters, nothing XML must escape, and nothing a URI parser reads
 * as a delimiter. Python's `pathlib` writes file URIs the same way. A lone surrogate (not
 * UTF-8-encodable) is written as U+FFFD's escapes. The path itself is never normalized, opened or checked.
 */

/** RFC 3986 scheme: a letter, then letters, digits, `+ - .`; one letter alone before a colon is a drive. */
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]+:/;
const DRIVE_PATH = /^[A-Za-z]:[\\/]/;
/** `\\?\C:\…`, `\\?\UNC\server\…` (and `\\.\…`): Windows' prefix for paths beyond MAX_PATH. */
const WIN32_PREFIX = /^[\\/]{2}[?.][\\/](?=[A-Za-z]:[\\/]|UNC[\\/])/i;
const UNC_PATH = /^[\\/]{2}/;
/** Anything outside RFC 3986 `unreserved`; `u`: a character outside the BMP is one match, a lone surrogate another. */
const NOT_UNRESERVED = /[^A-Za-z0-9\-._~]/gu;
const LONE_SURROGATE = /^[\uD800-\uDFFF]$/;
/** Both separators of a Windows path. */
const ANY_SEPARATOR = /[\\/]/;

function percentEncoded(char: string): string {
  const encodable = LONE_SURROGATE.test(char) ? '\uFFFD' : char;
  const encoded = encodeURIComponent(encodable);
  // encodeURIComponent leaves the sub-delimiters `! ' ( ) *` as they are; escaped too, the rule stays "unreserved or escaped".
  return encoded !== encodable ? encoded : `%${encodable.charCodeAt(0).toString(16).toUpperCase()}`;
}

/** `path` split at `separator`, each segment percent-encoded, joined with `/`. */
function encodedPath(path: string, separator: RegExp): string {
  return path
    .split(separator)
    .map((segment) => segment.replace(NOT_UNRESERVED, percentEncoded))
    .join('/');
}

/** `\\?\C:\a` ⇒ `C:\a`, `\\?\UNC\server\a` ⇒ `\\server\a`; any other path as it is. */
function withoutLongPathPrefix(location: string): string {
  const prefix = WIN32_PREFIX.exec(location);
  if (prefix === null) return location;
  const rest = location.slice(prefix[0].length);
  return /^UNC[\\/]/i.test(rest) ? `\\${rest.slice(3)}` : rest;
}

/** A file URL's path characters that need no escape (RFC 3986 `pchar` and `/`, without `%`). */
const FILE_PATH_CHARACTER = /[A-Za-z0-9\-._~/:@!$&'()*+,;=]/;
/** Any URI character but `%` and `#`, whose use is checked below; `[ ]` are escaped (they belong only around an IPv6 host). */
const URI_CHARACTER = /[A-Za-z0-9\-._~:/?@!$&'()*+,;=]/;
const HEX_PAIR = /^[0-9A-Fa-f]{2}$/;

/** A text with a scheme that is no URI reference, escaped into one (see above). */
function escapedUri(uri: string): string {
  if (/^file:/i.test(uri)) return `file:${[...uri.slice('file:'.length)].map((char) => (FILE_PATH_CHARACTER.test(char) ? char : percentEncoded(char))).join('')}`;
  const chars = [...uri];
  let fragment = false;
  return chars
    .map((char, index) => {
      if (URI_CHARACTER.test(char)) return char;
      if (char === '%') return HEX_PAIR.test(`${chars[index + 1] ?? ''}${chars[index + 2] ?? ''}`) ? char : '%25';
      if (char === '#' && !fragment) {
        fragment = true;
        return char;
      }
      return percentEncoded(char);
    })
    .join('');
}

/** The URI written as `<location>` for a location a track was imported with. */
export function locationUri(location: string): string {
  if (SCHEME.test(location)) return uriReferenceProblem(location) === null ? location : escapedUri(location);
  const path = withoutLongPathPrefix(location);
  if (DRIVE_PATH.test(path)) return `file:///${path.slice(0, 2)}${encodedPath(path.slice(2), ANY_SEPARATOR)}`;
  if (UNC_PATH.test(path)) return `file://${encodedPath(path.slice(2), ANY_SEPARATOR)}`;
  if (path.startsWith('/')) return `file://${encodedPath(path, /\//)}`;
  if (path.startsWith('\\')) return `file://${encodedPath(path, ANY_SEPARATOR)}`;
  return encodedPath(path, ANY_SEPARATOR);
}
