import { describe, expect, it } from 'vitest';
import * as run from './generation-run.sql.ts';
import * as drafts from './generator.sql.ts';

/**
 * Every statement on drafts names the owner (drafts are private), except the owner-independent
 * maintenance ones (expiry, abandoned generations), which read no content for anyone.
 */

const MAINTENANCE = new Set(['deleteExpiredDrafts', 'endAbandonedGenerations']);
const OWNER = 'owner-under-test';
const item = { status: 'resolved', approved: true, targetUri: 'x:1', targetId: '1', title: 't', artist: 'a', album: null, durationS: null, isrc: null, explicit: null, confidence: null, reason: null, intent: null } as const;

/** Plausible arguments by parameter position: the owner first, as every owner-scoped statement takes it. */
function call(name: string, fn: (...args: unknown[]) => unknown): { text: string; values: unknown[] }[] {
  const args: Record<string, unknown[]> = {
    insertDraft: [{ id: 'd', ownerId: OWNER, targetProvider: 'p', targetAccountId: 'a', name: 'n', controls: {}, promptHash: 'h', generation: {}, ttlHours: 1 }],
    insertDraftItems: ['d', OWNER, [item]],
    claimDraft: [OWNER, 'd', 'job'],
    updateDraftItem: [OWNER, 'd', 'i', { approved: true }],
    reorderDraftItems: [OWNER, 'd', ['i']],
    appendDraftItem: [OWNER, 'd', item],
    settleItem: [OWNER, 'd', 'i', item],
    replaceItemTrack: [OWNER, 'd', 'i', item],
    refillSlot: [OWNER, 'd', 'i', { title: 't', artist: 'a', album: null }],
    updateGeneration: [OWNER, 'd', {}],
    beginRegeneration: [OWNER, 'd', {}, 'h', {}],
    selectItemEvents: [OWNER, 'd', 0, 10],
    selectDrafts: [OWNER, 10],
    renameDraft: [OWNER, 'd', 'n'],
    abandonPendingItems: [OWNER, 'd', 'r'],
  };
  const result = fn(...(args[name] ?? [OWNER, 'd', 'x']));
  return (Array.isArray(result) ? result : [result]) as { text: string; values: unknown[] }[];
}

describe('generator SQL', () => {
  const statements = Object.entries({ ...drafts, ...run }).filter(([name, value]) => typeof value === 'function' && !MAINTENANCE.has(name));

  it.each(statements)('%s filters by the owner', (name, fn) => {
    for (const statement of call(name, fn as (...args: unknown[]) => unknown)) {
      expect(statement.text, name).toMatch(/owner_id/);
      expect(statement.values, name).toContain(OWNER);
    }
  });
});
