/**
 * How additions are split into Spotify requests: each request inserts up to 100 URIs as one
 * contiguous block, either appended (no position) or at a position. Consecutive inputs join a
 * block while they continue it — appends after appends, or position p+1 after position p — so
 * the playlist ends up exactly as the per-item positions describe, in input order.
 */

export const MAX_ITEMS_PER_REQUEST = 100;

export interface AdditionInput {
  /** Index in the operation's input. */
  readonly index: number;
  readonly uri: string;
  readonly position: number | null;
}

export interface AdditionBlock {
  readonly position: number | null;
  readonly items: readonly AdditionInput[];
}

export function additionBlocks(inputs: readonly AdditionInput[], max = MAX_ITEMS_PER_REQUEST): AdditionBlock[] {
  const blocks: { position: number | null; items: AdditionInput[] }[] = [];
  for (const input of inputs) {
    const current = blocks.at(-1);
    const continues =
      current !== undefined &&
      current.items.length < max &&
      (current.position === null ? input.position === null : input.position === current.position + current.items.length);
    if (continues) current.items.push(input);
    else blocks.push({ position: input.position, items: [input] });
  }
  return blocks;
}

/** Splits `items` into consecutive chunks of at most `size`. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}
