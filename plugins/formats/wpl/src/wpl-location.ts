import { formatKit, type TrackInput } from '@opl/plugin-sdk';

/**
 * What a `<media src="…">` says about a track, by the SDK's `formatKit.classifyLocation` (the
 * rules of the M3U and PLS plugins). A location is data, never opened or fetched:
 * - Spotify / TIDAL track web links and provider URIs ⇒ `provider_uris`;
 * - other `scheme://` URLs (streams, web pages) ⇒ `metadata.location`;
 * - `file://` URLs (percent-decoded), Windows drive, UNC, absolute and relative paths (WMP writes
 *   `..\Music\…` relative to the playlist) ⇒ a local-file track with `metadata.location` (as
 *   written) and `metadata.local_path` (decoded).
 */

export const LOCAL_FILE_REASON = 'local file: the playlist names a file on the device it was made on; the file is not opened or uploaded';

/** Fills `track` from the location; returns the path or URL whose file name can title it, or null. */
export function applyLocation(location: string, track: TrackInput, metadata: Record<string, unknown>): string | null {
  const kind = formatKit.classifyLocation(location);
  if (kind.kind === 'provider') {
    track.provider_uris = { [kind.provider]: kind.uri };
    return null;
  }
  metadata.location = location;
  if (kind.kind === 'remote') return location;
  const path = kind.kind === 'local' ? kind.path : kind.text;
  Object.assign(track, { is_local: true, media_type: 'local_file', is_migratable: false, unsupported_reason: LOCAL_FILE_REASON });
  metadata.local_path = path;
  return path;
}

/**
 * Artist, title and track number from a file name: `Artist - Title.mp3`, or WMP's own
 * `01 Title.wma` / `01 - Title.mp3` (a leading track number, kept when it is one to three digits).
 */
export function namesFromFile(pathOrUrl: string): { artist: string; title: string; trackNumber: number | null } {
  const stem = formatKit.fileStem(pathOrUrl);
  const numbered = /^(\d{1,3})(?:\s*[-.]\s*|\s+)(\S.*)$/.exec(stem);
  const rest = numbered?.[2] ?? stem;
  const { artist, title } = formatKit.splitArtistTitle(rest);
  return { artist, title, trackNumber: numbered === null ? null : Number(numbered[1]) };
}
