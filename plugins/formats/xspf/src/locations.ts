/**
 * Track locations and identifiers. A location is data: it is never opened or fetched.
 *
 * Writing: a Spotify or TIDAL track URI becomes its web URL (SPEC "Export formats", rule 1); the
 * URI itself is written as an `<identifier>`. Reading: those web URLs map back to the URIs, a
 * provider-style URI (`deezer:track:1`) names its provider, and `file:` URLs, drive-letter, UNC
 * and relative paths are local files.
 */

const SPOTIFY_TRACK = /^spotify:track:([A-Za-z0-9]{1,64})$/;
const TIDAL_TRACK = /^tidal:track:(\d{1,20})$/;
const SPOTIFY_WEB = /^https?:\/\/open\.spotify\.com\/(?:intl-[a-z]{2}(?:-[a-z]{2})?\/)?track\/([A-Za-z0-9]{1,64})\/?(?:[?#].*)?$/i;
const TIDAL_WEB = /^https?:\/\/(?:www\.|listen\.)?tidal\.com\/(?:browse\/)?track\/(\d{1,20})\/?(?:[?#].*)?$/i;
/** A lowercase scheme not followed by `//` and not a standard one: `spotify:track:…`. */
const PROVIDER_URI = /^([a-z][a-z0-9_]{1,39}):(?!\/\/)\S+$/;
const STANDARD_SCHEMES = new Set(['http', 'https', 'file', 'data', 'urn', 'mailto', 'about', 'blob', 'javascript', 'ftp', 'tag']);
const URL_WITH_AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

export function webUrlOf(uri: string): string | null {
  const spotify = SPOTIFY_TRACK.exec(uri)?.[1];
  if (spotify !== undefined) return `https://open.spotify.com/track/${spotify}`;
  const tidal = TIDAL_TRACK.exec(uri)?.[1];
  return tidal === undefined ? null : `https://tidal.com/browse/track/${tidal}`;
}

export function providerOfUri(uri: string): string | null {
  const scheme = PROVIDER_URI.exec(uri)?.[1];
  return scheme === undefined || STANDARD_SCHEMES.has(scheme) ? null : scheme;
}

export type Classified =
  | { readonly kind: 'provider'; readonly provider: string; readonly uri: string }
  | { readonly kind: 'local' }
  | { readonly kind: 'other' };

export function classifyLocation(location: string): Classified {
  const spotify = SPOTIFY_WEB.exec(location)?.[1];
  if (spotify !== undefined) return { kind: 'provider', provider: 'spotify', uri: `spotify:track:${spotify}` };
  const tidal = TIDAL_WEB.exec(location)?.[1];
  if (tidal !== undefined) return { kind: 'provider', provider: 'tidal', uri: `tidal:track:${tidal}` };
  if (/^file:/i.test(location) || /^[A-Za-z]:[\\/]/.test(location) || location.startsWith('\\\\')) return { kind: 'local' };
  if (URL_WITH_AUTHORITY.test(location)) return { kind: 'other' };
  const provider = providerOfUri(location);
  if (provider !== null) return { kind: 'provider', provider, uri: location };
  // A colon-free relative path (`Music/a.mp3`), which XSPF resolves against the file's own place.
  return /^[^:]+$/.test(location) ? { kind: 'local' } : { kind: 'other' };
}

/** Provider keys with the preferred one first, then the rest in plain code-unit order. */
export function orderedProviders(providerUris: Readonly<Record<string, string>>, preferred: string | null): string[] {
  const keys = Object.keys(providerUris).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return preferred !== null && keys.includes(preferred) ? [preferred, ...keys.filter((key) => key !== preferred)] : keys;
}
