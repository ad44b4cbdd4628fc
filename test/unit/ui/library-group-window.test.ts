import { describe, expect, it } from 'vitest';
import { groupHeights, groupWindow, HEAD_ROW_PX, MEMBER_ROW_PX, OVERSCAN } from '../../../ui/src/components/library-page/group-window.ts';

/** The virtualized Library table's window: which groups a scroll position renders, and the space standing for the rest. */

const heights = Array.from({ length: 1000 }, () => 100);

describe('groupWindow', () => {
  it('renders the groups in view and the overscan, the rest as space of their height', () => {
    const window = groupWindow(heights, 50_000, 400);
    expect(window.indexes[0]).toBe(500 - OVERSCAN);
    expect(window.indexes.at(-1)).toBe(503 + OVERSCAN);
    expect(window.gapsBefore).toEqual([(500 - OVERSCAN) * 100, ...Array.from({ length: window.indexes.length - 1 }, () => 0)]);
    // Space before + rendered + space after is the whole table.
    expect(window.gapsBefore[0]! + window.indexes.length * 100 + window.gapAfter).toBe(100_000);
  });

  it('keeps the focused group rendered where it is, with space on either side', () => {
    const window = groupWindow(heights, 90_000, 400, 3);
    expect(window.indexes[0]).toBe(3);
    expect(window.indexes[1]).toBe(900 - OVERSCAN);
    expect(window.gapsBefore.slice(0, 2)).toEqual([300, (900 - OVERSCAN - 4) * 100]);
  });

  it('reaches the last group at the bottom, and shows the last ones when scrolled past a shortened list', () => {
    expect(groupWindow(heights, 100_000 - 400, 400).indexes.at(-1)).toBe(999);
    const past = groupWindow(heights.slice(0, 10), 50_000, 400);
    expect(past.indexes).toContain(9);
    expect(past.gapAfter).toBe(0);
  });

  it('estimates a group from its rows until it was measured', () => {
    expect(groupHeights([{ id: 'a', members: [1, 2] }, { id: 'b', members: [1] }], new Map([['b', 77]]))).toEqual([HEAD_ROW_PX + 2 * MEMBER_ROW_PX, 77]);
  });
});
