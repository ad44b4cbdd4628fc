import type { TrackInput } from '@opl/plugin-sdk';

/**
 * What a `FileN=` location says about a track — the same rules as the M3U plugin's
 * `locations.ts`, kept deliberately small here (plugins may import only the SDK; a shared
 * playlist-location classifier belongs in the SDK runtime). A location is data, never opened:
 * - Spotify / TIDAL track web links ⇒ `provider_uris` (`spotify:track:<id>`, `tidal:track:<id>`);
 * - other `scheme://` URLs (radio streams) ⇒ `metadata.location`;
 * - `file://` URLs (percent-decoded), Windows, UNC, absolute and relative paths ⇒ a local-file
 *   track with `metadata.location` (as written) and `metadata.local_path` (decoded).
 */

export const LOCAL_FILE_REASON = 'local file: the playlist names a file on the device it was made on; the file is not opened or uploaded';

const SPOTIFY_WEB = /^https?:\/\/open\.spotify\.com\/(?:intl-[a-z]{2}(?:-[a-z]{2})?\/)?track\/([A-Za-z0-9]{1,64})\/?(?:[?#].*)?$/i;
const TIDAL_WEB = /^https?:\/\/(?:www\.|listen\.)?tidal\.com\/(?:browse\/)?track\/(\d{1,20})\/?(?:[?#].*)?$/i;

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Fills `track` from the location; returns the path or URL whose file name can title it, or null. */
export function applyLocation(location: string, track: TrackInput): string | null {
  const spotify = SPOTIFY_WEB.exec(location)?.[1];
  const tidal = TIDAL_WEB.exec(location)?.[1];
  if (spotify !== undefined || tidal !== undefined) {
    track.provider_uris = spotify !== undefined ? { spotify: `spotify:track:${spotify}` } : { tidal: `tidal:track:${tidal}` };
    return null;
  }
  if (!/^file:/i.test(location) && /^[A-Za-z][A-Za-z0-9+.-]+:\/\//.test(location)) {
    track.metadata = { location };
    return location;
  }
  let path = location;
  if (/^file:/i.test(location)) {
    path = decoded(location.slice(5).replace(/^\/\/(?:localhost)?(?=\/)/i, '').replace(/[?#].*$/, ''));
    if (/^\/[A-Za-z]:[\\/]/.test(path)) path = path.slice(1);
  }
  Object.assign(track, { is_local: true, media_type: 'local_file', is_migratable: false, unsupported_reason: LOCAL_FILE_REASON });
  track.metadata = { location, local_path: path };
  return path;
}

/** Last path segment without extension. */
export function fileStem(pathOrUrl: string): string {
  const path = pathOrUrl.replace(/[?#].*$/, '').replace(/[\\/]+$/, '');
  const base = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  return (dot > 0 ? base.slice(0, dot) : base).trim();
}
