import type { Playlist } from '@opl/plugin-sdk';

/**
 * The playlist-level snapshot a migration keeps in its selection data (SPEC "Export endpoints"
 * rule 4): every playlist field except the tracks, taken when the job is created, so a history
 * export can rebuild the playlist's name, description, owner, artwork and dates without calling
 * the provider again. Kept under `selection.playlist_snapshots[collection id]`, beside (not inside)
 * `selection.collections`, which the runner rewrites at import time.
 */
export const PLAYLIST_SNAPSHOTS_KEY = 'playlist_snapshots';

export type PlaylistSnapshot = Omit<Playlist, 'tracks'>;

export function playlistSnapshot(playlist: Playlist): PlaylistSnapshot {
  const { tracks, ...snapshot } = playlist;
  return { ...snapshot, track_count: snapshot.track_count ?? tracks.length };
}

/** The snapshots of a loaded source's collections, keyed by collection id. */
export function playlistSnapshots(source: { collections: readonly { id: string; snapshot?: PlaylistSnapshot }[] }): Record<string, PlaylistSnapshot> {
  return Object.fromEntries(source.collections.flatMap((collection) => (collection.snapshot ? [[collection.id, collection.snapshot]] : [])));
}
