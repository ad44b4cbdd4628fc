import { z } from 'zod';
import { firstSlot, isTimeZone } from '../sync/sync-schedule.ts';

/**
 * When a profile's snapshots are taken on their own (issue 30, item 2): daily or weekly at a
 * wall-clock time of the owner's time zone. The daily arithmetic (time zones, daylight saving) is
 * sync's: a weekly slot is the first daily slot that falls on the chosen weekday. Pure functions
 * of "now": the scheduler passes the injected clock, so tests move time instead of waiting.
 */

export const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const wallClock = z.string().regex(/^(?:[01]\d|2[0-3]):[0-5]\d$/, 'a wall-clock time HH:MM (00:00 to 23:59)');
const timeZone = z.string().min(1).max(64).refine(isTimeZone, 'an IANA time zone such as Europe/Berlin');

export const snapshotScheduleSchema = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('daily'), at: wallClock, time_zone: timeZone }).strict(),
    z.object({ kind: z.literal('weekly'), weekday: z.enum(WEEKDAYS), at: wallClock, time_zone: timeZone }).strict(),
  ])
  .meta({ id: 'SnapshotSchedule' });

export type SnapshotSchedule = z.output<typeof snapshotScheduleSchema>;

/**
 * Which of a profile's snapshots are kept. Each limit that is set applies: a snapshot goes when
 * `keep_last` newer snapshots of the profile exist, or when it is older than `keep_days` days —
 * except the newest good one (verified, with an archive), which is always kept.
 */
export const retentionSchema = z
  .object({
    keep_last: z.number().int().min(1).max(10_000).nullable().describe('Keep at most this many of the newest snapshots'),
    keep_days: z.number().int().min(1).max(36_500).nullable().describe('Keep no snapshot older than this many days'),
  })
  .strict()
  .refine((policy) => policy.keep_last !== null || policy.keep_days !== null, 'set keep_last, keep_days or both (or send null for no retention)')
  .meta({ id: 'SnapshotRetention' });

export type RetentionPolicy = z.output<typeof retentionSchema>;

const weekdayFormats = new Map<string, Intl.DateTimeFormat>();

function weekdayIn(date: Date, zone: string): Weekday {
  let format = weekdayFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, weekday: 'long' });
    weekdayFormats.set(zone, format);
  }
  return format.format(date).toLowerCase() as Weekday;
}

/** The first slot of `schedule` strictly after `after` (missed slots are never queued one by one). */
export function nextSnapshotSlot(schedule: SnapshotSchedule, after: Date): Date {
  const daily = { kind: 'daily' as const, at: schedule.at, time_zone: schedule.time_zone };
  let slot = firstSlot(daily, after);
  if (schedule.kind === 'daily') return slot;
  for (let day = 0; day < 8 && weekdayIn(slot, schedule.time_zone) !== schedule.weekday; day += 1) slot = firstSlot(daily, slot);
  return slot;
}

export interface RetainedSnapshot {
  id: string;
  status: string;
  createdAt: Date;
  /** Has an archive that verified when it was last checked. */
  good: boolean;
}

/** The snapshots the policy lets go, given the profile's finished snapshots (any order) at `now`. */
export function snapshotsToDelete(policy: RetentionPolicy, snapshots: readonly RetainedSnapshot[], now: Date): string[] {
  const newestFirst = [...snapshots].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id.localeCompare(a.id));
  const newestGood = newestFirst.find((snapshot) => snapshot.good)?.id;
  const oldest = policy.keep_days === null ? null : now.getTime() - policy.keep_days * 24 * 60 * 60 * 1000;
  return newestFirst
    .filter((snapshot, index) => {
      if (snapshot.id === newestGood) return false;
      const beyondCount = policy.keep_last !== null && index >= policy.keep_last;
      const tooOld = oldest !== null && snapshot.createdAt.getTime() < oldest;
      return beyondCount || tooOld;
    })
    .map((snapshot) => snapshot.id);
}
