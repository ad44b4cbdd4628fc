/**
 * Splitting writes into TIDAL-sized requests (50 entries each). Inserts keep their requested
 * positions: consecutive inputs whose positions follow each other (or that all append) share a
 * request, which TIDAL places before one existing entry (`positionBefore`) or at the end.
 */

export interface PlannedItem<T> {
  /** Index of the item in the operation's input. */
  readonly index: number;
  readonly value: T;
}

export interface InsertBatch<T> {
  readonly items: readonly PlannedItem<T>[];
  /** Where the first item should land; null appends. */
  readonly position: number | null;
}

/** Groups items into batches of at most `max`; a batch never mixes appends with positioned inserts. */
export function planInserts<T>(items: readonly PlannedItem<T>[], positionOf: (value: T) => number | null, max: number): InsertBatch<T>[] {
  const batches: { items: PlannedItem<T>[]; position: number | null }[] = [];
  for (const item of items) {
    const position = positionOf(item.value);
    const last = batches[batches.length - 1];
    const follows = last !== undefined && last.items.length < max && (position === null ? last.position === null : last.position !== null && position === last.position + last.items.length);
    if (follows) last.items.push(item);
    else batches.push({ items: [item], position });
  }
  return batches;
}

/** Plain chunks of at most `max`. */
export function chunk<T>(items: readonly T[], max: number): T[][] {
  const chunks: T[][] = [];
  for (let index = 0; index < items.length; index += max) chunks.push(items.slice(index, index + max));
  return chunks;
}
