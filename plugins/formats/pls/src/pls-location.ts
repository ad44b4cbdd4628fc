import { formatKit, type TrackInput } from '@opl/plugin-sdk';

/**
 * What a `FileN=` location says about a track, by the SDK's `formatKit.classifyLocation` (the
 * rules the M3U and WPL plugins use too). A location is data, never opened:
 * - Spotify / TIDAL track web links and provider URIs ⇒ `provider_uris` (`spotify:track:<id>`, …); a provider episode is
 *   `episode` media, a provider URI naming no song (`spotify:album:…`, `tidal:playlist:…`,
 *   `spotify:artist:…`) `unknown` media kept as `metadata.location`, neither migrated
 *   (`formatKit.providerItemReason`);
 * - a Spotify local-file URI (`spotify:local:<artist>:<album>:<title>:<seconds>`) ⇒ a local-file
 *   track with `metadata.location`, whose names, album and length fill what the entry leaves
 *   empty (`formatKit.fillFromLocalFile`);
 * - other `scheme://` URLs (radio streams, files on a server) ⇒ `metadata.location`; whether the
 *   entry is a song is decided once its title is known (`remoteItem`);
 * - `file://` URLs (percent-decoded; `#` and `?` are part of the file name, as players write
 *   them unescaped), Windows, UNC, absolute and relative paths (and anything else, such as
 *   `intro:demo.mp3`) ⇒ a local-file track with `metadata.location` (as written) and
 *   `metadata.local_path` (decoded).
 */

export const LOCAL_FILE_REASON = 'local file: the playlist names a file on the device it was made on; the file is not opened or uploaded';

/** Fills `track` from the location; returns what it is (anything that is neither a provider URI nor remote is a local path). */
export function applyLocation(location: string, track: TrackInput): formatKit.LocationKind {
  const kind = formatKit.classifyLocation(location, { fileUrls: 'as-written' });
  if (kind.kind === 'provider') {
    // A track or an episode is the provider's item; an album, a playlist, an artist… is no song.
    const reason = formatKit.providerItemReason(kind.item);
    if (kind.item === 'track' || kind.item === 'episode') track.provider_uris = { [kind.provider]: kind.uri };
    else track.metadata = { location };
    if (reason !== null) Object.assign(track, { media_type: kind.item === 'episode' ? 'episode' : 'unknown', is_migratable: false, unsupported_reason: reason });
    return kind;
  }
  if (kind.kind === 'local_file') {
    track.metadata = { location };
    Object.assign(track, { is_local: true, media_type: 'local_file', is_migratable: false, unsupported_reason: formatKit.LOCAL_FILE_REASON });
    return kind;
  }
  if (kind.kind === 'remote') {
    track.metadata = { location };
    return kind;
  }
  const path = kind.kind === 'local' ? kind.path : kind.text;
  Object.assign(track, { is_local: true, media_type: 'local_file', is_migratable: false, unsupported_reason: LOCAL_FILE_REASON });
  track.metadata = { location, local_path: path };
  return { kind: 'local', path };
}

/**
 * A remote entry (`kind` is `remote`) that is not a song — a radio stream (`LengthN=-1`), a link
 * to another playlist, or an address without artist and title — becomes `unknown` media that is
 * not migrated, with the SDK's reason (`formatKit.remoteItemReason`).
 */
export function remoteItem(kind: formatKit.LocationKind, track: TrackInput, lengthUnknown: boolean): void {
  if (kind.kind !== 'remote') return;
  const reason = formatKit.remoteItemReason(kind.url, { artist: track.artist, title: track.title, lengthUnknown });
  if (reason !== null) Object.assign(track, { media_type: 'unknown', is_migratable: false, unsupported_reason: reason });
}
