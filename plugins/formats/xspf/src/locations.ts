import { formatKit } from '@opl/plugin-sdk';

/**
 * Track locations and identifiers, read with the SDK's `formatKit.classifyLocation` (a location is
 * data: it is never opened, stat'ed or fetched). Writing uses `formatKit.webUrlOf`: a Spotify or
 * TIDAL track URI becomes its web URL (SPEC "Export formats", rule 1) and the URI itself an
 * `<identifier>`; an imported file path becomes a `file:` or relative URI (location-uri.ts).
 *
 * A Spotify local-file URI (`spotify:local:<artist>:<album>:<title>:<seconds>`) is `local_file`; a
 * provider URI says what it names (`item`), so that an album or playlist is not taken for a track.
 *
 * In XSPF a location is a URI: `scheme://` URLs that name no provider's track are `remote` (kept
 * as written), other URIs (`urn:…`, `tag:…`) `other`; `file:` URLs, drive-letter, UNC and
 * colon-free relative paths are local files. A local file's location
 * is read into the path the M3U, PLS and WPL readers keep for a local file — the form a playlist
 * line names it by, so that an M3U written from it has `/home/u/a b.mp3`, not `a%20b.mp3`:
 *
 * - `file:` URI ⇒ the SDK's `formatKit.fileUrlPath` (what those readers keep as `local_path` for
 *   the same URI): percent-decoded as UTF-8, the query and fragment dropped,
 *   `file:///home/u/a%20b.mp3` ⇒ `/home/u/a b.mp3`, `file://localhost/…` ⇒ `/…`,
 *   `file:///C:/a%20b.mp3` ⇒ `C:/a b.mp3`, `file://server/share/a.mp3` ⇒ `//server/share/a.mp3`.
 * - A relative reference (`Music/a%20b.mp3`, `../x/%C3%A9t%C3%A9.flac`, also `/home/u/a.mp3`
 *   and `//server/share/a.mp3`, which XSPF resolves against the playlist's own location) ⇒ the
 *   same decoding: `Music/a b.mp3`, `../x/été.flac` (`.` and `..` kept, never resolved). Text
 *   that no URI reference can hold (white space, `\`, `"`, `<`, `>`, `^`, `` ` ``, `{`, `|`,
 *   `}`) is a path some software wrote as it is (`My Music\a b.mp3`): kept as written, as are
 *   drive and UNC paths (`C:\Music\a.mp3`, `\\server\share\a.mp3`), which are no URIs at all.
 * - A `file:` URL that holds what no URI can (white space, `\`, …) was written unescaped, as a
 *   path: its `#` and `?` are part of the file name (`file:///home/u/Track #1.mp3` ⇒
 *   `/home/u/Track #1.mp3`), as the M3U, PLS and WPL readers read such a line.
 * - A malformed escape (`%zz`, a `%` at the end, `%E9` alone — not UTF-8) cannot be decoded: the
 *   location is kept as written and flagged `malformed` (the reader warns). A decoded path that
 *   would hold a control character or line break (`%0A`), or nothing at all, is kept as written
 *   too: no playlist line can carry it.
 */

export type Classified =
  /** A provider URI, with what it names (`item`: a track, an episode, or a collection such as an album). */
  | { readonly kind: 'provider'; readonly provider: string; readonly uri: string; readonly item: formatKit.ProviderItem }
  /** A Spotify local-file URI, with the names it carries (a file on another device; never opened). */
  | Extract<formatKit.LocationKind, { readonly kind: 'local_file' }>
  /** A `scheme://` URL that names no provider's track (a stream, a file on a server, a web page). */
  | { readonly kind: 'remote'; readonly url: string }
  /** `location`: what `metadata.location` keeps (the decoded path, or the text as written); `path`: `metadata.local_path`. */
  | { readonly kind: 'local'; readonly location: string; readonly path: string; readonly malformed: boolean }
  | { readonly kind: 'other' };

const FILE_URI = /^file:/i;
/** Characters outside RFC 3986 (and RFC 3987, which allows non-ASCII): a text holding one is no URI reference. */
// eslint-disable-next-line no-control-regex -- control characters are what is detected here
const NOT_IN_URI = /[\s"<>\\^`{|}\u0000-\u001f\u007f]/;
/** What a playlist line (or a file name) cannot carry: controls, NEL and the Unicode line separators. */
// eslint-disable-next-line no-control-regex -- control characters are what is detected here
const UNSAFE_IN_PATH = /[\u0000-\u001f\u007f\u0085\u2028\u2029]/;
/** RFC 3986: a query (`?`) or a fragment (`#`) ends the path. */
const QUERY_OR_FRAGMENT = /[?#].*$/s;

/** Percent-decoded as UTF-8 (RFC 3986), or null when an escape is malformed or the bytes are not UTF-8. */
function percentDecoded(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

function local(location: string, path: string, malformed = false): Classified {
  return { kind: 'local', location, path, malformed };
}

/** A path read from a URI: used when it decoded and a playlist line can carry it; else the location as written. */
function decodedLocal(location: string, decoded: string | null, fallbackPath: string): Classified {
  if (decoded === null) return local(location, fallbackPath, true);
  if (decoded === '' || UNSAFE_IN_PATH.test(decoded)) return local(location, fallbackPath);
  return local(decoded, decoded);
}

export function classifyLocation(location: string): Classified {
  // A `file:` URL holding what no URI can (a space, a backslash) was written as a path is, unescaped,
  // so its `#` and `?` are part of the file name (`Track #1.mp3`), as in an M3U line: not a fragment.
  const asWritten = FILE_URI.test(location) && NOT_IN_URI.test(location);
  const found = formatKit.classifyLocation(location, { fileUrls: asWritten ? 'as-written' : 'uri' });
  if (found.kind === 'provider' || found.kind === 'remote' || found.kind === 'local_file') return found;
  if (found.kind !== 'local') return { kind: 'other' };
  if (FILE_URI.test(location)) {
    // The SDK decodes as `decodeURIComponent` does, keeping the text undecoded when that fails: checked here the same way.
    const path = location.slice('file:'.length);
    const decodes = percentDecoded(asWritten ? path : path.replace(QUERY_OR_FRAGMENT, '')) !== null;
    return decodedLocal(location, decodes ? found.path : null, found.path);
  }
  // Drive and UNC paths (a colon or a backslash), and paths written with spaces: no URI reference.
  if (location.includes(':') || NOT_IN_URI.test(location)) return local(location, location);
  return decodedLocal(location, percentDecoded(location.replace(QUERY_OR_FRAGMENT, '')), location);
}
