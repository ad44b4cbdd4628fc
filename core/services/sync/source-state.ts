import { createHash } from 'node:crypto';
import type { Track } from '@opl/plugin-sdk';

/**
 * What a sync run compares: the source collection as a sequence of song keys, with the provider's
 * snapshot id where it has one and a content hash where it has none. Add-only runs migrate the
 * songs the sequence gained since the last checkpoint; removals and moves change nothing.
 */

export interface SourceState {
  snapshot_id: string | null;
  content_hash: string;
  track_count: number;
  /** One key per entry, in source order (duplicates kept). */
  keys: string[];
}

/** A song's identity in its own service: its URI there, else its id, else its words. */
export function songKey(track: Track, provider: string): string {
  return track.provider_uris[provider] ?? (track.id !== null ? `${provider}:id:${track.id}` : `text:${track.artist.toLowerCase()}\u0000${track.title.toLowerCase()}`);
}

/** How a migration selection names an entry: its entry id, its track id, or its position. */
export function selectionKey(track: Track, index: number): string {
  return track.source_item_id ?? track.id ?? `pos:${index}`;
}

export function sourceState(tracks: readonly Track[], provider: string, snapshotId: string | null): SourceState {
  const keys = tracks.map((track) => songKey(track, provider));
  return { snapshot_id: snapshotId, content_hash: createHash('sha256').update(keys.join('\n')).digest('hex'), track_count: keys.length, keys };
}

/**
 * The entries the source gained since the checkpoint, in source order. Counted per song: a second
 * copy of a song the checkpoint had once is new (the target's duplicate reconciliation then
 * decides whether it is added).
 */
export function addedSince(previous: readonly string[], tracks: readonly Track[], provider: string): { track: Track; index: number }[] {
  const left = new Map<string, number>();
  for (const songKeyOf of previous) left.set(songKeyOf, (left.get(songKeyOf) ?? 0) + 1);
  const added: { track: Track; index: number }[] = [];
  tracks.forEach((track, index) => {
    const found = songKey(track, provider);
    const count = left.get(found) ?? 0;
    if (count > 0) left.set(found, count - 1);
    else added.push({ track, index });
  });
  return added;
}

/** Below this share of the last checkpoint's entries, a read is taken as failed, not as deletions. */
export const READ_COLLAPSE_RATIO = 0.4;
/** Small playlists may shrink legitimately: the guard applies from this many entries on. */
const READ_COLLAPSE_MIN_ENTRIES = 5;

export function readCollapsed(previousCount: number, currentCount: number): boolean {
  return previousCount >= READ_COLLAPSE_MIN_ENTRIES && currentCount < previousCount * READ_COLLAPSE_RATIO;
}
