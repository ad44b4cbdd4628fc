import { formatKit, type TrackInput } from '@opl/plugin-sdk';

/**
 * What a `FileN=` location says about a track, by the SDK's `formatKit.classifyLocation` (the
 * rules the M3U plugin uses too). A location is data, never opened:
 * - Spotify / TIDAL track web links and provider URIs ⇒ `provider_uris` (`spotify:track:<id>`, …);
 * - other `scheme://` URLs (radio streams) ⇒ `metadata.location`;
 * - `file://` URLs (percent-decoded), Windows, UNC, absolute and relative paths (and anything else)
 *   ⇒ a local-file track with `metadata.location` (as written) and `metadata.local_path` (decoded).
 */

export const LOCAL_FILE_REASON = 'local file: the playlist names a file on the device it was made on; the file is not opened or uploaded';

/** Fills `track` from the location; returns the path or URL whose file name can title it, or null. */
export function applyLocation(location: string, track: TrackInput): string | null {
  const kind = formatKit.classifyLocation(location);
  if (kind.kind === 'provider') {
    track.provider_uris = { [kind.provider]: kind.uri };
    return null;
  }
  if (kind.kind === 'remote') {
    track.metadata = { location };
    return location;
  }
  const path = kind.kind === 'local' ? kind.path : kind.text;
  Object.assign(track, { is_local: true, media_type: 'local_file', is_migratable: false, unsupported_reason: LOCAL_FILE_REASON });
  track.metadata = { location, local_path: path };
  return path;
}
