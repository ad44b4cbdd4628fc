/**
 * A library's `Release Date` (`<date>2016-04-29T07:00:00Z</date>`) as the model's release date,
 * keeping only what the value makes certain.
 *
 * A release date has no time of day, yet the plist stores an instant in UTC. What was written is
 * the start of the day in some time zone — UTC, or the zone of the computer or store that wrote
 * it (iTunes Store purchases carry midnight Pacific, `T07:00:00Z` / `T08:00:00Z`; a library edited
 * in Berlin carries `T22:00:00Z` / `T23:00:00Z` of the day before) — or noon UTC (Apple Music's
 * catalogue, `T12:00:00Z`), and the file does not say which. Zones run from UTC−12 to UTC+14, so:
 * - before 10:00 UTC the instant is a midnight only in UTC or a zone behind it, so every reading
 *   gives the UTC day;
 * - from 10:00 UTC on it may be the UTC day (a zone behind UTC, a UTC convention) or the next day
 *   (midnight in a zone ahead of UTC: 12:00 is midnight in New Zealand, 23:00 in Central Europe).
 * Of those two days only what they share is kept: the month when both are in it, else the year
 * when both are in it, else nothing. The day is never guessed.
 */

const PLIST_DATE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;
const DAY_MS = 86_400_000;
/** The earliest UTC hour at which the value may be the midnight of the next day (in UTC+14). */
const EARLIEST_AHEAD_HOUR = 10;

export interface LibraryReleaseDate {
  /** `YYYY-MM-DD`, `YYYY-MM` or `YYYY`: what every reading of the value agrees on. */
  readonly date: string;
  readonly year: number;
}

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** What the value makes certain, or null when it is no plist date or not even its year is certain. */
export function libraryReleaseDate(value: string): LibraryReleaseDate | null {
  const match = PLIST_DATE.exec(value.trim());
  if (match === null) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [number, number, number, number, number, number];
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  // Date.UTC rolls an impossible date over (Feb 30 ⇒ Mar 2): such a value is no date.
  if (isoDay(ms) !== match.slice(1, 4).join('-') || hour > 23 || minute > 59 || second > 59) return null;
  const first = isoDay(ms);
  const last = hour < EARLIEST_AHEAD_HOUR ? first : isoDay(ms + DAY_MS);
  const kept = first === last ? first : first.slice(0, 7) === last.slice(0, 7) ? first.slice(0, 7) : first.slice(0, 4) === last.slice(0, 4) ? first.slice(0, 4) : null;
  return kept === null ? null : { date: kept, year: Number(kept.slice(0, 4)) };
}
