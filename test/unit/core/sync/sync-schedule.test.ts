import { describe, expect, it } from 'vitest';
import { firstSlot, retryAt, scheduleSchema, slotAfter } from '../../../../core/services/sync/sync-schedule.ts';
import { cycleThrough } from '../../../../core/services/sync/sync-graph.ts';
import { addedSince, readCollapsed, sourceState } from '../../../../core/services/sync/source-state.ts';
import type { Track } from '@opl/plugin-sdk';

const at = (iso: string) => new Date(iso);

describe('sync schedules', () => {
  it('accepts 5 minutes to a week, or HH:MM in a real time zone', () => {
    expect(scheduleSchema.safeParse({ kind: 'interval', every_minutes: 5 }).success).toBe(true);
    expect(scheduleSchema.safeParse({ kind: 'interval', every_minutes: 10_080 }).success).toBe(true);
    expect(scheduleSchema.safeParse({ kind: 'interval', every_minutes: 4 }).success).toBe(false);
    expect(scheduleSchema.safeParse({ kind: 'interval', every_minutes: 10_081 }).success).toBe(false);
    expect(scheduleSchema.safeParse({ kind: 'daily', at: '03:00', time_zone: 'America/New_York' }).success).toBe(true);
    expect(scheduleSchema.safeParse({ kind: 'daily', at: '24:00', time_zone: 'UTC' }).success).toBe(false);
    expect(scheduleSchema.safeParse({ kind: 'daily', at: '03:00', time_zone: 'Nowhere/Special' }).success).toBe(false);
  });

  it('skips every missed interval slot: downtime makes one run, then the grid goes on', () => {
    const schedule = { kind: 'interval' as const, every_minutes: 60 };
    expect(slotAfter(schedule, at('2026-01-01T00:00:00Z'), at('2026-01-01T00:00:00Z')).toISOString()).toBe('2026-01-01T01:00:00.000Z');
    expect(slotAfter(schedule, at('2026-01-01T00:00:00Z'), at('2026-01-03T05:30:00Z')).toISOString()).toBe('2026-01-03T06:00:00.000Z');
    expect(firstSlot(schedule, at('2026-01-01T00:10:00Z')).toISOString()).toBe('2026-01-01T01:10:00.000Z');
  });

  it('keeps a daily time on the wall clock across daylight-saving changes', () => {
    const schedule = { kind: 'daily' as const, at: '03:00', time_zone: 'Europe/Berlin' };
    // Winter: UTC+1.
    expect(firstSlot(schedule, at('2026-03-28T12:00:00Z')).toISOString()).toBe('2026-03-29T01:00:00.000Z');
    // The clocks went forward on 29 March: 03:00 is UTC+2 from then on.
    expect(slotAfter(schedule, at('2026-03-29T01:00:00Z'), at('2026-03-29T01:00:00Z')).toISOString()).toBe('2026-03-30T01:00:00.000Z');
    // A missed week makes one run; the next slot is the next 03:00.
    expect(slotAfter(schedule, at('2026-06-01T01:00:00Z'), at('2026-06-08T09:00:00Z')).toISOString()).toBe('2026-06-09T01:00:00.000Z');
    // 02:30 does not exist in Berlin on 29 March 2026: the later instant is taken.
    expect(firstSlot({ kind: 'daily', at: '02:30', time_zone: 'Europe/Berlin' }, at('2026-03-28T12:00:00Z')).toISOString()).toBe('2026-03-29T01:30:00.000Z');
  });

  it('retries transient failures sooner, never later than the next slot', () => {
    const hourly = { kind: 'interval' as const, every_minutes: 60 };
    const now = at('2026-01-01T00:00:00Z');
    expect(retryAt(hourly, 1, now).getTime() - now.getTime()).toBe(2 * 60_000);
    expect(retryAt(hourly, 3, now).getTime() - now.getTime()).toBe(8 * 60_000);
    expect(retryAt({ kind: 'interval', every_minutes: 5 }, 4, now).getTime() - now.getTime()).toBe(5 * 60_000);
  });
});

describe('sync loops', () => {
  const edge = (ruleId: string, from: string, to: string) => ({ ruleId, source: { accountId: from, playlistId: 'p' }, target: { accountId: to, playlistId: 'p' } });

  it('finds the inverse rule and longer loops, and nothing else', () => {
    expect(cycleThrough([edge('r1', 'a', 'b')], edge('x', 'b', 'a'))?.map((step) => step.ruleId)).toEqual(['r1']);
    expect(cycleThrough([edge('r1', 'a', 'b'), edge('r2', 'b', 'c')], edge('x', 'c', 'a'))?.map((step) => step.ruleId)).toEqual(['r1', 'r2']);
    expect(cycleThrough([edge('r1', 'a', 'b'), edge('r2', 'a', 'c')], edge('x', 'b', 'c'))).toBeNull();
    expect(cycleThrough([edge('r1', 'a', 'b')], { source: { accountId: 'b', playlistId: 'other' }, target: { accountId: 'a', playlistId: 'p' } })).toBeNull();
  });
});

describe('source state', () => {
  const track = (id: string): Track => ({ id, title: id, artist: 'x', provider_uris: { spotify: `spotify:track:${id}` } }) as unknown as Track;

  it('names the entries gained since the checkpoint, counting repeats', () => {
    const before = sourceState([track('a'), track('b')], 'spotify', 's1');
    const now = [track('b'), track('c'), track('a'), track('a')];
    expect(addedSince(before.keys, now, 'spotify').map(({ track: entry, index }) => `${entry.id}@${index}`)).toEqual(['c@1', 'a@3']);
    expect(sourceState([track('a'), track('b')], 'spotify', null).content_hash).toBe(before.content_hash);
    expect(sourceState([track('b'), track('a')], 'spotify', null).content_hash).not.toBe(before.content_hash);
  });

  it('takes a read under 40 % of the checkpoint as failed, from five entries on', () => {
    expect(readCollapsed(10, 3)).toBe(true);
    expect(readCollapsed(10, 4)).toBe(false);
    expect(readCollapsed(4, 0)).toBe(false);
  });
});
