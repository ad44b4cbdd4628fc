import type { OperationReturn } from '@opl/plugin-sdk';

export type ParseIssue = OperationReturn<'parse'>['issues'][number];

/** Issues listed per file; past that one `too_many_issues` summary says how many were left out. */
export const MAX_LISTED_ISSUES = 200;

/** A bounded issue list: a garbage upload yields a short report, never one entry per line. */
export class Issues {
  readonly #listed: ParseIssue[] = [];
  #omitted = 0;

  add(line: number | null, code: string, message: string, severity: 'error' | 'warning' = 'warning'): void {
    if (this.#listed.length < MAX_LISTED_ISSUES) this.#listed.push({ line, column: null, code, message: message.slice(0, 1_000), severity });
    else this.#omitted += 1;
  }

  list(): ParseIssue[] {
    if (this.#omitted === 0) return [...this.#listed];
    const message = `${this.#omitted} more issue(s) were found but not listed (only the first ${MAX_LISTED_ISSUES} are)`;
    return [...this.#listed, { line: null, column: null, code: 'too_many_issues', message, severity: 'warning' }];
  }
}

/** A value quoted for a message, cut so a huge line never makes a huge message. */
export function shown(value: string): string {
  return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
}
