import { formatKit } from '@opl/plugin-sdk';
import { releaseDateOf } from './release-dates.ts';

/**
 * Cell readers for the Exportify layout: each reads one cell of a row by its position, converts it
 * (with the SDK's conversions where one exists), and on a value the model cannot hold reports
 * `invalid_value` (a warning) and leaves the field empty: one bad cell never costs the user the
 * track. The generic layout reads its rows with `formatKit.TrackTableReader`.
 */

/** TRUE and FALSE as Excel writes them back in German, French, Spanish, Italian, Portuguese and Dutch. */
const EXCEL_TRUE = new Set(['wahr', 'vrai', 'verdadero', 'vero', 'verdadeiro', 'waar']);
const EXCEL_FALSE = new Set(['falsch', 'faux', 'falso', 'onwaar']);

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

  /** A conversion's value, or null with its problem reported as `invalid_value`. */
  convert<T>(position: number | undefined, conversion: formatKit.Conversion<T | null>): T | null {
    if (conversion.problem === undefined) return conversion.value;
    this.#issues.add(this.#line, 'invalid_value', conversion.problem, 'warning', position === undefined ? null : position + 1);
    return null;
  }

  /** Seconds from milliseconds (`Duration (ms)`), kept exact. */
  durationFromMs(position: number | undefined, column: string): number | null {
    return this.convert(position, formatKit.millisecondsDuration(this.raw(position), column));
  }

  boolean(position: number | undefined, column: string): boolean | null {
    const value = this.raw(position).trim().toLowerCase();
    if (value === '') return null;
    if (value === 'true' || value === 'yes' || value === '1' || EXCEL_TRUE.has(value)) return true;
    if (value === 'false' || value === 'no' || value === '0' || EXCEL_FALSE.has(value)) return false;
    return this.invalid(position, column, `${shown(value)} is neither true nor false`);
  }

  /**
   * `YYYY`, `YYYY-MM` or `YYYY-MM-DD`, as the model's release_date holds it, also from the forms
   * Excel writes back (`releaseDateOf`). A slashed date whose day and month cannot be told apart
   * keeps its year only, with an `ambiguous_date` warning saying so.
   */
  releaseDate(position: number | undefined, column: string): { readonly date: string; readonly year: number } | null {
    const cell = this.raw(position).trim();
    if (cell === '') return null;
    const release = releaseDateOf(cell);
    if (release === null) return this.invalid(position, column, `${shown(cell)} is not a date such as 2024, 2024-05, 2024-05-01 or 01.05.2024`);
    if (release.ambiguous) {
      this.#issues.add(
        this.#line,
        'ambiguous_date',
        `${column} ${shown(cell)} may be day or month first; only the year ${release.date} was kept (write the date as YYYY-MM-DD to keep it whole)`,
        'warning',
        position === undefined ? null : position + 1,
      );
    }
    return { date: release.date, year: release.year };
  }

  /** The ISRC in its 12-character uppercase form (`formatKit.isrcCode`). */
  isrc(position: number | undefined, column: string): string | null {
    return this.convert(position, formatKit.isrcCode(this.raw(position), column));
  }
}
