import { PluginError, type Playlist } from '@opl/plugin-sdk';
import type { OrganizerSection } from '@opl/plugin-sdk/schemas';
import type { ConnectionService } from '../connections/connection.service.ts';
import type { PlaylistReadService } from '../playlists/playlist-read.service.ts';

/**
 * The live reads the organizer decides on: never a cached list. Ownership before a permanent
 * deletion is confirmed the way the provider's manifest names (its owner-filtered listing, or a
 * live read reporting `is_owned: true`), in the preflight, when the job is created and again just
 * before the call.
 */

export interface OrganizerReadDeps {
  readonly connections: Pick<ConnectionService, 'call'>;
  readonly playlists: Pick<PlaylistReadService, 'list' | 'read'>;
}

export type OwnershipCheck = Extract<OrganizerSection['permanent_delete'], { available: true }>['ownership_check'];

/** The playlist's header read live, or null when the provider has no such playlist (any more). */
export async function readHeader(deps: OrganizerReadDeps, ownerId: string, accountId: string, playlistId: string): Promise<Playlist | null> {
  try {
    return await deps.connections.call(ownerId, accountId, 'readPlaylist', { playlist_id: playlistId });
  } catch (error) {
    if (error instanceof PluginError && error.type === 'NotFound') return null;
    throw error;
  }
}

/** The playlist with all its entries, read live, or null when it is gone. */
export async function readFull(deps: OrganizerReadDeps, ownerId: string, accountId: string, playlistId: string): Promise<Playlist | null> {
  try {
    return (await deps.playlists.read(ownerId, accountId, playlistId, true)).playlist;
  } catch (error) {
    if (error instanceof PluginError && error.type === 'NotFound') return null;
    throw error;
  }
}

export type Ownership = { state: 'owned'; evidence: string; playlist: Playlist } | { state: 'not_owned'; evidence: string; playlist: Playlist | null } | { state: 'absent'; evidence: string };

export async function confirmOwnership(deps: OrganizerReadDeps, ownerId: string, accountId: string, playlistId: string, check: OwnershipCheck): Promise<Ownership> {
  if (check === 'owner_filtered_listing') {
    const listed = (await deps.playlists.list(ownerId, accountId, true)).playlists.find((playlist) => playlist.id === playlistId && playlist.kind === 'PLAYLIST');
    if (listed && listed.is_owned === true) return { state: 'owned', evidence: "listed in the provider's listing of the account's own playlists", playlist: { ...listed, tracks: [] } };
    const header = await readHeader(deps, ownerId, accountId, playlistId);
    if (!header) return { state: 'absent', evidence: 'the provider has no such playlist' };
    return { state: 'not_owned', evidence: "not in the provider's listing of the account's own playlists", playlist: header };
  }
  const header = await readHeader(deps, ownerId, accountId, playlistId);
  if (!header) return { state: 'absent', evidence: 'the provider has no such playlist' };
  if (header.kind === 'PLAYLIST' && header.is_owned === true) return { state: 'owned', evidence: 'a live read reports owned=true', playlist: header };
  return { state: 'not_owned', evidence: header.is_owned === false ? 'a live read reports owned=false' : 'a live read does not report ownership', playlist: header };
}
