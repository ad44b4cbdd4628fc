/**
 * The virtualized Library table's arithmetic: which groups (table bodies of different heights) a
 * scroll position shows, and the space the others take. Pure, so the page only measures and renders.
 */

/** From this many groups on, only the window is in the page (below, every group is, and find-in-page sees them all). */
export const VIRTUALIZE_FROM = 1000;
/** Groups rendered beyond each edge of the viewport, so a fast scroll or Tab finds rows ready. */
export const OVERSCAN = 8;
/** An unmeasured group's height: its heading row and one row per member. */
export const HEAD_ROW_PX = 44;
export const MEMBER_ROW_PX = 52;

export interface GroupWindow {
  /** Indexes of the groups to render, ascending. */
  indexes: number[];
  /** Space before each rendered group (taken by the groups skipped), and after the last. */
  gapsBefore: number[];
  gapAfter: number;
}

/** The height of each group: measured where it was rendered once, estimated from its rows otherwise. */
export function groupHeights(groups: readonly { id: string; members: readonly unknown[] }[], measured: ReadonlyMap<string, number>): number[] {
  return groups.map((group) => measured.get(group.id) ?? HEAD_ROW_PX + MEMBER_ROW_PX * group.members.length);
}

/**
 * The groups a viewport of `viewportPx` scrolled to `scrollTop` shows (plus the overscan), and
 * `keep` — a group holding the focus stays rendered wherever it is, so the focus is never lost.
 */
export function groupWindow(heights: readonly number[], scrollTop: number, viewportPx: number, keep: number | null = null): GroupWindow {
  const indexes: number[] = [];
  let top = 0;
  let first = -1;
  let last = -1;
  for (let index = 0; index < heights.length; index++) {
    const bottom = top + heights[index]!;
    if (bottom > scrollTop && top < scrollTop + viewportPx) {
      if (first < 0) first = index;
      last = index;
    }
    top = bottom;
  }
  if (first < 0) {
    // Scrolled past the end (the list shrank): show the last groups.
    first = Math.max(0, heights.length - 1);
    last = first;
  }
  const from = Math.max(0, first - OVERSCAN);
  const to = Math.min(heights.length - 1, last + OVERSCAN);
  if (keep !== null && keep >= 0 && keep < heights.length && keep < from) indexes.push(keep);
  for (let index = from; index <= to; index++) indexes.push(index);
  if (keep !== null && keep >= 0 && keep < heights.length && keep > to) indexes.push(keep);
  const gapsBefore: number[] = [];
  let previous = -1;
  for (const index of indexes) {
    let gap = 0;
    for (let skipped = previous + 1; skipped < index; skipped++) gap += heights[skipped]!;
    gapsBefore.push(gap);
    previous = index;
  }
  let gapAfter = 0;
  for (let skipped = previous + 1; skipped < heights.length; skipped++) gapAfter += heights[skipped]!;
  return { indexes, gapsBefore, gapAfter };
}
