import { describe, expect, it } from 'vitest';
import { longestIncreasingRun, diffMembers } from '../../../../core/services/library/member-diff.ts';
import { migrationStatus } from '../../../../core/services/library/migration-status.ts';
import { groupMembers, normalizeName, type GroupingMember } from '../../../../core/services/library/workspace-grouping.ts';

/** The workspace's pure parts: grouping evidence and its limits, migration status, the diff's order. */

const member = (key: string, accountId: string, name: string, songs: readonly string[] | null, kind = 'PLAYLIST'): GroupingMember => ({ key, accountId, name, kind, identities: songs ? new Set(songs) : null });
const groupsOf = (groups: ReturnType<typeof groupMembers>) => groups.map((group) => [...group.members].sort()).sort();

describe('groupMembers', () => {
  it('names compare without case, accents or punctuation', () => {
    expect(normalizeName('  Café  Mix!! ')).toBe(normalizeName('cafe mix'));
  });

  it('needs songs in common for a name, and enough of them without one', () => {
    const members = [
      member('a/1', 'a', 'Mix', ['s1', 's2', 's3', 's4']),
      member('b/1', 'b', 'mix', ['s1', 'x1', 'x2', 'x3']),
      member('c/1', 'c', 'MIX', ['y1', 'y2', 'y3']),
      member('c/2', 'c', 'Other', ['s1', 's2', 's3', 'z1']),
      member('d/1', 'd', 'Mix', null),
    ];
    const groups = groupMembers(members, [], []);
    // b shares 1 of 4 (25 %) with the same name; c/2 shares 3 of 4 under another name; c/1's songs differ; d was never read.
    expect(groupsOf(groups)).toEqual([['a/1', 'b/1', 'c/2'], ['c/1'], ['d/1']]);
    expect(groups.find((group) => group.members.includes('a/1'))!.reasons.map((reason) => reason.kind).sort()).toEqual(['same_name', 'track_overlap']);
  });

  it('never joins two playlists of one account by songs or names, but lineage and the user may', () => {
    const members = [member('a/1', 'a', 'Mix', ['s1', 's2', 's3']), member('a/2', 'a', 'Mix', ['s1', 's2', 's3']), member('b/1', 'b', 'Mix', ['s1', 's2', 's3'])];
    expect(groupsOf(groupMembers(members, [], []))).toEqual([['a/1', 'b/1'], ['a/2']]);
    expect(groupsOf(groupMembers(members, [{ kind: 'migration', a: 'b/1', b: 'a/2', detail: '' }], []))).toEqual([['a/1'], ['a/2', 'b/1']]);
    expect(groupsOf(groupMembers(members, [], [{ a: 'a/1', b: 'a/2', relation: 'linked' }]))).toEqual([['a/1', 'a/2', 'b/1']]);
  });

  it("a user's split outranks every evidence, even a migration", () => {
    const members = [member('a/1', 'a', 'Mix', ['s1']), member('b/1', 'b', 'Mix', ['s1']), member('c/1', 'c', 'Mix', ['s1'])];
    const lineage = [{ kind: 'migration' as const, a: 'a/1', b: 'b/1', detail: '' }];
    const apart = [
      { a: 'a/1', b: 'b/1', relation: 'apart' as const },
      { a: 'c/1', b: 'b/1', relation: 'apart' as const },
    ];
    expect(groupsOf(groupMembers(members, lineage, apart))).toEqual([['a/1', 'c/1'], ['b/1']]);
  });

  it('liked collections of different accounts belong together', () => {
    const groups = groupMembers([member('a/liked', 'a', 'Liked songs', ['s1'], 'LIKED_TRACKS'), member('b/liked', 'b', 'Favourites', ['x'], 'LIKED_TRACKS')], [], []);
    expect(groups).toHaveLength(1);
    expect(groups[0]!.reasons.map((reason) => reason.kind)).toEqual(['liked_collections']);
  });
});

describe('migrationStatus', () => {
  const input = { trackCount: null, hasLineage: false, rule: null };
  it('counts the migratable songs the ledger shows in the target', () => {
    const tracks = [['t1', true], ['t2', true], ['t3', true], [null, false]] as const;
    expect(migrationStatus('x', { ...input, tracks, migratedIds: new Set() }).state).toBe('not_migrated');
    expect(migrationStatus('x', { ...input, tracks, migratedIds: new Set(['t1', 'zz']) })).toMatchObject({ state: 'partially_migrated', migrated: 1, total: 3, exact: true });
    expect(migrationStatus('x', { ...input, tracks, migratedIds: new Set(['t1', 't2', 't3']) }).state).toBe('migrated');
    expect(migrationStatus('x', { ...input, tracks, migratedIds: new Set(), rule: { id: 'r', status: 'active' } }).state).toBe('in_sync');
    expect(migrationStatus('x', { ...input, tracks, migratedIds: new Set(['t1']), rule: { id: 'r', status: 'paused' } }).state).toBe('partially_migrated');
  });
  it('estimates from the list when the songs were not read', () => {
    expect(migrationStatus('x', { ...input, tracks: null, trackCount: 2, migratedIds: new Set(['a', 'b', 'c']) })).toMatchObject({ state: 'migrated', migrated: 2, total: 2, exact: false });
  });
});

describe('diffMembers', () => {
  const track = (position: number, identity: string | null) => ({ position, title: `t${position}`, artist: 'a', album: null, isrc: null, track_id: null, uri: null, identity });
  it('sorts songs into only A, only B, both, moved and not compared', () => {
    const diff = diffMembers([track(0, 'x'), track(1, 'y'), track(2, 'z'), track(3, null)], [track(0, 'z'), track(1, 'x'), track(2, 'y'), track(3, 'w')]);
    expect(diff.only_a).toEqual([]);
    expect(diff.only_b.map((entry) => entry.title)).toEqual(['t3']);
    expect(diff.both).toHaveLength(3);
    expect(diff.moved.map((pair) => pair.a.title)).toEqual(['t2']);
    expect(diff.not_compared.a.map((entry) => entry.title)).toEqual(['t3']);
  });
  it('keeps a longest run in order', () => {
    expect([...longestIncreasingRun([3, 1, 2, 5, 4])].sort()).toEqual([1, 2, 4]);
    expect(longestIncreasingRun([])).toEqual(new Set());
  });
});
