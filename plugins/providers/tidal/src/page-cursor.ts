/**
 * The engine's paging cursor over TIDAL's. TIDAL decides its page size itself (no page-size
 * parameter), while the engine asks for `limit` items: our cursor remembers TIDAL's cursor, how
 * many items of that page were already handed out, and the absolute index of the page's first
 * item (TIDAL's cursors are opaque, and entry positions must still be known).
 */

export interface PageCursor {
  /** TIDAL's `page[cursor]`; null for the first page. */
  readonly provider: string | null;
  /** Items of that page already returned. */
  readonly skip: number;
  /** Absolute index of the page's first item. */
  readonly base: number;
}

export const FIRST_PAGE: PageCursor = { provider: null, skip: 0, base: 0 };

export function encodePageCursor(cursor: PageCursor): string {
  return `t1.${cursor.base}.${cursor.skip}.${cursor.provider ?? ''}`;
}

/** Null when the text is not a cursor this plugin issued. */
export function decodePageCursor(text: string | null): PageCursor | null {
  if (text === null) return FIRST_PAGE;
  const match = /^t1\.(\d{1,9})\.(\d{1,9})\.(.*)$/s.exec(text);
  if (!match) return null;
  return { base: Number(match[1]), skip: Number(match[2]), provider: match[3] === '' ? null : match[3]! };
}

export interface ProviderPage<T> {
  readonly items: readonly T[];
  /** TIDAL's cursor of the next page; null on the last one. */
  readonly next: string | null;
}

/** How many provider pages one engine page may read before it hands back what it has. */
export const MAX_PAGES_PER_CALL = 25;

/**
 * Collects up to `limit` items starting at `cursor`, reading as many TIDAL pages as needed, and
 * returns the cursor of the first item not handed out. `index` is each item's absolute position.
 */
export async function collectPage<T, R>(
  cursor: PageCursor,
  limit: number,
  fetchPage: (providerCursor: string | null) => Promise<ProviderPage<T>>,
  map: (item: T, index: number) => R,
): Promise<{ items: R[]; next_cursor: string | null }> {
  const items: R[] = [];
  let current = cursor;
  for (let read = 0; read < MAX_PAGES_PER_CALL; read++) {
    const page = await fetchPage(current.provider);
    const available = page.items.slice(current.skip);
    const room = limit - items.length;
    available.slice(0, room).forEach((item, offset) => items.push(map(item, current.base + current.skip + offset)));
    if (available.length > room) {
      return { items, next_cursor: encodePageCursor({ ...current, skip: current.skip + room }) };
    }
    if (page.next === null) return { items, next_cursor: null };
    current = { provider: page.next, skip: 0, base: current.base + page.items.length };
    if (items.length >= limit) return { items, next_cursor: encodePageCursor(current) };
  }
  return { items, next_cursor: encodePageCursor(current) };
}
