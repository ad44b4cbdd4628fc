import type { OperationReturn } from '@opl/plugin-sdk';

export type ParseIssue = OperationReturn<'parse'>['issues'][number];

const MAX_LISTED = 200;

/** Issues of one parse, bounded: the first 200 are listed, then one `too_many_issues` summary. */
export class Issues {
  readonly #listed: ParseIssue[] = [];
  #omitted = 0;

  warn(line: number | null, code: string, message: string): void {
    if (this.#listed.length < MAX_LISTED) this.#listed.push({ line, column: null, code, message: message.slice(0, 1_000), severity: 'warning' });
    else this.#omitted += 1;
  }

  list(): ParseIssue[] {
    if (this.#omitted === 0) return [...this.#listed];
    return [...this.#listed, { line: null, column: null, code: 'too_many_issues', message: `${this.#omitted} more issues were found but not listed`, severity: 'warning' }];
  }
}
