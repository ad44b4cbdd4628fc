import { describe, expect, it } from 'vitest';
import { diffPath, parseDiff, parseHandover, parseWorkspace, resolveSummary, stateLabel, workspacePath } from '../../../ui/src/api/library-workspace.ts';

/** The Library page's reading of the workspace API and of the hand-over to the Migrate page. */

const member = {
  key: 'a1/p1',
  account_id: 'a1',
  provider: 'spotify',
  account_name: 'Me',
  playlist_id: 'p1',
  name: 'Mix',
  kind: 'PLAYLIST',
  track_count: 4,
  tracks_read: true,
  holds: 3,
  missing: 1,
  unknown: 1,
  status: { state: 'partially_migrated', migrated: 2, total: 4, exact: true, target_account_id: 't', sync_rule: null },
};

describe('library workspace API', () => {
  it('parses groups, members and statuses, and refuses a body without them', () => {
    const workspace = parseWorkspace({ accounts: [{ account_id: 'a1', provider: 'spotify', display_name: null, status: 'connected', fetched_at: null, playlists: 1, tracks_read: 1 }], groups: [{ id: 'g', name: 'Mix', songs: 4, members: [member], reasons: [{ kind: 'same_name', members: ['a1/p1', 'b/p'], detail: 'x' }] }] });
    expect(workspace?.groups[0]?.members[0]).toMatchObject({ key: 'a1/p1', holds: 3, unknown: 1, status: { state: 'partially_migrated', migrated: 2, total: 4 } });
    expect(stateLabel(workspace!.groups[0]!.members[0]!.status!)).toBe('Partially migrated (2 of 4)');
    expect(parseWorkspace({ accounts: [] })).toBeUndefined();
    expect(parseWorkspace({ accounts: [], groups: [{ id: 'g', members: [{ key: 1 }], reasons: [] }] })).toBeUndefined();
  });

  it('builds its paths with the target and members encoded', () => {
    expect(workspacePath(null)).toBe('/api/library/workspace');
    expect(workspacePath({ provider: 'tidal', accountId: 'x y' })).toBe('/api/library/workspace?target_provider=tidal&target_account_id=x+y');
    expect(diffPath('a/1', 'b/2')).toBe('/api/library/diff?a=a%2F1&b=b%2F2');
  });

  it('parses a diff', () => {
    const track = { position: 2, title: 'T', artist: 'A' };
    const diff = parseDiff({ a: { key: 'a', name: 'A', provider: 'spotify', track_count: 3 }, b: { key: 'b', name: 'B', provider: 'tidal', track_count: 2 }, only_a: [track], only_b: [], both: [{}, {}], moved: [{ a: track, b: track }], not_compared: { a: [], b: [track] } });
    expect(diff).toMatchObject({ both: 2, onlyA: [track], moved: [{ a: track, b: track }], notCompared: { b: [track] } });
  });

  it('accepts only a complete hand-over', () => {
    const handover = { sourceAccountId: 'a', sourceProvider: 'spotify', playlistId: 'p', playlistName: 'Mix', trackKeys: ['pos:1', 2], targetAccountId: 't', targetName: 'Me on tidal' };
    expect(parseHandover(JSON.stringify(handover))?.trackKeys).toEqual(['pos:1']);
    expect(parseHandover(JSON.stringify({ ...handover, targetAccountId: undefined }))).toBeUndefined();
    expect(parseHandover('{not json')).toBeUndefined();
    expect(parseHandover(null)).toBeUndefined();
  });
});

describe('resolving songs not compared yet', () => {
  it('reads how many searches it takes at most, and says what a resolution did', () => {
    const side = { key: 'a', name: 'A', provider: 'spotify', track_count: 1 };
    expect(parseDiff({ a: side, b: side, only_a: [], only_b: [], both: [], moved: [], not_compared: { a: [], b: [] }, searches_needed: 3 })?.searchesNeeded).toBe(3);
    expect(parseDiff({ a: side, b: side, only_a: [], only_b: [], both: [], moved: [], not_compared: { a: [], b: [] } })?.searchesNeeded).toBe(0);
    expect(resolveSummary({ searches: 2, resolved: 2, unmatched: 0, remaining: 0, stopped: null })).toBe('2 searches made: 2 compared now, 0 without a match.');
    expect(resolveSummary({ searches: 1, resolved: 0, unmatched: 0, remaining: 1, stopped: { error: 'RateLimited', retry_after_s: 30 } })).toBe(
      '1 search made: 0 compared now, 0 without a match. Stopped early (RateLimited): try again later.',
    );
    expect(resolveSummary('nonsense')).toBeUndefined();
  });
});
