import { describe, expect, it } from 'vitest';
import { nextSnapshotSlot, snapshotsToDelete, type RetainedSnapshot } from '../../../../core/services/snapshots/snapshot-schedule.ts';

/** Snapshot schedules (daily, weekly, in the owner's time zone) and the retention policy, as pure functions of "now". */

describe('snapshot schedule slots', () => {
  it('finds the next daily and weekly slot in the time zone, across a daylight-saving change', () => {
    const now = new Date('2026-03-27T12:00:00Z'); // a Friday; Berlin moves to summer time on Sunday the 29th
    expect(nextSnapshotSlot({ kind: 'daily', at: '03:00', time_zone: 'Europe/Berlin' }, now).toISOString()).toBe('2026-03-28T02:00:00.000Z');
    expect(nextSnapshotSlot({ kind: 'weekly', weekday: 'monday', at: '03:00', time_zone: 'Europe/Berlin' }, now).toISOString()).toBe('2026-03-30T01:00:00.000Z');
    // The same weekday later than now today, and strictly after a slot that is exactly now.
    expect(nextSnapshotSlot({ kind: 'weekly', weekday: 'friday', at: '14:00', time_zone: 'Europe/Berlin' }, now).toISOString()).toBe('2026-03-27T13:00:00.000Z');
    expect(nextSnapshotSlot({ kind: 'weekly', weekday: 'friday', at: '13:00', time_zone: 'Europe/Berlin' }, now).toISOString()).toBe('2026-04-03T11:00:00.000Z');
  });
});

describe('snapshot retention', () => {
  const now = new Date('2026-12-10T00:00:00Z');
  const day = (n: number) => new Date(now.getTime() - n * 24 * 60 * 60 * 1000);
  const snapshots: RetainedSnapshot[] = [
    { id: 'a', status: 'failed', createdAt: day(0), good: false },
    { id: 'b', status: 'completed', createdAt: day(1), good: true },
    { id: 'c', status: 'partial', createdAt: day(2), good: true },
    { id: 'd', status: 'completed', createdAt: day(10), good: true },
  ];

  it('lets go of what is beyond the newest N, or older than D days', () => {
    expect(snapshotsToDelete({ keep_last: 2, keep_days: null }, snapshots, now).sort()).toEqual(['c', 'd']);
    expect(snapshotsToDelete({ keep_last: null, keep_days: 5 }, snapshots, now)).toEqual(['d']);
    expect(snapshotsToDelete({ keep_last: 3, keep_days: 1.5 }, [...snapshots].reverse(), now).sort()).toEqual(['c', 'd']);
  });

  it('always keeps the newest good snapshot, however strict the policy', () => {
    expect(snapshotsToDelete({ keep_last: 1, keep_days: null }, snapshots, now).sort()).toEqual(['c', 'd']);
    expect(snapshotsToDelete({ keep_last: null, keep_days: 1 }, snapshots.slice(2), day(-100))).toEqual(['d']);
    expect(snapshotsToDelete({ keep_last: 1, keep_days: 1 }, [{ id: 'x', status: 'failed', createdAt: day(50), good: false }, { id: 'y', status: 'completed', createdAt: day(60), good: true }], now)).toEqual(['x']);
  });
});
