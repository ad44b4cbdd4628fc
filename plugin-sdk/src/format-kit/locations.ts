import { providerOfUri } from './source-uri.ts';

/**
 * Playlist entry locations (M3U, PLS, XSPF), both ways. A location is data: it is never opened or
 * fetched, whatever it names.
 *
 * Reading (`classifyLocation`):
 * - `https://open.spotify.com/[intl-xx/]track/<id>` ⇒ `spotify:track:<id>`;
 *   `https://[www.|listen.]tidal.com/[browse/]track/<id>` ⇒ `tidal:track:<id>` (query strings ignored);
 * - `file:` URLs (percent-decoded), Windows drive paths (`C:\…`, `C:/…`) and UNC paths (`\\server\…`)
 *   are local files, as is any text without a colon (an absolute or relative path);
 * - any other `scheme://` URL is a remote location (a stream or a web page);
 * - a provider-style URI written as the location (`spotify:track:…`, see `providerOfUri`) names its provider;
 * - anything else (`urn:…`, `tag:…`, `C:file.mp3`) is `other`: each format decides (a line of an
 *   M3U names a path; an XSPF location is a URI).
 *
 * Writing: `webUrlOf` turns a Spotify or TIDAL track URI into its web URL (SPEC "Export formats",
 * rule 1), the form other players open.
 */

export type LocationKind =
  | { readonly kind: 'provider'; readonly provider: string; readonly uri: string }
  | { readonly kind: 'remote'; readonly url: string }
  | { readonly kind: 'local'; readonly path: string }
  | { readonly kind: 'other'; readonly text: string };

const SPOTIFY_WEB = /^https?:\/\/open\.spotify\.com\/(?:intl-[a-z]{2}(?:-[a-z]{2})?\/)?track\/([A-Za-z0-9]{1,64})\/?(?:[?#].*)?$/i;
const TIDAL_WEB = /^https?:\/\/(?:www\.|listen\.)?tidal\.com\/(?:browse\/)?track\/(\d{1,20})\/?(?:[?#].*)?$/i;
const SPOTIFY_TRACK = /^spotify:track:([A-Za-z0-9]{1,64})$/;
const TIDAL_TRACK = /^tidal:track:(\d{1,20})$/;
/** A scheme of two or more characters (one letter and a colon is a drive) followed by `//`. */
const URL_WITH_AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]+:\/\//;
const DRIVE_PATH = /^[A-Za-z]:[\\/]/;

/** Percent-decoding that never throws: a malformed escape keeps the text as written. */
function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** `file:///C:/a%20b.mp3` ⇒ `C:/a b.mp3`; `file://server/share/x` ⇒ `//server/share/x`; `file:///home/x` ⇒ `/home/x`. */
export function fileUrlPath(url: string): string {
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
  if (DRIVE_PATH.test(location) || location.startsWith('\\\\')) return { kind: 'local', path: location };
  if (URL_WITH_AUTHORITY.test(location)) return { kind: 'remote', url: location };
  const provider = providerOfUri(location);
  if (provider !== null) return { kind: 'provider', provider, uri: location };
  return location.includes(':') ? { kind: 'other', text: location } : { kind: 'local', path: location };
}

/** Web URL of a Spotify or TIDAL track URI, or null for any other URI. */
export function webUrlOf(uri: string): string | null {
  const spotify = SPOTIFY_TRACK.exec(uri)?.[1];
  if (spotify !== undefined) return `https://open.spotify.com/track/${spotify}`;
  const tidal = TIDAL_TRACK.exec(uri)?.[1];
  return tidal === undefined ? null : `https://tidal.com/browse/track/${tidal}`;
}

/** The last path segment without its extension (`C:\Music\Artist - Title.mp3` ⇒ `Artist - Title`), trimmed. */
export function fileStem(pathOrUrl: string): string {
  const path = pathOrUrl.replace(/[?#].*$/, '').replace(/[\\/]+$/, '');
  const base = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  return (dot > 0 ? base.slice(0, dot) : base).trim();
}
