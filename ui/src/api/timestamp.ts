/** ISO timestamps from the API, shown in the reader's own locale and time zone. */

const defaultFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** An unparsable value is shown as it came, rather than as "Invalid Date". */
export function formatTimestamp(iso: string, format: Intl.DateTimeFormat = defaultFormat): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : format.format(time);
}
