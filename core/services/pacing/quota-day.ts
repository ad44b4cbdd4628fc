/**
 * Quota days in a provider's own time zone. Providers reset daily quotas at their local midnight
 * (YouTube: midnight Pacific time), which moves against UTC twice a year; these functions let the
 * limiter and the forecast agree on which day a request counts against and when it turns over.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    formatters.set(timeZone, format);
  }
  return format;
}

interface LocalParts {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

function localParts(at: Date, timeZone: string): LocalParts {
  const parts: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(at)) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return { year: parts['year']!, month: parts['month']!, day: parts['day']!, hour: parts['hour']!, minute: parts['minute']!, second: parts['second']! };
}

/** The zone's offset from UTC at `at`, in ms (negative west of Greenwich). */
function offsetMs(at: Date, timeZone: string): number {
  const local = localParts(at, timeZone);
  const asUtc = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second);
  return asUtc - Math.floor(at.getTime() / 1000) * 1000;
}

/** `YYYY-MM-DD` of `at` in the zone: the quota day a request at that instant counts against. */
export function quotaDay(at: Date, timeZone = 'UTC'): string {
  const { year, month, day } = localParts(at, timeZone);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The instant the zone's next local midnight after `at` begins: when today's quota resets. */
export function nextQuotaReset(at: Date, timeZone = 'UTC'): Date {
  const { year, month, day } = localParts(at, timeZone);
  const midnightAsUtc = Date.UTC(year, month - 1, day + 1);
  // The offset at midnight may differ from the offset now (a DST change today): settle it twice.
  let guess = midnightAsUtc - offsetMs(at, timeZone);
  guess = midnightAsUtc - offsetMs(new Date(guess), timeZone);
  return new Date(midnightAsUtc - offsetMs(new Date(guess), timeZone));
}
