/**
 * How additions become Deezer requests. Deezer appends the songs of a request in order, holds a
 * track at most once (a request naming a track already there is refused whole), and can reorder a
 * playlist by taking its complete new order. So additions are: drop what the playlist already holds
 * (and repeats within the input), append the rest in input order, then — only when some item asked
 * for a position — send the order that inserting each one at its position gives.
 */

export interface AdditionInput {
  /** Index in the operation's input. */
  readonly index: number;
  readonly trackId: string;
  readonly position: number | null;
}

export interface AdditionPlan {
  /** To append, in input order. */
  readonly append: readonly AdditionInput[];
  /** Input indexes refused because the track is already in the playlist or earlier in the input. */
  readonly duplicates: readonly number[];
  /** The playlist's final order, or null when appending already gives it. */
  readonly order: readonly string[] | null;
  /** Where each appended input ends up (input index → 0-based position). */
  readonly positions: ReadonlyMap<number, number>;
  /** Where each appended input is before the reorder (at the end). */
  readonly appendedAt: ReadonlyMap<number, number>;
}

export function planAdditions(current: readonly string[], inputs: readonly AdditionInput[]): AdditionPlan {
  const present = new Set(current);
  const append: AdditionInput[] = [];
  const duplicates: number[] = [];
  for (const input of inputs) {
    if (present.has(input.trackId)) duplicates.push(input.index);
    else {
      present.add(input.trackId);
      append.push(input);
    }
  }
  const appended = [...current, ...append.map((input) => input.trackId)];
  const wanted = [...current];
  for (const input of append) {
    if (input.position === null || input.position >= wanted.length) wanted.push(input.trackId);
    else wanted.splice(input.position, 0, input.trackId);
  }
  const order = wanted.every((trackId, at) => appended[at] === trackId) ? null : wanted;
  const final = order ?? appended;
  const at = new Map(final.map((trackId, position) => [trackId, position]));
  return {
    append,
    duplicates,
    order,
    positions: new Map(append.map((input) => [input.index, at.get(input.trackId)!])),
    appendedAt: new Map(append.map((input, offset) => [input.index, current.length + offset])),
  };
}

/** Splits `items` into consecutive chunks of at most `size`. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}

/** The steps that turn `current` into `desired` (no repeats in either): remove, append, reorder. */
export function mirrorPlan(current: readonly string[], desired: readonly string[]): { remove: string[]; append: string[]; order: string[] | null } {
  const wanted = new Set(desired);
  const remove = current.filter((trackId) => !wanted.has(trackId));
  const kept = current.filter((trackId) => wanted.has(trackId));
  const keptSet = new Set(kept);
  const append = desired.filter((trackId) => !keptSet.has(trackId));
  const after = [...kept, ...append];
  return { remove, append, order: after.every((trackId, at) => desired[at] === trackId) ? null : [...desired] };
}
