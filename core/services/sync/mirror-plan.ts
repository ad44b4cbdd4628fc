/**
 * What a mirror run changes on the target, computed from what is there now (pure, testable alone).
 *
 * - **Ownership per row.** Only *managed* entries are removed or moved: the first entry of each
 *   song the rule itself wrote (`owned`). Everything else — songs the owner added by hand, a second
 *   copy of a rule's song — stays where it is, unless the rule opts in (`removesForeign`).
 * - **Removals.** A managed entry whose song is no longer in the source (its match) goes. Providers
 *   remove by song (Spotify removes every copy), so a song is removed only when every entry of it is
 *   to go; otherwise it stays and is reported (`keptShared`). Songs that could correspond to a
 *   source entry that found no match (`protectedUris`) are never removed: reported (`keptUnmatched`).
 * - **Moves, not rewrites.** The managed entries that are already in source order form the longest
 *   increasing run (LIS); only the others move, each right before the next one already in place —
 *   the fewest single-entry moves that reach the source order. Unmanaged entries never move.
 * - **Re-adds.** A matched source song the target no longer holds at all (the owner took it out, or
 *   an add failed) is added back at its place: right after the song before it in source order, once
 *   (`adds`, positions in the sequence after the removals and moves). A song present in any entry —
 *   the owner's own included — counts as there and is never added a second time.
 * - **Replacement** (`finalUris`) is the same result as one full sequence, for targets that cannot
 *   move entries.
 */

export interface TargetEntry {
  uri: string;
  /** The provider's id of this entry, where it has one (YouTube Music's setVideoId, TIDAL's item id). */
  itemId: string | null;
}

export interface MirrorPlanInput {
  /** The target now, in order. */
  target: readonly TargetEntry[];
  /** The source's matched songs as target URIs, in source order, each once. */
  desired: readonly string[];
  /** Songs (target URIs) the rule wrote. */
  owned: ReadonlySet<string>;
  /** Songs that could stand for an unmatched source entry: never removed. */
  protectedUris: ReadonlySet<string>;
  removesForeign: boolean;
}

export interface PlannedRemoval {
  uri: string;
  /** Every position of the song before the removals (all its entries go). */
  positions: number[];
  itemIds: (string | null)[];
}

/** One single-entry move; positions are those of the sequence just before this move. */
export interface PlannedMove {
  uri: string;
  from: number;
  insertBefore: number;
  /**
   * The provider's ids of the moved entry and of the entry it goes before (null: the end), where
   * the target read gave them; null where any is unknown (the provider maps positions itself).
   */
  entryIds: { item: string; before: string | null } | null;
}

/** One song added back; `position` is in the sequence after the removals, the moves and the adds before it. */
export interface PlannedAdd {
  uri: string;
  position: number;
}

export interface MirrorPlan {
  removals: PlannedRemoval[];
  moves: PlannedMove[];
  /** Desired songs missing on the target, in source order, each at its place. */
  adds: PlannedAdd[];
  /** The target after the removals, moves and adds (the replacement sequence where moves are impossible). */
  finalUris: string[];
  keptShared: string[];
  keptUnmatched: string[];
  /** Desired songs missing on the target before this plan (the ones `adds` puts back). */
  missing: string[];
  /** Entries left alone because the rule did not write them. */
  foreign: number;
}

/** Which entries the rule manages: the first entry of each owned song (every entry with `removesForeign`). */
export function managedFlags(target: readonly TargetEntry[], owned: ReadonlySet<string>, removesForeign: boolean): boolean[] {
  const seen = new Set<string>();
  return target.map((entry) => {
    const first = !seen.has(entry.uri);
    seen.add(entry.uri);
    return removesForeign || (first && owned.has(entry.uri));
  });
}

export function planMirror(input: MirrorPlanInput): MirrorPlan {
  const { target, desired, protectedUris } = input;
  const wanted = new Set(desired);
  const managed = managedFlags(target, input.owned, input.removesForeign);

  // Removals: managed entries of songs the source no longer has (and, opted in, later copies).
  const byUri = new Map<string, number[]>();
  target.forEach((entry, index) => {
    const positions = byUri.get(entry.uri);
    if (positions) positions.push(index);
    else byUri.set(entry.uri, [index]);
  });
  const candidate = target.map((entry, index) => {
    if (!managed[index]) return false;
    if (!wanted.has(entry.uri)) return true;
    return input.removesForeign && byUri.get(entry.uri)![0] !== index;
  });
  const removals: PlannedRemoval[] = [];
  const keptShared: string[] = [];
  const keptUnmatched: string[] = [];
  const removed = new Set<number>();
  for (const [uri, positions] of byUri) {
    const candidates = positions.filter((index) => candidate[index]);
    if (candidates.length === 0) continue;
    if (protectedUris.has(uri)) keptUnmatched.push(uri);
    else if (candidates.length !== positions.length) keptShared.push(uri);
    else {
      removals.push({ uri, positions, itemIds: positions.map((index) => target[index]!.itemId) });
      for (const index of positions) removed.add(index);
    }
  }

  // Moves over the sequence that is left.
  const rank = new Map(desired.map((uri, index) => [uri, index]));
  const list = target
    .map((entry, index) => ({ uri: entry.uri, itemId: entry.itemId, rank: managed[index] && !candidate[index] ? (rank.get(entry.uri) ?? null) : null }))
    .filter((_, index) => !removed.has(index));
  const moves = movesToOrder(list);
  const present = new Set(list.map((entry) => entry.uri));
  const missing = desired.filter((uri) => !present.has(uri));
  const adds = addsInPlace(list, missing.map((uri) => ({ uri, itemId: null, rank: rank.get(uri)! })));
  return {
    removals,
    moves,
    adds,
    finalUris: list.map((entry) => entry.uri),
    keptShared,
    keptUnmatched,
    missing,
    foreign: managed.filter((flag) => !flag).length,
  };
}

/** An entry of the sequence being planned: its song, its provider id, its place in source order (null: stays put). */
interface Ranked {
  uri: string;
  itemId: string | null;
  rank: number | null;
}

/**
 * Moves that put the ranked entries of `list` in rank order (unranked ones stay put), applied to
 * `list` as they are computed. Each entry outside the longest increasing run of ranks moves once,
 * in rank order, right before the smallest-ranked entry already in place above it (or right after
 * the largest one below it).
 */
function movesToOrder(list: Ranked[]): PlannedMove[] {
  const ranked = list.map((entry, index) => ({ rank: entry.rank, index })).filter((entry): entry is { rank: number; index: number } => entry.rank !== null);
  const inPlace = new Set(longestIncreasing(ranked.map((entry) => entry.rank)).map((at) => ranked[at]!.rank));
  const toMove = ranked.map((entry) => entry.rank).filter((value) => !inPlace.has(value)).sort((a, b) => a - b);
  const moves: PlannedMove[] = [];
  for (const value of toMove) {
    const from = list.findIndex((entry) => entry.rank === value);
    let above = -1;
    let below = -1;
    for (let index = 0; index < list.length; index++) {
      const at = list[index]!.rank;
      if (at === null || !inPlace.has(at)) continue;
      if (at > value && (above === -1 || at < list[above]!.rank!)) above = index;
      if (at < value && (below === -1 || at > list[below]!.rank!)) below = index;
    }
    const insertBefore = above !== -1 ? above : below !== -1 ? below + 1 : from;
    if (insertBefore !== from && insertBefore !== from + 1) {
      const item = list[from]!.itemId;
      const before = insertBefore < list.length ? list[insertBefore]!.itemId : null;
      const known = item !== null && (before !== null || insertBefore === list.length);
      moves.push({ uri: list[from]!.uri, from, insertBefore, entryIds: known ? { item, before } : null });
      const [entry] = list.splice(from, 1);
      list.splice(insertBefore > from ? insertBefore - 1 : insertBefore, 0, entry!);
    }
    inPlace.add(value);
  }
  return moves;
}

/**
 * Inserts the missing songs into `list` (already in rank order for its ranked entries), in rank
 * order, each right after the ranked entry before it (before the first ranked one, or at the end of
 * a list without any), and returns where each went.
 */
function addsInPlace(list: Ranked[], missing: (Ranked & { rank: number })[]): PlannedAdd[] {
  const adds: PlannedAdd[] = [];
  for (const song of missing) {
    let after = -1;
    let firstRanked = -1;
    list.forEach((entry, index) => {
      if (entry.rank === null) return;
      if (firstRanked === -1) firstRanked = index;
      if (entry.rank < song.rank) after = index;
    });
    const position = after !== -1 ? after + 1 : firstRanked !== -1 ? firstRanked : list.length;
    list.splice(position, 0, song);
    adds.push({ uri: song.uri, position });
  }
  return adds;
}

/** Indexes of one longest strictly increasing subsequence (patience sorting, O(n log n)). */
export function longestIncreasing(values: readonly number[]): number[] {
  const tails: number[] = [];
  const previous = new Array<number>(values.length).fill(-1);
  values.forEach((value, index) => {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (values[tails[middle]!]! < value) low = middle + 1;
      else high = middle;
    }
    if (low > 0) previous[index] = tails[low - 1]!;
    tails[low] = index;
  });
  const result: number[] = [];
  for (let at = tails.length > 0 ? tails[tails.length - 1]! : -1; at !== -1; at = previous[at]!) result.push(at);
  return result.reverse();
}
