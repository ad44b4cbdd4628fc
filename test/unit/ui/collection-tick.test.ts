import { describe, expect, it } from 'vitest';
import { chooseCollectionTracks, chosenTracks, collectionTick, tickCollection, type CollectionChoice } from '../../../ui/src/components/migrate-page/selection-step/collection-tick.ts';

const none: CollectionChoice = { selected: new Set(), tracks: {} };
const all = ['pos:0', 'pos:1', 'pos:2'];

describe("a playlist's own checkbox", () => {
  it('is partly ticked (mixed) when only some of its tracks are chosen, as "N chosen" beside it says', () => {
    const some = chooseCollectionTracks(none, 'road-trip', ['pos:0', 'pos:2'], all);
    expect(collectionTick(some, 'road-trip')).toBe('mixed');
    expect(some.tracks['road-trip']).toEqual(['pos:0', 'pos:2']);
    expect(collectionTick(some, 'other')).toBe('unchecked');
  });

  it('is ticked when the whole playlist goes, every track chosen included, and unticked when none does', () => {
    expect(collectionTick(tickCollection(none, 'road-trip', true), 'road-trip')).toBe('checked');
    const every = chooseCollectionTracks(none, 'road-trip', all, all);
    expect(collectionTick(every, 'road-trip')).toBe('checked');
    expect(every.tracks).toEqual({});
    const nothingLeft = chooseCollectionTracks(every, 'road-trip', [], all);
    expect(collectionTick(nothingLeft, 'road-trip')).toBe('unchecked');
    expect(nothingLeft.tracks).toEqual({});
    expect(nothingLeft.selected.has('road-trip')).toBe(false);
  });

  it('pressed while mixed, chooses the whole playlist; unticked, none of it, its picked tracks forgotten', () => {
    const some = chooseCollectionTracks(none, 'road-trip', ['pos:1'], all);
    const whole = tickCollection(some, 'road-trip', true);
    expect(collectionTick(whole, 'road-trip')).toBe('checked');
    expect(whole.tracks).toEqual({});
    const unticked = tickCollection(some, 'road-trip', false);
    expect(collectionTick(unticked, 'road-trip')).toBe('unchecked');
    expect(unticked.tracks).toEqual({});
    // Ticking it again is the whole playlist, not the tracks picked before.
    expect(collectionTick(tickCollection(unticked, 'road-trip', true), 'road-trip')).toBe('checked');
  });

  it('leaves the other playlists as they were', () => {
    const other = chooseCollectionTracks(tickCollection(none, 'focus', true), 'mix', ['pos:0'], all);
    const next = tickCollection(other, 'road-trip', true);
    expect(collectionTick(next, 'focus')).toBe('checked');
    expect(collectionTick(next, 'mix')).toBe('mixed');
    expect(other.selected.has('road-trip')).toBe(false);
  });
});

describe('playlist ids named like JavaScript object members', () => {
  it('are ticked whole, not mixed, and keep their own chosen tracks only', () => {
    const whole = tickCollection(none, 'constructor', true);
    expect(collectionTick(whole, 'constructor')).toBe('checked');
    expect(chosenTracks(whole.tracks, 'constructor')).toBeUndefined();
    expect(chosenTracks(whole.tracks, 'toString')).toBeUndefined();
    const some = chooseCollectionTracks(whole, 'constructor', ['pos:1'], all);
    expect(collectionTick(some, 'constructor')).toBe('mixed');
    expect(chosenTracks(some.tracks, 'constructor')).toEqual(['pos:1']);
  });
});
