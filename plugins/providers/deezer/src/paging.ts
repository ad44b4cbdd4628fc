import { InvalidInput, providerKit } from '@opl/plugin-sdk';
import { integer, record } from './json-read.ts';

/**
 * Cursors handed to the engine: the `index` of the next page. Deezer pages with `index`/`limit`
 * and says there is more with a `next` link; the link itself is not followed (it repeats the
 * request's query), the index is rebuilt from what was read.
 */

/** Page size this plugin asks for; Deezer's default is 25. */
export const MAX_PAGE = 100;

export function indexFromCursor(cursor: string | null): number {
  if (cursor === null) return 0;
  if (!/^\d{1,7}$/.test(cursor)) throw new InvalidInput('This is not a Deezer paging cursor; start again from the first page.');
  return Number(cursor);
}

export function pageSize(requested: number, max = MAX_PAGE): number {
  return providerKit.clampPageSize(requested, max);
}

/** The cursor after `count` items read at `index`, or null on the last page. */
export function nextCursor(pageValue: unknown, index: number, count: number): string | null {
  const pageRecord = record(pageValue);
  if (!pageRecord || count === 0) return null;
  if (typeof pageRecord['next'] === 'string') return String(index + count);
  const total = integer(pageRecord['total']);
  return total !== null && index + count < total ? String(index + count) : null;
}
