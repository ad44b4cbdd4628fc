import { describe, expect, it } from 'vitest';
import { restorablePositions, restoreByAppending, restoreNotes, restoreOrderOf } from '../../../../core/services/organizer/organizer-restore.ts';
import type { PlannedRemoval } from '../../../../core/services/organizer/organizer-preflight.ts';
import { expectedAfterRemoval, putBacksToExpected, type SequenceEntry } from '../../../../core/services/organizer/playlist-sequence.ts';
import type { OrganizerSection } from '../../../../plugin-sdk/src/organizer.schema.ts';

const seq = (...keys: string[]): SequenceEntry[] => keys.map((key) => ({ key, entryId: null }));
const removal = (position: number, uri: string): PlannedRemoval => ({ position, uri, entry_id: null, title: `Song ${uri}`, artist: 'Artist' });
const songs = (positional: boolean) =>
  ({
    safe_removal: { available: false, reason: 'none' },
    permanent_delete: { available: false, reason: 'none' },
    remove_songs: { available: true, identify_by: 'uri', removes_every_occurrence: false, applies_to: ['owned'], max_entries_per_job: 100, positional_insert: positional, note: null },
  }) as unknown as OrganizerSection;

describe('how an undo restores removed entries', () => {
  it('goes back to positions where the provider inserts there, appends where it can only add, and refuses without ADD_TRACKS', () => {
    expect(restoreOrderOf({ section: songs(true), addsTracks: true })).toBe('positions');
    expect(restoreOrderOf({ section: songs(false), addsTracks: true })).toBe('appended');
    expect(restoreOrderOf({ section: songs(false), addsTracks: false })).toBeNull();
  });

  it('aims an appending undo at the removal result followed by the removed entries in their old order', () => {
    const original = seq('a', 'b', 'c', 'd', 'e');
    const removed = [removal(3, 'd'), removal(1, 'b')];
    const start = expectedAfterRemoval(original, new Set([1, 3]));
    const target = restoreByAppending(original, start, removed);
    expect(target.map((entry) => entry.key)).toEqual(['a', 'c', 'e', 'b', 'd']);
    // Only the appended tail may be filled; a crashed undo resumes with what is still missing.
    expect([...restorablePositions('appended', target, removed)]).toEqual([3, 4]);
    expect(putBacksToExpected(seq('a', 'c', 'e', 'b'), target)).toEqual([{ position: 4, key: 'd' }]);
    expect([...restorablePositions('positions', original, removed)].sort()).toEqual([1, 3]);
  });

  it('names each entry that did not regain its place, and says so when the order is intact anyway', () => {
    const original = seq('a', 'b', 'c', 'd', 'e');
    const moved = restoreNotes('appended', 'Service', restoreByAppending(original, seq('a', 'c', 'e'), [removal(1, 'b'), removal(3, 'd')]), [removal(1, 'b'), removal(3, 'd')], [3, 4]);
    expect(moved).toEqual([
      'Order not restored: Service can only add songs at the end of a playlist, so 2 entries are back but not where they were.',
      '“Song b” — Artist: was at position 1, now at position 3 (the end).',
      '“Song d” — Artist: was at position 3, now at position 4 (the end).',
    ]);
    expect(restoreNotes('appended', 'Service', original, [removal(4, 'e')], [4])).toEqual(['1 removed entry was added back at the end, which is where it was.']);
    expect(restoreNotes('positions', 'Service', original, [removal(1, 'b')], [1])).toEqual(['1 removed entry was put back at its position (1).']);
  });
});
