import { z } from 'zod';

/**
 * When a sync rule runs: every N minutes (5 minutes to a week), or daily at a wall-clock time in
 * the owner's time zone (03:00 in Europe/Berlin stays 03:00 across daylight-saving changes). Pure
 * functions of "now": the scheduler passes its clock in, so tests move time instead of waiting.
 */

export const MIN_INTERVAL_MINUTES = 5;
export const MAX_INTERVAL_MINUTES = 7 * 24 * 60;

export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export const scheduleSchema = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('interval'), every_minutes: z.number().int().min(MIN_INTERVAL_MINUTES).max(MAX_INTERVAL_MINUTES).describe('Minutes between runs: 5 to 10080 (a week)') }).strict(),
    z
      .object({
        kind: z.literal('daily'),
        at: z.string().regex(/^(?:[01]\d|2[0-3]):[0-5]\d$/, 'a wall-clock time HH:MM (00:00 to 23:59)'),
        time_zone: z.string().min(1).max(64).refine(isTimeZone, 'an IANA time zone such as Europe/Berlin'),
      })
      .strict(),
  ])
  .meta({ id: 'SyncSchedule' });

export type Schedule = z.output<typeof scheduleSchema>;

const formatters = new Map<string, Intl.DateTimeFormat>();

function partsIn(date: Date, timeZone: string): { year: number; month: number; day: number; hour: number; minute: number; second: number } {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    formatters.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(date).map((part) => [part.type, part.value]));
  return { year: Number(parts['year']), month: Number(parts['month']), day: Number(parts['day']), hour: Number(parts['hour']), minute: Number(parts['minute']), second: Number(parts['second']) };
}

/** How far the zone's wall clock is ahead of UTC at `date`, in ms. */
function offsetAt(date: Date, timeZone: string): number {
  const p = partsIn(date, timeZone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(date.getTime() / 1000) * 1000;
}

/** The instant a wall-clock time of a zone names (the later one when a DST gap skips it). */
function wallClockToInstant(year: number, month: number, day: number, hour: number, minute: number, timeZone: string): Date {
  const naive = Date.UTC(year, month - 1, day, hour, minute);
  const first = naive - offsetAt(new Date(naive), timeZone);
  const second = naive - offsetAt(new Date(first), timeZone);
  return new Date(Math.max(first, second));
}

/** The first daily slot strictly after `after`. */
function nextDaily(at: string, timeZone: string, after: Date): Date {
  const [hour, minute] = at.split(':').map(Number) as [number, number];
  const today = partsIn(after, timeZone);
  for (let days = 0; days < 3; days++) {
    const date = new Date(Date.UTC(today.year, today.month - 1, today.day + days));
    const slot = wallClockToInstant(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), hour, minute, timeZone);
    if (slot.getTime() > after.getTime()) return slot;
  }
  throw new Error(`no ${at} in ${timeZone} within three days of ${after.toISOString()}`);
}

/** The first slot after a new rule (or an edited schedule) was saved at `now`. */
export function firstSlot(schedule: Schedule, now: Date): Date {
  return schedule.kind === 'interval' ? new Date(now.getTime() + schedule.every_minutes * 60_000) : nextDaily(schedule.at, schedule.time_zone, now);
}

/**
 * The slot after `slot` that is still in the future at `now`. Slots missed while the engine was
 * down are skipped: the run made for `slot` catches them all up, so downtime never queues a run
 * per missed slot.
 */
export function slotAfter(schedule: Schedule, slot: Date, now: Date): Date {
  if (schedule.kind === 'daily') return nextDaily(schedule.at, schedule.time_zone, new Date(Math.max(slot.getTime(), now.getTime())));
  const step = schedule.every_minutes * 60_000;
  const behind = Math.max(0, now.getTime() - slot.getTime());
  return new Date(slot.getTime() + (Math.floor(behind / step) + 1) * step);
}

/** Consecutive failures after which a rule pauses with the last reason. */
export const MAX_CONSECUTIVE_FAILURES = 5;

/**
 * When a transiently failed run is tried again: soon (2, 4, 8, 16 minutes …), never later than
 * the rule's own next slot would be.
 */
export function retryAt(schedule: Schedule, failures: number, now: Date): Date {
  const backoff = Math.min(2 ** Math.max(0, failures - 1) * 2, 60) * 60_000;
  const regular = firstSlot(schedule, now).getTime() - now.getTime();
  return new Date(now.getTime() + Math.min(backoff, regular));
}

/** A stored rule's schedule. */
export function scheduleOf(row: { schedule_kind: unknown; interval_minutes: unknown; daily_at: unknown; time_zone: unknown }): Schedule {
  return row.schedule_kind === 'daily'
    ? { kind: 'daily', at: String(row.daily_at), time_zone: String(row.time_zone) }
    : { kind: 'interval', every_minutes: Number(row.interval_minutes) };
}
