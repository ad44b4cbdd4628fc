import { LIMITS } from './model-limits.ts';

/**
 * The `source_uri` column holds one URI of the track at its source provider, taken from
 * `provider_uris` (keyed by provider name).
 *
 * Writing: the caller may name the source provider (`options.source_provider`, as the export
 * request's `source_provider`); its URI wins when the track has one. Otherwise, or when it is
 * missing, the URI of the alphabetically first provider key is used: a playlist read from one
 * provider normally carries just that provider's URI, and when several are present, sorting by key
 * (plain code-unit order, independent of locale and of insertion order) makes the output
 * reproducible.
 *
 * A track without any provider URI keeps the URI a reader could not file under a provider
 * (`metadata.source_uri`: a web page, a stream, a Spotify local file), so reading and writing the
 * column again keeps it (`trackSourceUri`); without one, the location a playlist reader (M3U, PLS,
 * WPL, XSPF) kept (`metadata.location`: a web address, a stream, a local path) is its source
 * reference too, so converting such a playlist to CSV or TXT keeps the address.
 *
 * Reading (`sourceReference` in field-values.ts): a provider-style URI (`spotify:track:…`: a
 * lowercase scheme, not followed by `//`, that is not a standard one such as `https`, `file`,
 * `urn` or `tag`, and no whitespace) goes back under `provider_uris[<scheme>]`, which is how
 * adapters key them; so does a Spotify or TIDAL track web link, as its provider URI. Any other web
 * URL names no provider key, so it is kept in `metadata.source_uri` rather than guessed from its
 * host. A URI longer than the model allows in `provider_uris` names no provider either: stored
 * there, it would make the host refuse the whole parse result.
 */

const PROVIDER_URI = /^([a-z][a-z0-9_]{1,39}):(?!\/\/)\S+$/;
/** Standard schemes that are never a provider name. */
const GENERIC_SCHEMES = new Set(['http', 'https', 'file', 'data', 'urn', 'mailto', 'about', 'blob', 'javascript', 'ftp', 'tag']);

/** Provider keys with the preferred one first (when present), then the rest in plain code-unit order. */
export function orderedProviders(providerUris: Readonly<Record<string, string>>, preferredProvider: string | null): string[] {
  const keys = Object.keys(providerUris).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (preferredProvider === null || !keys.includes(preferredProvider)) return keys;
  return [preferredProvider, ...keys.filter((key) => key !== preferredProvider)];
}

/** The first non-empty URI in `orderedProviders` order, or null. */
export function pickSourceUri(providerUris: Readonly<Record<string, string>>, preferredProvider: string | null): string | null {
  for (const key of orderedProviders(providerUris, preferredProvider)) {
    const value = providerUris[key];
    if (value !== undefined && value !== '') return value;
  }
  return null;
}

/**
 * The `source_uri` cell of a track: `pickSourceUri` of its provider URIs, else its
 * `metadata.source_uri`, else its `metadata.location` (what M3U, PLS, WPL and XSPF readers keep), else null.
 */
export function trackSourceUri(track: { readonly provider_uris: Readonly<Record<string, string>>; readonly metadata: Readonly<Record<string, unknown>> }, preferredProvider: string | null): string | null {
  const picked = pickSourceUri(track.provider_uris, preferredProvider);
  if (picked !== null) return picked;
  for (const key of ['source_uri', 'location']) {
    const kept = track.metadata[key];
    if (typeof kept === 'string' && kept !== '') return kept;
  }
  return null;
}

/** The provider key a URI belongs to, or null when it is not a provider-style URI. */
export function providerOfUri(uri: string): string | null {
  if (uri.length > LIMITS.providerUri) return null;
  const scheme = PROVIDER_URI.exec(uri)?.[1];
  return scheme === undefined || GENERIC_SCHEMES.has(scheme) ? null : scheme;
}
