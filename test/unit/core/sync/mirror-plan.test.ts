import { describe, expect, it } from 'vitest';
import { longestIncreasing, managedFlags, planMirror, type MirrorPlan, type TargetEntry } from '../../../../core/services/sync/mirror-plan.ts';

const entries = (uris: readonly string[]): TargetEntry[] => uris.map((uri) => ({ uri, itemId: null }));

/** Applies a plan the way a provider would: removals by song, then each move on the current sequence, then each add at its position. */
function apply(target: readonly string[], plan: MirrorPlan): string[] {
  const gone = new Set(plan.removals.map((removal) => removal.uri));
  const list = target.filter((uri) => !gone.has(uri));
  for (const move of plan.moves) {
    expect(list[move.from]).toBe(move.uri);
    const [entry] = list.splice(move.from, 1);
    list.splice(move.insertBefore > move.from ? move.insertBefore - 1 : move.insertBefore, 0, entry!);
  }
  for (const add of plan.adds) list.splice(add.position, 0, add.uri);
  return list;
}

/** A small deterministic generator, so a failure names its seed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

describe('mirror plan', () => {
  it('finds one longest increasing run', () => {
    expect(longestIncreasing([3, 1, 2, 5, 4]).map((at) => [3, 1, 2, 5, 4][at])).toHaveLength(3);
    expect(longestIncreasing([])).toEqual([]);
  });

  it('moves only what is out of place: one song moved to the top is one move', () => {
    const target = ['a', 'b', 'c', 'd', 'e'];
    const plan = planMirror({ target: entries(target), desired: ['e', 'a', 'b', 'c', 'd'], owned: new Set(target), protectedUris: new Set(), removesForeign: false });
    expect(plan.removals).toEqual([]);
    expect(plan.moves).toHaveLength(1);
    expect(apply(target, plan)).toEqual(['e', 'a', 'b', 'c', 'd']);
  });

  it('removes only songs the rule wrote, never the owner\'s own entries or a song that may be an unmatched source entry', () => {
    const target = ['a', 'mine', 'b', 'c', 'x'];
    const plan = planMirror({ target: entries(target), desired: ['b', 'a'], owned: new Set(['a', 'b', 'c', 'x']), protectedUris: new Set(['x']), removesForeign: false });
    expect(plan.removals.map((removal) => removal.uri)).toEqual(['c']);
    expect(plan.keptUnmatched).toEqual(['x']);
    expect(plan.foreign).toBe(1);
    expect(apply(target, plan).filter((uri) => uri !== 'mine')).toEqual(['b', 'a', 'x']);
  });

  it('keeps a song the owner also added by hand (a removal by song would take both copies)', () => {
    const target = ['a', 'b', 'a'];
    const plan = planMirror({ target: entries(target), desired: ['b'], owned: new Set(['a', 'b']), protectedUris: new Set(), removesForeign: false });
    expect(plan.removals).toEqual([]);
    expect(plan.keptShared).toEqual(['a']);
    expect(managedFlags(entries(target), new Set(['a', 'b']), false)).toEqual([true, true, false]);
  });

  it('adds a matched song the target lost back at its place, once, and not a song the owner has there', () => {
    const target = ['a', 'mine', 'c', 'e'];
    const plan = planMirror({ target: entries(target), desired: ['a', 'b', 'c', 'mine', 'd', 'e'], owned: new Set(['a', 'c', 'e']), protectedUris: new Set(), removesForeign: false });
    expect(plan.missing).toEqual(['b', 'd']);
    expect(plan.adds).toEqual([{ uri: 'b', position: 1 }, { uri: 'd', position: 4 }]);
    expect(apply(target, plan)).toEqual(['a', 'b', 'mine', 'c', 'd', 'e']);
    expect(planMirror({ target: entries(apply(target, plan)), desired: ['a', 'b', 'c', 'mine', 'd', 'e'], owned: new Set(['a', 'b', 'c', 'd', 'e']), protectedUris: new Set(), removesForeign: false }).adds).toEqual([]);
    expect(planMirror({ target: [], desired: ['a', 'b'], owned: new Set(), protectedUris: new Set(), removesForeign: false }).adds).toEqual([{ uri: 'a', position: 0 }, { uri: 'b', position: 1 }]);
  });

  it('reaches the source order for random permutations, removals, lost songs and foreign entries', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const next = random(seed);
      const songs = Array.from({ length: 2 + Math.floor(next() * 40) }, (_, index) => `s${index}`);
      const target = [...songs].sort(() => next() - 0.5).filter(() => next() < 0.9);
      const foreign = target.filter(() => next() < 0.15).map((uri) => `f-${uri}`);
      for (const uri of foreign) target.splice(Math.floor(next() * target.length), 0, uri);
      const desired = songs.filter(() => next() < 0.8).sort(() => next() - 0.5);
      const plan = planMirror({ target: entries(target), desired, owned: new Set(songs), protectedUris: new Set(), removesForeign: false });
      const after = apply(target, plan);
      expect(after.filter((uri) => songs.includes(uri)), `seed ${seed}`).toEqual(desired);
      expect(after.filter((uri) => uri.startsWith('f-')), `seed ${seed}`).toEqual(target.filter((uri) => uri.startsWith('f-')));
      expect(after, `seed ${seed}`).toEqual(plan.finalUris);
      const again = planMirror({ target: entries(after), desired, owned: new Set(songs), protectedUris: new Set(), removesForeign: false });
      expect(again.moves.length + again.removals.length + again.adds.length, `seed ${seed}: converged`).toBe(0);
    }
  });
});
