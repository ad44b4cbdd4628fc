import { formatKit, type TrackInput } from '@opl/plugin-sdk';

/**
 * What a `<media src="…">` says about a track, by the SDK's `formatKit.classifyLocation` (the
 * rules of the M3U and PLS plugins). A location is data, never opened or fetched:
 * - Spotify / TIDAL track web links and provider URIs ⇒ `provider_uris`; a provider episode is
 *   `episode` media, a provider URI naming no song (`spotify:album:…`, `tidal:playlist:…`,
 *   `spotify:artist:…`) `unknown` media kept as `metadata.location`, neither migrated
 *   (`formatKit.providerItemReason`);
 * - a Spotify local-file URI (`spotify:local:<artist>:<album>:<title>:<seconds>`) ⇒ a local-file
 *   track with `metadata.location`, whose names, album and length fill what the entry leaves
 *   empty (`formatKit.fillFromLocalFile`);
 * - other `scheme://` URLs (streams, web pages, files on a server) ⇒ `metadata.location`; whether
 *   the entry is a song is decided once its artist and title are known (`remoteItem`);
 * - `file://` URLs (percent-decoded; `#` and `?` are part of the file name), Windows drive, UNC,
 *   relative and absolute paths (WMP writes `..\Music\…` relative to the playlist) and anything
 *   else (`intro:demo.mp3`) ⇒ a local-file track with `metadata.location` (as written) and
 *   `metadata.local_path` (decoded).
 */

export const LOCAL_FILE_REASON = 'local file: the playlist names a file on the device it was made on; the file is not opened or uploaded';

/** Fills `track` from the location; returns what it is (anything that is neither a provider URI nor remote is a local path). */
export function applyLocation(location: string, track: TrackInput, metadata: Record<string, unknown>): formatKit.LocationKind {
  const kind = formatKit.classifyLocation(location, { fileUrls: 'as-written' });
  if (kind.kind === 'provider') {
    // A track or an episode is the provider's item; an album, a playlist, an artist… is no song.
    const reason = formatKit.providerItemReason(kind.item);
    if (kind.item === 'track' || kind.item === 'episode') track.provider_uris = { [kind.provider]: kind.uri };
    else metadata.location = location;
    if (reason !== null) Object.assign(track, { media_type: kind.item === 'episode' ? 'episode' : 'unknown', is_migratable: false, unsupported_reason: reason });
    return kind;
  }
  if (kind.kind === 'local_file') {
    metadata.location = location;
    Object.assign(track, { is_local: true, media_type: 'local_file', is_migratable: false, unsupported_reason: formatKit.LOCAL_FILE_REASON });
    return kind;
  }
  metadata.location = location;
  if (kind.kind === 'remote') return kind;
  const path = kind.kind === 'local' ? kind.path : kind.text;
  Object.assign(track, { is_local: true, media_type: 'local_file', is_migratable: false, unsupported_reason: LOCAL_FILE_REASON });
  metadata.local_path = path;
  return { kind: 'local', path };
}

/**
 * A remote entry (`kind` is `remote`) without artist and title, or at a stream or playlist
 * address (`radio.asx`), is `unknown` media that is not migrated, with the SDK's reason
 * (`formatKit.remoteItemReason`); WPL has no "unknown length" marker.
 */
export function remoteItem(kind: formatKit.LocationKind, track: TrackInput): void {
  if (kind.kind !== 'remote') return;
  const reason = formatKit.remoteItemReason(kind.url, { artist: track.artist, title: track.title });
  if (reason !== null) Object.assign(track, { media_type: 'unknown', is_migratable: false, unsupported_reason: reason });
}

/**
 * Artist, title and track number from a file name, by the SDK's `formatKit.splitArtistTitle`:
 * `Artist - Title.mp3`, or WMP's own `07 Title.wma` / `07 - Title.mp3` (the leading number becomes
 * the track number; see there for which numbers count, so `50 Cent - In Da Club.mp3` keeps its artist).
 */
export function namesFromFile(pathOrUrl: string): formatKit.ArtistTitle {
  return formatKit.splitArtistTitle(formatKit.fileStem(pathOrUrl), { fileName: true });
}
