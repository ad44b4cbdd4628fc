import type { Playlist, Track } from '@opl/plugin-sdk';

/**
 * The public snapshot of a share: an Open Playlist bundle v1 holding one playlist, stripped of
 * everything that describes the sharer's account rather than the music (owner ids and names,
 * entry ids, added dates, provider and plugin metadata, follow state). Pure: no I/O.
 */

export const BUNDLE_SCHEMA_PATH = '/export/open-playlist-bundle-v1.json';

export interface ShareSnapshotLimits {
  maxTracks: number;
  /** Bytes of the snapshot JSON as UTF-8. */
  maxBytes: number;
}

export interface ShareSnapshot {
  bundle: Record<string, unknown>;
  name: string;
  trackCount: number;
  bytes: number;
}

export class ShareTooLargeError extends Error {
  readonly extensions: Record<string, number>;
  constructor(message: string, extensions: Record<string, number>) {
    super(message);
    this.name = 'ShareTooLargeError';
    this.extensions = extensions;
  }
}

function publicTrack(track: Track, index: number): Track {
  return {
    ...track,
    metadata: {},
    provider_metadata: {},
    source_item_id: null,
    added_at: null,
    position: index,
    source_position: track.source_position ?? track.position ?? index,
  };
}

function publicPlaylist(playlist: Playlist): Playlist {
  const tracks = playlist.tracks.map(publicTrack);
  return {
    ...playlist,
    // The link is the only identity a share has; the source's own id stays with the owner.
    id: null,
    photo: null,
    owner_id: null,
    owner_name: null,
    snapshot_id: null,
    is_owned: null,
    is_followed: null,
    collaborative: null,
    metadata: {},
    tracks,
    track_count: tracks.length,
  };
}

export function buildShareSnapshot(playlist: Playlist, options: { sourceProvider: string | null; schemaBaseUrl: string; limits: ShareSnapshotLimits }): ShareSnapshot {
  const { maxTracks, maxBytes } = options.limits;
  if (playlist.tracks.length > maxTracks) {
    throw new ShareTooLargeError(`"${playlist.name}" has ${playlist.tracks.length} tracks; a share holds at most ${maxTracks} (OPL_SHARE_MAX_TRACKS). Share a shorter playlist, or export it as a file instead.`, {
      track_count: playlist.tracks.length,
      max_tracks: maxTracks,
    });
  }
  const bundle = {
    $schema: `${options.schemaBaseUrl.replace(/\/+$/, '')}${BUNDLE_SCHEMA_PATH}`,
    schema_version: 1,
    source_provider: options.sourceProvider,
    playlists: [publicPlaylist(playlist)],
    warnings: [],
  };
  const bytes = Buffer.byteLength(JSON.stringify(bundle), 'utf8');
  if (bytes > maxBytes) {
    throw new ShareTooLargeError(`The snapshot of "${playlist.name}" would take ${bytes} bytes; a share holds at most ${maxBytes} (OPL_SHARE_MAX_BYTES). Share a shorter playlist, or export it as a file instead.`, {
      snapshot_bytes: bytes,
      max_bytes: maxBytes,
    });
  }
  return { bundle, name: playlist.name, trackCount: playlist.tracks.length, bytes };
}
