/**
 * Release dates as spreadsheets hold them, read into the model's `YYYY`, `YYYY-MM` or `YYYY-MM-DD`.
 *
 * Besides the ISO form Exportify writes, a file opened and saved again in Excel holds the date in
 * the locale's form: day first with dots (`14.04.2017`, German, Russian, Polish, …), or with slashes
 * day first (`21/05/1997`, British, French, …) or month first (`5/21/1997`, American). The
 * four-digit year is certain in every one. Dots are always day first. Slashes are not: a part above
 * 12 can only be the day, which settles the other one as the month; when both are 12 or less
 * (`03/12/2001`) nothing in the cell tells them apart, so only the year is kept, never a guessed day
 * (`ambiguous` tells the caller to say so) — unless they are equal (`05/05/1997`). A day the month
 * does not have (`31/04/1997`) is no date.
 */

export interface ReleaseDate {
  readonly date: string;
  readonly year: number;
  /** Day and month could not be told apart: `date` is the year alone. */
  readonly ambiguous: boolean;
}

const ISO_DATE = /^(\d{4})(?:-(0[1-9]|1[0-2])(?:-(0[1-9]|[12]\d|3[01]))?)?$/;
const DOTTED_DATE = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/;
const SLASHED_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  // Day 0 of the next month is the last day of this one (UTC, so no time zone moves it).
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function dayDate(year: number, month: number, day: number): ReleaseDate | null {
  if (!isCalendarDate(year, month, day)) return null;
  return { date: `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`, year, ambiguous: false };
}

/** The release date a cell holds, or null when it holds no date (the caller reports it). */
export function releaseDateOf(cell: string): ReleaseDate | null {
  const iso = ISO_DATE.exec(cell);
  if (iso !== null) return { date: cell, year: Number(iso[1]), ambiguous: false };
  const dotted = DOTTED_DATE.exec(cell);
  if (dotted !== null) return dayDate(Number(dotted[3]), Number(dotted[2]), Number(dotted[1]));
  const slashed = SLASHED_DATE.exec(cell);
  if (slashed === null) return null;
  const first = Number(slashed[1]);
  const second = Number(slashed[2]);
  const year = Number(slashed[3]);
  if (first > 12 && second > 12) return null;
  if (first > 12) return dayDate(year, second, first);
  if (second > 12) return dayDate(year, first, second);
  // The same number twice (`05/05/1997`) is the same date in either reading.
  if (first === second) return dayDate(year, first, second);
  // A zero part is no date in either reading.
  if (first === 0 || second === 0) return null;
  return { date: String(year).padStart(4, '0'), year, ambiguous: true };
}
