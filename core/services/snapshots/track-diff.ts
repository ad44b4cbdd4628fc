import type { Track } from '@opl/plugin-sdk';
import { normalizeText } from '../../matching/index.ts';
import { normalizeIsrc } from '../matching/match-keys.ts';

/**
 * The track-level difference between two versions of one playlist (issue 30 item 7): which
 * entries were added, removed, and moved. Pure: no reads, no I/O, so both sides may come from
 * snapshot archives or one from the live playlist.
 *
 * An entry is known by its track identity ({@link trackIdentity}). A playlist may hold the same
 * song several times: the n-th copy before pairs with the n-th copy after, and copies beyond the
 * other side's count are added or removed. Among the paired entries, the fewest moves that
 * explain the new order are reported (everything outside a longest run kept in the same relative
 * order), so one song inserted at the top is one addition, not a hundred moves.
 */

/** What a diff shows of a track: enough to recognise it, never its opaque metadata. */
export interface DiffTrack {
  identity: string;
  id: string | null;
  title: string;
  artist: string;
  album: string | null;
  isrc: string | null;
}

export interface TrackDiff {
  /** Entries of the newer side that the older side lacks, with their 0-based position in the newer side. */
  added: { position: number; track: DiffTrack }[];
  /** Entries of the older side that the newer side lacks, with their position in the older side. */
  removed: { position: number; track: DiffTrack }[];
  /** Entries on both sides whose place in the order changed: `from` (older side) and `to` (newer side). */
  moved: { from: number; to: number; track: DiffTrack }[];
  /** Entries on both sides that kept their relative order. */
  unchanged: number;
}

const words = (text: string | null | undefined) => (text ? normalizeText(text).tokens.join(' ') : '');

/**
 * A track's identity within a diff: its provider id, else its ISRC, else its normalised title and
 * artist (the matching engine's text normalisation, so spelling and punctuation variants agree).
 */
export function trackIdentity(track: Pick<Track, 'id' | 'isrc' | 'title' | 'artist'>): string {
  if (track.id) return `id:${track.id}`;
  const isrc = normalizeIsrc(track.isrc);
  if (isrc) return `isrc:${isrc}`;
  return `text:${words(track.title)}|${words(track.artist)}`;
}

export function diffTrackOf(track: Pick<Track, 'id' | 'isrc' | 'title' | 'artist' | 'album'>): DiffTrack {
  return { identity: trackIdentity(track), id: track.id ?? null, title: track.title, artist: track.artist, album: track.album ?? null, isrc: track.isrc ?? null };
}

/** Indices (into `values`) of one longest strictly increasing subsequence, in O(n log n). */
function longestIncreasingRun(values: readonly number[]): Set<number> {
  const tails: number[] = []; // tails[k]: index of the smallest tail of a run of length k + 1
  const previous = new Array<number>(values.length).fill(-1);
  for (let index = 0; index < values.length; index += 1) {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (values[tails[middle]!]! < values[index]!) low = middle + 1;
      else high = middle;
    }
    if (low > 0) previous[index] = tails[low - 1]!;
    tails[low] = index;
  }
  const kept = new Set<number>();
  for (let index = tails.length > 0 ? tails[tails.length - 1]! : -1; index >= 0; index = previous[index]!) kept.add(index);
  return kept;
}

/** The difference from `before` (the older side) to `after` (the newer side), in list order. */
export function diffTracks(before: readonly DiffTrack[], after: readonly DiffTrack[]): TrackDiff {
  // The positions of each identity's copies on the newer side, consumed in order.
  const waiting = new Map<string, number[]>();
  after.forEach((track, position) => {
    const queue = waiting.get(track.identity);
    if (queue) queue.push(position);
    else waiting.set(track.identity, [position]);
  });
  const removed: TrackDiff['removed'] = [];
  const pairs: { from: number; to: number }[] = [];
  before.forEach((track, position) => {
    const queue = waiting.get(track.identity);
    const to = queue?.shift();
    if (to === undefined) removed.push({ position, track });
    else pairs.push({ from: position, to });
  });
  const paired = new Set(pairs.map((pair) => pair.to));
  const added = after.flatMap((track, position) => (paired.has(position) ? [] : [{ position, track }]));
  const kept = longestIncreasingRun(pairs.map((pair) => pair.to));
  const moved = pairs.flatMap((pair, index) => (kept.has(index) ? [] : [{ from: pair.from, to: pair.to, track: after[pair.to]! }])).sort((a, b) => a.to - b.to);
  return { added, removed, moved, unchanged: kept.size };
}
