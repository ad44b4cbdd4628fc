import { InvalidInput } from '@opl/plugin-sdk';
import type { ResourcePage } from './apple-client.ts';

/**
 * The engine's paging cursor over Apple's `offset` paging. Apple caps a library page at 100
 * resources while the engine may ask for more (or fewer): one engine page reads as many Apple pages
 * as it needs, and the cursor is simply the absolute offset of the next item (`a1.<offset>`), which
 * is also each item's playlist position.
 */

/** Apple's largest `limit` for library resources. */
export const APPLE_PAGE_MAX = 100;
/** How many Apple pages one engine page may read before it hands back what it has. */
export const MAX_PAGES_PER_CALL = 30;

export function encodeOffset(offset: number): string {
  return `a1.${offset}`;
}

export function decodeOffset(cursor: string | null): number {
  if (cursor === null) return 0;
  const match = /^a1\.(\d{1,9})$/.exec(cursor);
  if (!match) throw new InvalidInput('the paging cursor was not issued by the Apple Music plugin');
  return Number(match[1]);
}

/**
 * Collects up to `limit` items from `offset`, reading Apple pages of at most 100, and returns the
 * cursor of the first item not handed out. `map` receives each item's absolute index.
 */
export async function collectOffsetPage<R>(
  offset: number,
  limit: number,
  fetchPage: (offset: number, limit: number) => Promise<ResourcePage>,
  map: (item: unknown, index: number) => R,
): Promise<{ items: R[]; next_cursor: string | null; total: number | null }> {
  const items: R[] = [];
  let current = offset;
  let total: number | null = null;
  for (let read = 0; read < MAX_PAGES_PER_CALL && items.length < limit; read++) {
    const want = Math.min(APPLE_PAGE_MAX, limit - items.length);
    const page = await fetchPage(current, want);
    total = page.total ?? total;
    page.data.slice(0, want).forEach((item, index) => items.push(map(item, current + index)));
    current += Math.min(page.data.length, want);
    // No `next` link, or a short page: the end of the collection.
    if (page.next === null || page.data.length === 0) return { items, next_cursor: null, total };
  }
  return { items, next_cursor: encodeOffset(current), total };
}
