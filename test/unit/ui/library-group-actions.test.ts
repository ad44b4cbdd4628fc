import { describe, expect, it } from 'vitest';
import { groupHandover, parseGroupHandover } from '../../../ui/src/api/library-group-actions.ts';
import type { WorkspaceGroup, WorkspaceMember } from '../../../ui/src/api/library-workspace.ts';
import { focusCopy } from '../../../ui/src/components/organizer-page/organizer-duplicates.template.ts';

/** What a Library group hands to the Export page and to the Organizer's duplicate view. */

const member = (accountId: string, playlistId: string, holds: number): WorkspaceMember => ({
  key: `${accountId}/${playlistId}`,
  accountId,
  provider: accountId === 'a' ? 'spotify' : 'tidal',
  accountName: null,
  playlistId,
  name: `Mix ${playlistId}`,
  kind: 'PLAYLIST',
  trackCount: holds,
  tracksRead: true,
  holds,
  missing: 10 - holds,
  unknown: 0,
  status: null,
});

const group: WorkspaceGroup = { id: 'g', name: 'Mix', songs: 10, members: [member('a', 'p1', 4), member('b', 'q1', 9), member('a', 'p2', 6)], reasons: [] };

describe('library group hand-over', () => {
  it('has one copy per account, the most complete first, holding all of that account’s playlists of the group', () => {
    const handover = groupHandover(group);
    expect(handover).toMatchObject({ groupName: 'Mix', songs: 10 });
    expect(handover.copies.map((copy) => [copy.accountId, copy.playlistIds, copy.holds])).toEqual([
      ['b', ['q1'], 9],
      ['a', ['p1', 'p2'], 6],
    ]);
    // The Organizer opens where the group has most playlists: two on one account are duplicates there.
    expect(focusCopy(handover, ['a', 'b'])?.accountId).toBe('a');
    // Only a connected account's copy: an import has no duplicates to tidy.
    expect(focusCopy(handover, ['b'])?.accountId).toBe('b');
    expect(focusCopy(handover, [])).toBeUndefined();
  });

  it('reads back what it stored and refuses anything else', () => {
    const handover = groupHandover(group);
    expect(parseGroupHandover(JSON.stringify(handover))).toEqual(handover);
    expect(parseGroupHandover(null)).toBeUndefined();
    expect(parseGroupHandover('{not json')).toBeUndefined();
    expect(parseGroupHandover(JSON.stringify({ groupName: 'Mix', copies: [] }))).toBeUndefined();
    expect(parseGroupHandover(JSON.stringify({ groupName: 'Mix', copies: [{ accountId: 'a', provider: 'spotify', playlistIds: ['p'], playlistNames: [] }] }))).toBeUndefined();
  });
});
