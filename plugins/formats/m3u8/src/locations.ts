/**
 * Entry locations, both ways.
 *
 * Reading (`classifyLocation`) — a location is data, never opened or fetched:
 * - `https://open.spotify.com/[intl-xx/]track/<id>` ⇒ `spotify:track:<id>`;
 *   `https://[listen.]tidal.com/[browse/]track/<id>` ⇒ `tidal:track:<id>` (query strings ignored).
 * - A provider-style URI written as the location (`spotify:track:…`) is kept as that URI.
 * - Any other `scheme://` URL except `file:` is a remote location (a stream or a web page).
 * - `file://` URLs (percent-decoded), Windows paths (`C:\…`, `C:/…`), UNC paths (`\\server\share\…`),
 *   absolute and relative paths are local files.
 *
 * Writing (`locationOf`): see `playableLocation`.
 */

export type LocationKind =
  | { readonly kind: 'provider'; readonly provider: string; readonly uri: string }
  | { readonly kind: 'remote'; readonly url: string }
  | { readonly kind: 'local'; readonly path: string };

const SPOTIFY_WEB = /^https?:\/\/open\.spotify\.com\/(?:intl-[a-z]{2}(?:-[a-z]{2})?\/)?track\/([A-Za-z0-9]{1,64})\/?(?:[?#].*)?$/i;
const TIDAL_WEB = /^https?:\/\/(?:www\.|listen\.)?tidal\.com\/(?:browse\/)?track\/(\d{1,20})\/?(?:[?#].*)?$/i;
/** `spotify:track:…`: a lowercase scheme not followed by `//` and not a standard one. */
const PROVIDER_URI = /^([a-z][a-z0-9_]{1,39}):(?!\/\/)\S+$/;
const STANDARD_SCHEMES = new Set(['http', 'https', 'file', 'data', 'urn', 'mailto', 'about', 'blob', 'javascript', 'ftp']);
const URL_SCHEME = /^([A-Za-z][A-Za-z0-9+.-]+):\/\//;

/** The provider key of a provider-style URI, or null. */
export function providerOfUri(uri: string): string | null {
  const scheme = PROVIDER_URI.exec(uri)?.[1];
  return scheme === undefined || STANDARD_SCHEMES.has(scheme) ? null : scheme;
}

/** Percent-decoding that never throws: a malformed escape keeps the text as written. */
function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** `file:///C:/a%20b.mp3` ⇒ `C:/a b.mp3`; `file://server/share/x` ⇒ `//server/share/x`; `file:///home/x` ⇒ `/home/x`. */
function fileUrlPath(url: string): string {
  const rest = url.slice(url.indexOf(':') + 1).replace(/^\/\/(?:localhost)?(?=\/)/i, '');
  const path = percentDecoded(rest.replace(/[?#].*$/, ''));
  return /^\/[A-Za-z]:[\\/]/.test(path) ? path.slice(1) : path;
}

export function classifyLocation(location: string): LocationKind {
  const spotify = SPOTIFY_WEB.exec(location)?.[1];
  if (spotify !== undefined) return { kind: 'provider', provider: 'spotify', uri: `spotify:track:${spotify}` };
  const tidal = TIDAL_WEB.exec(location)?.[1];
  if (tidal !== undefined) return { kind: 'provider', provider: 'tidal', uri: `tidal:track:${tidal}` };
  if (/^file:/i.test(location)) return { kind: 'local', path: fileUrlPath(location) };
  if (URL_SCHEME.test(location)) return { kind: 'remote', url: location };
  const provider = /^[A-Za-z]:/.test(location) ? null : providerOfUri(location);
  if (provider !== null) return { kind: 'provider', provider, uri: location };
  return { kind: 'local', path: location };
}

/** The last path segment without its extension (`C:\Music\Artist - Title.mp3` ⇒ `Artist - Title`). */
export function fileStem(pathOrUrl: string): string {
  const path = pathOrUrl.replace(/[?#].*$/, '').replace(/[\\/]+$/, '');
  const base = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  return (dot > 0 ? base.slice(0, dot) : base).trim();
}

/** Web URL of a Spotify or TIDAL track URI, or null for any other URI. */
export function webUrlOf(uri: string): string | null {
  const spotify = /^spotify:track:([A-Za-z0-9]{1,64})$/.exec(uri)?.[1];
  if (spotify !== undefined) return `https://open.spotify.com/track/${spotify}`;
  const tidal = /^tidal:track:(\d{1,20})$/.exec(uri)?.[1];
  if (tidal !== undefined) return `https://tidal.com/browse/track/${tidal}`;
  return null;
}

/** Provider keys with the preferred one first, then the rest in plain code-unit order. */
export function orderedProviders(providerUris: Readonly<Record<string, string>>, preferred: string | null): string[] {
  const keys = Object.keys(providerUris).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (preferred === null || !keys.includes(preferred)) return keys;
  return [preferred, ...keys.filter((key) => key !== preferred)];
}

// eslint-disable-next-line no-control-regex -- control characters are what is refused here
const UNSAFE_LOCATION = /[\u0000-\u001f\u007f\u0085\u2028\u2029]/;

/**
 * The location line written for a track, or null when it has nothing playable (the entry is then
 * written without a location line). In order: the first provider URI (preferred provider first,
 * then by key) that is a Spotify/TIDAL track URI (as its web URL) or an http(s) URL (as is); else
 * the location the track was imported with (`metadata.location`, from an M3U/PLS import). A
 * location containing control characters or line breaks is never written.
 */
export function playableLocation(providerUris: Readonly<Record<string, string>>, metadata: Readonly<Record<string, unknown>>, preferred: string | null): string | null {
  for (const key of orderedProviders(providerUris, preferred)) {
    const uri = providerUris[key] ?? '';
    const location = webUrlOf(uri) ?? (/^https?:\/\/\S+$/i.test(uri) ? uri : null);
    if (location !== null && !UNSAFE_LOCATION.test(location)) return location;
    // (web URLs built by webUrlOf never contain unsafe characters; an http(s) URI is checked here)
  }
  const imported = metadata.location;
  // Written as is, so it must read back as a location line: trimmed, not a comment.
  if (typeof imported === 'string' && imported !== '' && imported === imported.trim() && !imported.startsWith('#') && !UNSAFE_LOCATION.test(imported)) return imported;
  return null;
}
