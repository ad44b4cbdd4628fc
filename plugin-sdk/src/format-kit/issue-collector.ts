import type { OperationReturn } from '../operations.schema.ts';

export type ParseIssue = OperationReturn<'parse'>['issues'][number];
export type IssueSeverity = 'error' | 'warning';

/** Detailed issues kept per file; a file with thousands of bad rows yields this many plus a summary. */
export const MAX_LISTED_ISSUES = 200;

const MAX_MESSAGE_LENGTH = 1_000;

/**
 * Collects line-level issues with a hard bound, so a garbage upload produces a short, useful
 * report (and stays within the parse result's limit) instead of one entry per line.
 */
export class IssueCollector {
  readonly #listed: ParseIssue[] = [];
  #omitted = 0;
  readonly #limit: number;

  constructor(limit: number = MAX_LISTED_ISSUES) {
    this.#limit = limit;
  }

  add(line: number | null, code: string, message: string, severity: IssueSeverity = 'error', column: number | null = null): void {
    if (this.#listed.length >= this.#limit) {
      this.#omitted += 1;
      return;
    }
    this.#listed.push({ line, column, code, message: message.slice(0, MAX_MESSAGE_LENGTH), severity });
  }

  warn(line: number | null, code: string, message: string, column: number | null = null): void {
    this.add(line, code, message, 'warning', column);
  }

  error(line: number | null, code: string, message: string, column: number | null = null): void {
    this.add(line, code, message, 'error', column);
  }

  /** The listed issues, then one `too_many_issues` summary when some were left out. */
  issues(): ParseIssue[] {
    if (this.#omitted === 0) return [...this.#listed];
    const summary: ParseIssue = {
      line: null,
      column: null,
      code: 'too_many_issues',
      message: `${this.#omitted} more issue${this.#omitted === 1 ? ' was' : 's were'} found but not listed (only the first ${this.#limit} are)`,
      severity: 'warning',
    };
    return [...this.#listed, summary];
  }
}
