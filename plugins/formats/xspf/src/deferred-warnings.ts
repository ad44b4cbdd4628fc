import { formatKit } from '@opl/plugin-sdk';

/** Where warnings go: the parse's issue list, or a deferred list replayed into it later. */
export interface Warnings {
  warn(line: number | null, code: string, message: string): void;
}

/**
 * Warnings raised ahead of their turn (while the XML is still being parsed), replayed later into
 * the real list, so that issues come in the same order as when a whole tree is read and then
 * converted. Bounded like that list: past `MAX_LISTED_ISSUES` they are only counted.
 */
export class DeferredWarnings implements Warnings {
  readonly #listed: [number | null, string, string][] = [];
  #omitted = 0;

  warn(line: number | null, code: string, message: string): void {
    if (this.#listed.length < formatKit.MAX_LISTED_ISSUES) this.#listed.push([line, code, message]);
    else this.#omitted += 1;
  }

  replay(issues: Warnings): void {
    for (const [line, code, message] of this.#listed) issues.warn(line, code, message);
    // The list is full by now, so these only count.
    for (let count = 0; count < this.#omitted; count++) issues.warn(null, 'ignored_element', '');
  }
}
