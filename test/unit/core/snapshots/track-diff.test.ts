import { describe, expect, it } from 'vitest';
import { diffTrackOf, diffTracks, trackIdentity, type DiffTrack } from '../../../../core/services/snapshots/track-diff.ts';

/** The track-level diff between two versions of a playlist (issue 30 item 7). */

const song = (id: string): DiffTrack => diffTrackOf({ id, isrc: null, title: `Song ${id}`, artist: 'Band', album: null });
const list = (ids: string) => ids.split('').map(song);
const ids = (entries: { track: DiffTrack }[]) => entries.map((entry) => entry.track.id).join('');

describe('trackIdentity', () => {
  it('uses the provider id, else the ISRC, else the normalised title and artist', () => {
    expect(trackIdentity({ id: 'abc', isrc: 'USRC17607839', title: 'X', artist: 'Y' })).toBe('id:abc');
    expect(trackIdentity({ id: null, isrc: 'us-rc1-76-07839', title: 'X', artist: 'Y' })).toBe('isrc:USRC17607839');
    expect(trackIdentity({ id: null, isrc: 'not an isrc', title: 'Héllo, World!', artist: 'The  Band' })).toBe(trackIdentity({ id: null, isrc: null, title: 'hello world', artist: 'the band' }));
    expect(trackIdentity({ id: null, isrc: null, title: 'Hello', artist: 'A' })).not.toBe(trackIdentity({ id: null, isrc: null, title: 'Hello', artist: 'B' }));
  });
});

describe('diffTracks', () => {
  it('finds nothing between equal lists', () => {
    expect(diffTracks(list('abcd'), list('abcd'))).toEqual({ added: [], removed: [], moved: [], unchanged: 4 });
  });

  it('reports additions and removals with their positions, not the shifted neighbours as moves', () => {
    const diff = diffTracks(list('abcd'), list('xabd'));
    expect(diff.added).toEqual([{ position: 0, track: song('x') }]);
    expect(diff.removed).toEqual([{ position: 2, track: song('c') }]);
    expect(diff.moved).toEqual([]);
    expect(diff.unchanged).toBe(3);
  });

  it('reports one song taken to another place as one move', () => {
    const diff = diffTracks(list('abcdef'), list('bcdeaf'));
    expect(diff.moved).toEqual([{ from: 0, to: 4, track: song('a') }]);
    expect(diff.added).toEqual([]);
    expect(diff.removed).toEqual([]);
    expect(diff.unchanged).toBe(5);
  });

  it('reports a reversed list with the fewest moves', () => {
    const diff = diffTracks(list('abcd'), list('dcba'));
    expect(diff.moved).toHaveLength(3);
    expect(diff.unchanged).toBe(1);
  });

  it('pairs duplicate copies in order: an extra copy is an addition, a lost copy a removal', () => {
    const more = diffTracks(list('aba'), list('abaa'));
    expect(more.added).toEqual([{ position: 3, track: song('a') }]);
    expect(more.removed).toEqual([]);
    expect(more.moved).toEqual([]);
    const fewer = diffTracks(list('aab'), list('ab'));
    expect(fewer.removed).toEqual([{ position: 1, track: song('a') }]);
    expect(fewer.added).toEqual([]);
    expect(fewer.moved).toEqual([]);
  });

  it('tells a removed song and a new one apart from a move', () => {
    const diff = diffTracks(list('abc'), list('acd'));
    expect(ids(diff.removed)).toBe('b');
    expect(ids(diff.added)).toBe('d');
    expect(diff.moved).toEqual([]);
  });

  it('compares tracks without ids by their text identity', () => {
    const before = [diffTrackOf({ id: null, isrc: null, title: 'Blue (Remastered)', artist: 'Band', album: null })];
    const after = [diffTrackOf({ id: null, isrc: null, title: 'blue remastered', artist: 'BAND', album: 'Other' })];
    expect(diffTracks(before, after)).toMatchObject({ added: [], removed: [], unchanged: 1 });
  });

  it('handles empty sides', () => {
    expect(diffTracks([], list('ab'))).toMatchObject({ added: [{ position: 0 }, { position: 1 }], removed: [], moved: [], unchanged: 0 });
    expect(diffTracks(list('ab'), [])).toMatchObject({ removed: [{ position: 0 }, { position: 1 }], added: [], moved: [], unchanged: 0 });
  });
});
