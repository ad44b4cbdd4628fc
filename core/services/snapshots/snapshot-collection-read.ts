import { PluginError, type Playlist } from '@opl/plugin-sdk';
import type { SnapshotFailure, SnapshotPlaylist } from '@opl/plugin-sdk/schemas';

/** How a snapshot job records one collection it read: the playlist's details, or why it could not read it. */
/** A provider's read error as a manifest failure: its type as the code, its message (already free of credentials). */
export function readFailure(error: unknown): SnapshotFailure {
  if (error instanceof PluginError) {
    const code = { NotFound: 'not_found', Unsupported: 'access_denied', AuthExpired: 'auth_expired', RateLimited: 'rate_limited' }[error.type as string] ?? 'read_failed';
    return { code, message: error.message.slice(0, 1_000) };
  }
  const code = (error as { code?: unknown }).code;
  return { code: typeof code === 'string' && /^[a-z][a-z0-9_]{0,63}$/.test(code) ? code : 'read_failed', message: 'The collection could not be read from the provider.' };
}

export function playlistDetails(playlist: Playlist): SnapshotPlaylist {
  const { tracks, ...details } = playlist;
  return { ...details, track_count: tracks.length, metadata: {} };
}
