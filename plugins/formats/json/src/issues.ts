import type { OperationReturn } from '@opl/plugin-sdk';

export type ParseIssue = OperationReturn<'parse'>['issues'][number];

/** Issues listed per file; past this they are counted into one summary (the result allows 1,000). */
export const MAX_LISTED_ISSUES = 200;

/** A bounded issue list: a file with 100,000 bad tracks gives a short report, not 100,000 entries. */
export class Issues {
  readonly #listed: ParseIssue[] = [];
  #omitted = 0;

  add(code: string, message: string, severity: 'error' | 'warning' = 'error', line: number | null = null, column: number | null = null): void {
    if (this.#listed.length < MAX_LISTED_ISSUES) this.#listed.push({ line, column, code, message: message.slice(0, 1_000), severity });
    else this.#omitted += 1;
  }

  list(): ParseIssue[] {
    if (this.#omitted === 0) return [...this.#listed];
    const message = `${this.#omitted} more issue${this.#omitted === 1 ? '' : 's'} not listed (only the first ${MAX_LISTED_ISSUES} are)`;
    return [...this.#listed, { line: null, column: null, code: 'too_many_issues', message, severity: 'warning' }];
  }
}
