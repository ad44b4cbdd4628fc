/**
 * Splitting writes into `browse/edit_playlist` requests. YouTube Music publishes no limit on the
 * actions of one edit; 50 keeps each request small enough that a failure loses little and a
 * rate limit hits early.
 */

export const MAX_ACTIONS_PER_EDIT = 50;

export function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let index = 0; index < items.length; index += size) result.push(items.slice(index, index + size));
  return result;
}

export interface AdditionInput {
  /** Index in the caller's input. */
  readonly index: number;
  readonly videoId: string;
  readonly position: number | null;
}

export interface AdditionBlock {
  /** Where the block's first item goes; null to append. */
  readonly position: number | null;
  readonly items: AdditionInput[];
}

/**
 * Consecutive items that land together: appended items, or items at consecutive positions
 * (p, p+1, …), each block at most `max` long, in input order.
 */
export function additionBlocks(items: readonly AdditionInput[], max = MAX_ACTIONS_PER_EDIT): AdditionBlock[] {
  const blocks: AdditionBlock[] = [];
  for (const item of items) {
    const last = blocks[blocks.length - 1];
    const fits =
      last !== undefined &&
      last.items.length < max &&
      (item.position === null ? last.position === null : last.position !== null && item.position === last.position + last.items.length);
    if (fits) last.items.push(item);
    else blocks.push({ position: item.position, items: [item] });
  }
  return blocks;
}
