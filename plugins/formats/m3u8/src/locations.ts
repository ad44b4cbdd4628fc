import { formatKit } from '@opl/plugin-sdk';

/**
 * Entry locations, both ways.
 *
 * Reading (`classifyLocation`) — a location is data, never opened or fetched: the SDK's
 * `formatKit.classifyLocation` (Spotify/TIDAL web links and provider URIs ⇒ provider URIs, with
 * what they name; a Spotify local-file URI ⇒ a local file named by it; other
 * `scheme://` URLs are remote, `file://` URLs, Windows, UNC, absolute and relative paths are local
 * files), where anything else on a location line is a path too (`C:song.mp3`, `intro:demo.mp3`).
 * Players write `file:` URLs into M3U lines without escaping `#` or `?`, so these are part of the
 * file name (`file:///C:/Music/Track #1.mp3` ⇒ `C:/Music/Track #1.mp3`).
 *
 * Writing (`locationOf`): see `playableLocation`.
 */

/** The SDK's kinds, without `other` (a path in M3U). */
export type LocationKind = Exclude<formatKit.LocationKind, { readonly kind: 'other' }>;

/** The SDK's classification; what it leaves to the format (`urn:…`, `C:song.mp3`) is a path in M3U. */
export function classifyLocation(location: string): LocationKind {
  const kind = formatKit.classifyLocation(location, { fileUrls: 'as-written' });
  return kind.kind === 'other' ? { kind: 'local', path: kind.text } : kind;
}

// eslint-disable-next-line no-control-regex -- control characters are what is refused here
const UNSAFE_LOCATION = /[\u0000-\u001f\u007f\u0085\u2028\u2029]/;

/**
 * The location line written for a track, or null when it has nothing playable (the entry is then
 * written without a location line). In order: the first provider URI (preferred provider first,
 * then by key) that is a Spotify/TIDAL track URI (as its web URL) or an http(s) URL (as is); else
 * the location the track was imported with (`metadata.location`, from an M3U/PLS/WPL/XSPF
 * import); else, when it has none, the source reference a CSV or TXT import kept
 * (`metadata.source_uri`: a web address, a stream, a path, a Spotify local file). A location
 * containing control characters or line breaks is never written.
 */
export function playableLocation(providerUris: Readonly<Record<string, string>>, metadata: Readonly<Record<string, unknown>>, preferred: string | null): string | null {
  for (const key of formatKit.orderedProviders(providerUris, preferred)) {
    const uri = providerUris[key] ?? '';
    const location = formatKit.webUrlOf(uri) ?? (/^https?:\/\/\S+$/i.test(uri) ? uri : null);
    if (location !== null && !UNSAFE_LOCATION.test(location)) return location;
    // (web URLs built by webUrlOf never contain unsafe characters; an http(s) URI is checked here)
  }
  // Written as is, so it must read back as a location line: trimmed, not a comment.
  const writable = (value: unknown): value is string => typeof value === 'string' && value !== '' && value === value.trim() && !value.startsWith('#') && !UNSAFE_LOCATION.test(value);
  if (writable(metadata.location)) return metadata.location;
  // A CSV or TXT import keeps its web address, stream or path as `metadata.source_uri`.
  if (metadata.location === undefined && writable(metadata.source_uri)) return metadata.source_uri;
  return null;
}
