import { describe, expect, it } from 'vitest';
import { approvePath, parseMirrorPreview, parseRule, ruleStateLabel, syncPath } from '../../../ui/src/api/syncs.ts';

const rule = {
  id: 'r1',
  name: 'Evening',
  collection_kind: 'PLAYLIST',
  source: { provider: 'tidal', account_id: 'a1', playlist_id: 'p1' },
  target: { provider: 'spotify', account_id: 'a2', playlist_id: 'p2' },
  mode: 'mirror',
  status: 'approval_required',
  pause_reason: null,
  action: { type: 'approve', run_id: 'run 1' },
  schedule: { kind: 'interval', every_minutes: 60 },
  next_run_at: null,
  last_run_at: null,
  active_run: { id: 'run 1', status: 'approval_required', migration_job_id: null },
};

describe('sync API (mirror)', () => {
  it('reads a rule waiting for approval, with the run to approve', () => {
    const parsed = parseRule(rule)!;
    expect(parsed).toMatchObject({ mode: 'mirror', status: 'approval_required', action: { type: 'approve', runId: 'run 1' } });
    expect(ruleStateLabel(parsed)).toBe('Waiting for your approval of removals');
    expect(approvePath(parsed.id, 'run 1')).toBe('/api/syncs/r1/runs/run%201/approve');
    expect(syncPath('r1', 'preview')).toBe('/api/syncs/r1/preview');
    expect(parseRule({ ...rule, status: 'mystery' })).toBeUndefined();
  });

  it('reads a mirror preview, and refuses an answer without the documented fields', () => {
    const preview = parseMirrorPreview({
      can_mirror: true,
      mirror_unavailable_reason: null,
      add: [{ title: 'A – New' }],
      add_count: 1,
      remove: [{ uri: 'spotify:track:1', title: 'B – Gone' }],
      remove_count: 1,
      move_count: 2,
      unmatched_count: 0,
      foreign_entries: 3,
      removal_cap: 20,
      needs_approval: false,
    });
    expect(preview).toEqual({ canMirror: true, reason: null, add: ['A – New'], addCount: 1, remove: ['B – Gone'], removeCount: 1, moveCount: 2, unmatchedCount: 0, foreignEntries: 3, removalCap: 20, needsApproval: false });
    expect(parseMirrorPreview({ can_mirror: false, mirror_unavailable_reason: 'TIDAL cannot' })).toMatchObject({ canMirror: false, reason: 'TIDAL cannot', removeCount: 0 });
    expect(parseMirrorPreview({})).toBeUndefined();
  });
});
