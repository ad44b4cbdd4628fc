import type { PlannedRemoval, ProviderOrganizer } from './organizer-preflight.ts';
import type { SequenceEntry } from './playlist-sequence.ts';

/**
 * How an undo re-adds removed entries. `positions`: the provider inserts at a position, so each
 * entry goes back exactly where it was. `appended`: the provider can only add at the end, so the
 * entries go there in their old order (best effort), and the item says which of them could not
 * regain their place.
 */
export type RestoreOrder = 'positions' | 'appended';

/** The order an undo can give on this provider, or null when it cannot add songs at all. */
export function restoreOrderOf(provider: Pick<ProviderOrganizer, 'section' | 'addsTracks'>): RestoreOrder | null {
  const songs = provider.section.remove_songs;
  if (songs.available && songs.positional_insert) return 'positions';
  return provider.addsTracks ? 'appended' : null;
}

/** The sequence an appending undo aims at: the removal's result, then the removed entries in their old order. */
export function restoreByAppending(original: readonly SequenceEntry[], start: readonly SequenceEntry[], removed: readonly PlannedRemoval[]): SequenceEntry[] {
  return [...start, ...[...removed].sort((a, b) => a.position - b.position).map((entry) => original[entry.position]!)];
}

/** Target positions an undo may fill: the removed entries' own (`positions`), or the tail it appends. */
export function restorablePositions(order: RestoreOrder, target: readonly SequenceEntry[], removed: readonly PlannedRemoval[]): Set<number> {
  if (order === 'positions') return new Set(removed.map((entry) => entry.position));
  return new Set(Array.from({ length: removed.length }, (_, index) => target.length - removed.length + index));
}

/**
 * What a finished undo says, per entry: where each one went back. With `appended`, an entry that
 * now sits elsewhere than before is named with both positions, so the user knows the order could
 * not be restored and what to move by hand.
 */
export function restoreNotes(order: RestoreOrder, displayName: string, target: readonly SequenceEntry[], removed: readonly PlannedRemoval[], sent: readonly number[]): string[] {
  if (order === 'positions') {
    const count = sent.length;
    return [`${count} removed entr${count === 1 ? 'y was' : 'ies were'} put back at ${count === 1 ? 'its' : 'their'} position${count === 1 ? '' : 's'} (${sent.join(', ')}).`];
  }
  const count = removed.length;
  const sorted = [...removed].sort((a, b) => a.position - b.position);
  const tail = target.length - sorted.length;
  const moved = sorted.flatMap((entry, index) => (entry.position === tail + index ? [] : [{ entry, now: tail + index }]));
  if (moved.length === 0) return [`${count} removed entr${count === 1 ? 'y was' : 'ies were'} added back at the end, which is where ${count === 1 ? 'it was' : 'they were'}.`];
  return [
    `Order not restored: ${displayName} can only add songs at the end of a playlist, so ${moved.length} entr${moved.length === 1 ? 'y is' : 'ies are'} back but not where ${moved.length === 1 ? 'it was' : 'they were'}.`,
    ...moved.map(({ entry, now }) => `“${entry.title}” — ${entry.artist}: was at position ${entry.position}, now at position ${now} (the end).`),
  ];
}
