import { formatKit } from '@opl/plugin-sdk';

/**
 * Cell readers for the foreign layouts (Exportify, generic CSV): each reads one cell of a row by
 * its position, converts it, and on a value the model cannot hold reports `invalid_value` (a
 * warning) and leaves the field empty: one bad cell never costs the user the track.
 */

const MAX_DURATION_SECONDS = 1_000_000;
const RELEASE_DATE = /^(\d{4})(?:-(0[1-9]|1[0-2])(?:-(0[1-9]|[12]\d|3[01]))?)?$/;

function shown(cell: string): string {
  return `"${cell.length > 40 ? `${cell.slice(0, 40)}…` : cell}"`;
}

export class CellReader {
  readonly #cells: readonly string[];
  readonly #line: number;
  readonly #issues: formatKit.IssueCollector;

  constructor(cells: readonly string[], line: number, issues: formatKit.IssueCollector) {
    this.#cells = cells;
    this.#line = line;
    this.#issues = issues;
  }

  raw(position: number | undefined): string {
    return position === undefined ? '' : (this.#cells[position] ?? '');
  }

  invalid(position: number | undefined, column: string, message: string): null {
    this.#issues.add(this.#line, 'invalid_value', `${column} ${message}`, 'warning', position === undefined ? null : position + 1);
    return null;
  }

  /** Trimmed text or null when empty, cut to `max` with a `value_truncated` warning. */
  text(position: number | undefined, column: string, max: number = formatKit.LIMITS.text): string | null {
    const value = this.raw(position).trim();
    return value === '' ? null : this.bounded(position, column, value, max);
  }

  bounded(position: number | undefined, column: string, value: string, max: number): string {
    const result = formatKit.boundedText(value, max);
    if (result.truncated) this.#issues.add(this.#line, 'value_truncated', `${column} is longer than ${max} characters and was cut`, 'warning', position === undefined ? null : position + 1);
    return result.value;
  }

  /** A non-negative whole number, or null. */
  count(position: number | undefined, column: string): number | null {
    const value = this.raw(position).trim();
    if (value === '') return null;
    if (!/^\d{1,9}$/.test(value)) return this.invalid(position, column, `${shown(value)} is not a whole number`);
    return Number(value);
  }

  /** Seconds from milliseconds (`Duration (ms)`), kept exact. */
  durationFromMs(position: number | undefined, column: string): number | null {
    const value = this.raw(position).trim();
    if (value === '') return null;
    if (!/^\d{1,12}(?:\.\d+)?$/.test(value)) return this.invalid(position, column, `${shown(value)} is not a number of milliseconds`);
    const seconds = Number(value) / 1000;
    return seconds > MAX_DURATION_SECONDS ? this.invalid(position, column, `${shown(value)} is longer than the model allows`) : seconds;
  }

  /** Seconds from `225`, `225.5`, `3:45` or `1:02:03`. */
  durationFromClock(position: number | undefined, column: string): number | null {
    const value = this.raw(position).trim();
    if (value === '') return null;
    let seconds: number;
    if (/^\d{1,12}(?:\.\d+)?$/.test(value)) {
      seconds = Number(value);
    } else {
      const clock = /^(?:(\d{1,4}):)?(\d{1,4}):([0-5]\d(?:\.\d+)?)$/.exec(value);
      if (clock === null) return this.invalid(position, column, `${shown(value)} is not a duration such as 225 or 3:45`);
      seconds = Number(clock[1] ?? 0) * 3600 + Number(clock[2]) * 60 + Number(clock[3]);
    }
    return seconds > MAX_DURATION_SECONDS ? this.invalid(position, column, `${shown(value)} is longer than the model allows`) : seconds;
  }

  boolean(position: number | undefined, column: string): boolean | null {
    const value = this.raw(position).trim().toLowerCase();
    if (value === '') return null;
    if (value === 'true' || value === 'yes' || value === '1') return true;
    if (value === 'false' || value === 'no' || value === '0') return false;
    return this.invalid(position, column, `${shown(value)} is neither true nor false`);
  }

  /** `YYYY`, `YYYY-MM` or `YYYY-MM-DD`, as the model's release_date holds it. */
  releaseDate(position: number | undefined, column: string): { readonly date: string; readonly year: number } | null {
    const value = this.raw(position).trim();
    if (value === '') return null;
    const match = RELEASE_DATE.exec(value);
    if (match === null) return this.invalid(position, column, `${shown(value)} is not a date such as 2024, 2024-05 or 2024-05-01`);
    return { date: value, year: Number(match[1]) };
  }

  isrc(position: number | undefined, column: string): string | null {
    const value = this.raw(position).trim().toUpperCase();
    if (value === '') return null;
    if (value.length > formatKit.LIMITS.isrc) return this.invalid(position, column, `${shown(value)} is longer than ${formatKit.LIMITS.isrc} characters and was dropped`);
    return value;
  }
}
