/** Seconds of an ISO 8601 duration as YouTube writes it (`PT3M25S`, `PT1H2M`, `P1DT2H`); null when unreadable. */
export function isoDurationSeconds(text: unknown): number | null {
  if (typeof text !== 'string') return null;
  const match = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(text);
  if (!match || text === 'P' || text.endsWith('T')) return null;
  const [, days, hours, minutes, seconds] = match;
  return Number(days ?? 0) * 86_400 + Number(hours ?? 0) * 3_600 + Number(minutes ?? 0) * 60 + Number(seconds ?? 0);
}
