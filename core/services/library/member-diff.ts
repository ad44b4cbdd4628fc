/**
 * The difference between two workspace members' songs, by identity (pure): songs only in A, only
 * in B, in both, and the common songs whose order differs (those outside a longest run the two
 * orders share). Songs whose identity is unknown — no edge in the graph and no ISRC — are not
 * compared at all: they are listed as `not_compared`, to be resolved by a search first.
 */

export interface DiffTrack {
  position: number;
  title: string;
  artist: string;
  album: string | null;
  isrc: string | null;
  track_id: string | null;
  uri: string | null;
}

export interface DiffInput extends DiffTrack {
  /** The song's identity key; null when unknown. */
  identity: string | null;
}

export interface MemberDiff {
  only_a: DiffTrack[];
  only_b: DiffTrack[];
  both: { a: DiffTrack; b: DiffTrack }[];
  /** Common songs out of the order the other member has them in. */
  moved: { a: DiffTrack; b: DiffTrack }[];
  not_compared: { a: DiffTrack[]; b: DiffTrack[] };
}

const plain = ({ identity: _identity, ...track }: DiffInput): DiffTrack => track;

export function diffMembers(a: readonly DiffInput[], b: readonly DiffInput[]): MemberDiff {
  const firstIn = (tracks: readonly DiffInput[]) => {
    const first = new Map<string, DiffInput>();
    for (const track of tracks) if (track.identity !== null && !first.has(track.identity)) first.set(track.identity, track);
    return first;
  };
  const inA = firstIn(a);
  const inB = firstIn(b);
  const both = [...inA.values()].filter((track) => inB.has(track.identity!)).map((track) => ({ a: track, b: inB.get(track.identity!)! }));
  const kept = longestIncreasingRun(both.map((pair) => pair.b.position));
  return {
    only_a: [...inA.values()].filter((track) => !inB.has(track.identity!)).map(plain),
    only_b: [...inB.values()].filter((track) => !inA.has(track.identity!)).map(plain),
    both: both.map((pair) => ({ a: plain(pair.a), b: plain(pair.b) })),
    moved: both.filter((_, index) => !kept.has(index)).map((pair) => ({ a: plain(pair.a), b: plain(pair.b) })),
    not_compared: { a: a.filter((track) => track.identity === null).map(plain), b: b.filter((track) => track.identity === null).map(plain) },
  };
}

/** Indexes of one longest strictly increasing subsequence of `values` (patience sorting). */
export function longestIncreasingRun(values: readonly number[]): Set<number> {
  const tails: number[] = [];
  const previous: number[] = new Array<number>(values.length).fill(-1);
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
  const run = new Set<number>();
  for (let index = tails.length > 0 ? tails[tails.length - 1]! : -1; index >= 0; index = previous[index]!) run.add(index);
  return run;
}
