import { InvalidInput, providerKit } from '@opl/plugin-sdk';
import { integer, nonEmpty, record } from './json-read.ts';

/**
 * Cursors handed to the engine. Offset-paged endpoints use the offset of the next page; the
 * followed-artists endpoint pages by the last artist id (`after`). Cursors are opaque to the
 * engine but checked here, since they come back from outside the plugin.
 */

/** Spotify's largest page for playlist, library and item listings. */
export const MAX_PAGE = 50;

export function offsetFromCursor(cursor: string | null): number {
  if (cursor === null) return 0;
  if (!/^\d{1,7}$/.test(cursor)) throw new InvalidInput('This is not a Spotify paging cursor; start again from the first page.');
  return Number(cursor);
}

export function pageSize(requested: number, max = MAX_PAGE): number {
  return providerKit.clampPageSize(requested, max);
}

/**
 * The cursor after a page of `count` items read at `offset`: null when Spotify says there is no
 * next page (its `next` link is null) or the page came back empty.
 */
export function nextOffsetCursor(paging: unknown, offset: number, count: number): string | null {
  const page = record(paging);
  if (!page || count === 0) return null;
  const total = integer(page['total']);
  if (page['next'] === null || page['next'] === undefined) {
    // An embedded page cut short by the caller's limit still has more when the total says so.
    return total !== null && offset + count < total ? String(offset + count) : null;
  }
  return String(offset + count);
}

export function afterFromCursor(cursor: string | null): string | null {
  if (cursor === null) return null;
  if (!/^[0-9A-Za-z]{1,64}$/.test(cursor)) throw new InvalidInput('This is not a Spotify paging cursor; start again from the first page.');
  return cursor;
}

/** The followed-artists cursor: `cursors.after`, when there is a next page. */
export function nextAfterCursor(paging: unknown): string | null {
  const page = record(paging);
  if (!page || page['next'] === null || page['next'] === undefined) return null;
  return nonEmpty(record(page['cursors'])?.['after']);
}
