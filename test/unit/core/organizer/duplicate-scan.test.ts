import { describe, expect, it } from 'vitest';
import { trackSchema, type TrackInput } from '../../../../plugin-sdk/src/schemas.ts';
import { candidatePairs, duplicateEntries, identityKey, normalizePlaylistName, proposedRemovals } from '../../../../core/services/organizer/duplicate-scan.ts';
import { putBacksToExpected, sequenceHash, unselectedCopies, type SequenceEntry } from '../../../../core/services/organizer/playlist-sequence.ts';

const track = (fields: Partial<TrackInput> & { title: string; artist: string }) => trackSchema.parse({ artists: [fields.artist], ...fields });
const seq = (...keys: string[]): SequenceEntry[] => keys.map((key) => ({ key, entryId: null }));

describe('duplicate playlists', () => {
  it('normalizes names: case, accents, punctuation and spacing', () => {
    expect(normalizePlaylistName('  Café   Mix!! ')).toBe(normalizePlaylistName('cafe mix'));
    expect(normalizePlaylistName('Road Trip 2')).not.toBe(normalizePlaylistName('Road Trip'));
  });

  it('pairs same-named playlists of one owner with at least half of the smaller in common, counting the same song under other ids through the graph', () => {
    const graph = new Map([
      ['id-x1', 'identity-1'],
      ['id-x2', 'identity-1'],
    ]);
    const key = (id: string, isrc: string | null = null) => identityKey(track({ id, isrc, title: 't', artist: 'a' }), 'p', graph);
    const pairs = candidatePairs([
      { id: 'p1', name: 'Summer', owner_id: 'me', owner_name: 'Me', keys: [key('id-x1'), key('a', 'USRC1'), key('b'), key('c')] },
      { id: 'p2', name: 'summer!', owner_id: 'me', owner_name: 'Me', keys: [key('id-x2'), key('other-id', 'usrc1')] },
      { id: 'p3', name: 'Summer', owner_id: 'someone-else', owner_name: 'Them', keys: [key('id-x1'), key('a', 'USRC1')] },
      { id: 'p4', name: 'Winter', owner_id: 'me', owner_name: 'Me', keys: [key('id-x1')] },
    ]);
    expect(pairs).toHaveLength(1);
    expect(pairs[0]!.playlists.map((playlist) => playlist.id)).toEqual(['p1', 'p2']);
    expect(pairs[0]).toMatchObject({ overlap: 1, shared_songs: 2 });
    expect(pairs[0]!.evidence.join(' ')).toMatch(/ISRC or the identity graph/);
  });

  it('needs 50% against the smaller playlist', () => {
    const pairs = candidatePairs([
      { id: 'a', name: 'Mix', owner_id: null, owner_name: null, keys: ['id:1', 'id:2', 'id:3', 'id:4'] },
      { id: 'b', name: 'Mix', owner_id: null, owner_name: null, keys: ['id:1', 'id:5', 'id:6'] },
    ]);
    expect(pairs).toEqual([]);
  });
});

describe('duplicate entries inside a playlist', () => {
  const song = track({ id: '1', title: 'Golden Hour', artist: 'Mira Solberg', album: 'Blue Hours', duration_s: 200, isrc: 'AAA111', provider_uris: { p: 'p:1' } });
  const sameIsrcOtherId = track({ id: '2', title: 'Golden Hour', artist: 'Mira Solberg', album: 'Blue Hours', duration_s: 200, isrc: 'aaa111', provider_uris: { p: 'p:2' } });
  const sameRecordingNoIsrc = track({ id: '3', title: 'Golden Hour', artist: 'Mira Solberg', album: 'Blue Hours', duration_s: 201, provider_uris: { p: 'p:3' } });
  const live = track({ id: '4', title: 'Golden Hour (Live)', artist: 'Mira Solberg', album: 'Live at Home', duration_s: 230, provider_uris: { p: 'p:4' } });
  const other = track({ id: '5', title: 'Paper Moon', artist: 'Jonah Vance', duration_s: 180, provider_uris: { p: 'p:5' } });
  const tracks = [song, other, song, sameIsrcOtherId, sameRecordingNoIsrc, live];

  it('finds repeats at the chosen levels and says which is a duplicate of which', () => {
    const byId = duplicateEntries(tracks, 'p', ['same_id']);
    expect(byId).toHaveLength(1);
    expect(byId[0]).toMatchObject({ original: { position: 0 }, duplicates: [{ position: 2, matched_by: 'same_id' }] });
    const all = duplicateEntries(tracks, 'p', ['same_id', 'same_isrc', 'same_recording']);
    expect(all[0]!.duplicates.map((entry) => [entry.position, entry.matched_by])).toEqual([
      [2, 'same_id'],
      [3, 'same_isrc'],
      [4, 'same_recording'],
    ]);
  });

  it('never counts a live version as the same recording', () => {
    const all = duplicateEntries(tracks, 'p', ['same_id', 'same_isrc', 'same_recording']);
    expect(all.flatMap((group) => group.duplicates.map((entry) => entry.position))).not.toContain(5);
  });

  it('proposes removals by keep policy, without selecting anything', () => {
    const groups = duplicateEntries(tracks, 'p', ['same_id', 'same_isrc']);
    expect(proposedRemovals(groups, 'first').map((entry) => entry.position)).toEqual([2, 3]);
    expect(proposedRemovals(groups, 'last').map((entry) => entry.position)).toEqual([0, 2]);
  });
});

describe('playlist sequences', () => {
  it('finds the unselected copies of chosen songs', () => {
    expect(unselectedCopies(seq('A', 'B', 'A', 'C', 'A'), new Set([2]))).toEqual([0, 4]);
  });

  it('plans the put-back of extra copies, and refuses any other change', () => {
    const expected = seq('B', 'A', 'C', 'A');
    expect(putBacksToExpected(seq('B', 'C'), expected)).toEqual([
      { position: 1, key: 'A' },
      { position: 3, key: 'A' },
    ]);
    expect(putBacksToExpected(seq('B', 'D'), expected)).toBeNull();
    expect(putBacksToExpected(expected, expected)).toEqual([]);
  });

  it('hashes the order of songs', () => {
    expect(sequenceHash(seq('A', 'B'))).not.toBe(sequenceHash(seq('B', 'A')));
    expect(sequenceHash(seq('A', 'B'))).toBe(sequenceHash(seq('A', 'B')));
  });
});
