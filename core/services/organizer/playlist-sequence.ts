import { createHash } from 'node:crypto';
import type { Track } from '@opl/plugin-sdk';

/**
 * A playlist's entries as the organizer compares them: the provider URI of each entry in list
 * order (or a stand-in for entries without one, such as local files) and, where the provider has
 * them, each occurrence's own id. Song removal is settled only by comparing whole sequences: the
 * baseline the preflight saw, and the exact sequence expected after removing the chosen entries.
 */

export interface SequenceEntry {
  /** The provider URI of the song, or a stand-in that never equals a URI (`opl:unlinked:…`). */
  readonly key: string;
  /** The provider's id of this occurrence (`setVideoId`, playlist item id), when it has one. */
  readonly entryId: string | null;
}

export function entryKey(track: Pick<Track, 'provider_uris' | 'title' | 'artist'>, provider: string): string {
  return track.provider_uris[provider] ?? `opl:unlinked:${track.artist}\u0000${track.title}`;
}

export function sequenceOf(tracks: readonly Pick<Track, 'provider_uris' | 'title' | 'artist' | 'source_item_id'>[], provider: string): SequenceEntry[] {
  return tracks.map((track) => ({ key: entryKey(track, provider), entryId: track.source_item_id }));
}

/** A stable hash of the song order (entry ids are not part of it: some providers renumber them). */
export function sequenceHash(sequence: readonly SequenceEntry[]): string {
  const hash = createHash('sha256');
  for (const entry of sequence) hash.update(entry.key).update('\n');
  return hash.digest('hex');
}

/** The baseline without the entries at `positions` (0-based, distinct). */
export function expectedAfterRemoval(baseline: readonly SequenceEntry[], positions: ReadonlySet<number>): SequenceEntry[] {
  return baseline.filter((_, index) => !positions.has(index));
}

/** Positions of entries that are copies (same key) of a selected entry but were not selected. */
export function unselectedCopies(baseline: readonly SequenceEntry[], positions: ReadonlySet<number>): number[] {
  const selectedKeys = new Set([...positions].map((position) => baseline[position]?.key));
  return baseline.flatMap((entry, index) => (!positions.has(index) && selectedKeys.has(entry.key) ? [index] : []));
}

export interface PutBack {
  /** Position in the expected sequence, where the entry goes back. */
  readonly position: number;
  readonly key: string;
}

/**
 * When a provider removed more copies than chosen, the observed sequence is the expected one with
 * some entries missing. Returns those entries with their expected positions (ascending, so
 * inserting them one by one in this order rebuilds the expected sequence), or null when the
 * observed sequence is not such a subsequence (something else changed the playlist).
 */
export function putBacksToExpected(observed: readonly SequenceEntry[], expected: readonly SequenceEntry[]): PutBack[] | null {
  const missing: PutBack[] = [];
  let at = 0;
  for (let index = 0; index < expected.length; index++) {
    if (at < observed.length && observed[at]!.key === expected[index]!.key) {
      at++;
      continue;
    }
    missing.push({ position: index, key: expected[index]!.key });
  }
  return at === observed.length ? missing : null;
}

/** Exactly the same songs in the same order. */
export function sameSequence(a: readonly SequenceEntry[], b: readonly SequenceEntry[]): boolean {
  return a.length === b.length && a.every((entry, index) => entry.key === b[index]!.key);
}
