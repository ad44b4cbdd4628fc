import { InvalidInput } from '@opl/plugin-sdk';

/**
 * Engine cursors over InnerTube pages. YouTube Music pages by continuation tokens with a page size
 * of its own (100 playlist entries, a grid's worth of tiles), while the engine asks for `limit`
 * items: a cursor names the provider page (its continuation token, empty for the first) plus how
 * many of its items were already handed out, and the position of the page's first item, so that
 * every entry keeps its absolute position.
 */

export interface PageCursor {
  /** Continuation token of the provider page; null for the first page. */
  readonly token: string | null;
  /** Items of that page already returned. */
  readonly skip: number;
  /** Absolute position of that page's first item. */
  readonly base: number;
}

const CURSOR = /^c1:(\d{1,7}):(\d{1,5}):([A-Za-z0-9_\-=%.+/]{0,3800})$/;

export function encodeCursor(cursor: PageCursor): string {
  return `c1:${cursor.base}:${cursor.skip}:${cursor.token ?? ''}`;
}

export function decodeCursor(value: string | null): PageCursor {
  if (value === null) return { token: null, skip: 0, base: 0 };
  const match = CURSOR.exec(value);
  if (!match) throw new InvalidInput('This is not a YouTube Music paging cursor; start again from the first page.');
  return { base: Number(match[1]), skip: Number(match[2]), token: match[3] === '' ? null : match[3]! };
}

export interface ProviderPage<T> {
  readonly items: readonly T[];
  /** Continuation token of the next provider page. */
  readonly next: string | null;
}

/**
 * One engine page: `limit` items starting at the cursor, read from one provider page, with the
 * cursor of what follows (null at the end).
 */
export function slicePage<T>(page: ProviderPage<T>, cursor: PageCursor, limit: number): { items: { item: T; position: number }[]; next_cursor: string | null } {
  const chosen = page.items.slice(cursor.skip, cursor.skip + limit).map((item, index) => ({ item, position: cursor.base + cursor.skip + index }));
  const consumed = cursor.skip + chosen.length;
  let next: string | null = null;
  if (consumed < page.items.length) next = encodeCursor({ token: cursor.token, skip: consumed, base: cursor.base });
  else if (page.next !== null && chosen.length > 0) next = encodeCursor({ token: page.next, skip: 0, base: cursor.base + page.items.length });
  return { items: chosen, next_cursor: next };
}
