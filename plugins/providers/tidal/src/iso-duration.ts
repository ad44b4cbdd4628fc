/**
 * ISO-8601 durations as TIDAL writes them (`PT3M25S`, `PT1H2M3.5S`, `P1DT2H`) to seconds. Calendar
 * parts (years, months, weeks) have no fixed length and never occur in track durations: they
 * make the value unreadable (null) rather than guessed.
 */
const DURATION = /^P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

export function isoDurationSeconds(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const match = DURATION.exec(value.trim());
  if (!match || value.trim() === 'P' || value.trim().endsWith('T')) return null;
  const [, days, hours, minutes, seconds] = match;
  if (days === undefined && hours === undefined && minutes === undefined && seconds === undefined) return null;
  const total = Number(days ?? 0) * 86_400 + Number(hours ?? 0) * 3_600 + Number(minutes ?? 0) * 60 + Number(seconds ?? 0);
  // Millisecond precision is all any provider has; it also keeps 0.1 + 0.2 noise out of the model.
  return Math.round(total * 1000) / 1000;
}
