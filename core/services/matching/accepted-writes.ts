import { randomUUID } from 'node:crypto';
import type { Track } from '@opl/plugin-sdk';
import { isrcKey, roundDuration, trackKey, uriOf } from './match-answers.ts';
import { GLOBAL_SCOPE, upsertEdges, type EdgeFields, type MissKey } from './match-graph.sql.ts';
import { deleteMisses, fillIdentities, insertIdentities, selectIdentitiesByIsrc, selectSourceIdentities, type IdentityFill, type NewIdentity } from './accepted-writes.sql.ts';
import { linkableId, normalizeIsrc } from './match-keys.ts';
import { READ_EDGE_CONFIDENCE, type SqlExecutor } from './match-types.ts';

/** What a search's acceptance records: the chosen target track, and the source track on the same identity. */
export interface AcceptedWrite {
  source: Track;
  sourceProvider: string;
  targetProvider: string;
  chosen: Track;
  chosenId: string;
  confidence: number;
  missKey: MissKey;
  /** Whether a no-match row was seen for `missKey` (else there is none to delete). */
  hadMiss: boolean;
}

/** The graph keys an acceptance reads or writes (its lock keys): the two tracks and the ISRCs. */
export function acceptedKeys(write: AcceptedWrite): string[] {
  const sourceId = linkableId(write.source);
  const sourceIsrc = normalizeIsrc(write.source.isrc);
  const targetIsrc = normalizeIsrc(write.chosen.isrc);
  return [trackKey(write.targetProvider, write.chosenId), ...(sourceId ? [trackKey(write.sourceProvider, sourceId)] : []), ...(sourceIsrc ? [isrcKey(sourceIsrc)] : []), ...(targetIsrc ? [isrcKey(targetIsrc)] : [])];
}

/**
 * The writes (indexes into `keysOf`, in order) that can be applied together now: each one whose
 * keys no earlier write still waiting shares. Applied as one set, they give what applying them one
 * after the other would: none reads a row another of the set writes. The rest wait for a later
 * round, behind the earlier write they share a key with.
 */
export function nextRound(keysOf: readonly (readonly string[])[]): number[] {
  const seen = new Set<string>();
  const round: number[] = [];
  keysOf.forEach((keys, index) => {
    if (!keys.some((key) => seen.has(key))) round.push(index);
    for (const key of keys) seen.add(key);
  });
  return round;
}

/**
 * Of writes (in order) that found an existing identity, the ones to keep in this round: the first
 * of each identity. A later one would fill the same identity row in the same statement, where it
 * must see the earlier fill (its ISRC decides whether the edge is `isrc_exact`); it waits.
 */
export function firstPerIdentity(identityOf: readonly (string | null)[]): boolean[] {
  const seen = new Set<string>();
  return identityOf.map((identity) => {
    if (identity === null) return true;
    if (seen.has(identity)) return false;
    seen.add(identity);
    return true;
  });
}

interface Placed {
  write: AcceptedWrite;
  identityId: string;
  identityIsrc: string | null;
}

/**
 * Applies acceptances in one transaction whose graph locks the caller holds, in set-based rounds
 * (one statement per step for a whole round, instead of three or four per acceptance) with the
 * result of applying them one after the other (see `nextRound`, `firstPerIdentity`). Each
 * acceptance: a global edge for the chosen track (`isrc_exact` when its ISRC is the identity's,
 * else `fuzzy`), the source track linked to the same identity (so the reverse direction resolves
 * from the graph too), and the no-match row gone.
 */
export async function applyAccepted(execute: SqlExecutor, writes: readonly AcceptedWrite[]): Promise<void> {
  let waiting = [...writes];
  while (waiting.length > 0) {
    const candidates = nextRound(waiting.map(acceptedKeys)).map((index) => waiting[index]!);
    const round = await placeRound(execute, candidates);
    const applied = new Set(round.map((placed) => placed.write));
    waiting = waiting.filter((write) => !applied.has(write));
    await writeEdges(execute, round);
    const misses = round.filter((placed) => placed.write.hadMiss).map((placed) => placed.write.missKey);
    if (misses.length > 0) await execute(deleteMisses(misses));
  }
}

/**
 * The identity of each write of a round (`identityFor` of the single acceptance, for many): the
 * source track's own edge or ISRC, else the target's ISRC identity, else a new one; found ones are
 * filled with what they did not know. Writes that would fill an identity an earlier one of the
 * round fills are left out (they come in the next round).
 */
async function placeRound(execute: SqlExecutor, writes: readonly AcceptedWrite[]): Promise<Placed[]> {
  const sources = writes.map((write) => ({ provider: write.sourceProvider, trackId: linkableId(write.source), isrc: normalizeIsrc(write.source.isrc), scope: GLOBAL_SCOPE }));
  const bySource = new Map<number, string>();
  for (const row of await execute(selectSourceIdentities(sources))) bySource.set(Number(row['write_index']), String(row['identity_id']));
  // Without an identity of its own: the target's ISRC identity, unless that ISRC is the source's (just looked up, none has it).
  const targetIsrcs = writes.map((write, index) => {
    const isrc = normalizeIsrc(write.chosen.isrc);
    return !bySource.has(index) && isrc !== null && isrc !== sources[index]!.isrc ? isrc : null;
  });
  const wanted = targetIsrcs.filter((isrc): isrc is string => isrc !== null);
  const byIsrc = new Map<string, string>();
  if (wanted.length > 0) for (const row of await execute(selectIdentitiesByIsrc(wanted))) byIsrc.set(String(row['isrc']), String(row['id']));
  const existing = writes.map((_write, index) => bySource.get(index) ?? (targetIsrcs[index] ? (byIsrc.get(targetIsrcs[index]) ?? null) : null));
  const keep = firstPerIdentity(existing);

  const fills: IdentityFill[] = [];
  const created: NewIdentity[] = [];
  const placed: Placed[] = [];
  writes.forEach((write, index) => {
    if (!keep[index]) return;
    const { source } = write;
    const sourceIsrc = sources[index]!.isrc;
    const targetIsrc = normalizeIsrc(write.chosen.isrc);
    const identityId = existing[index];
    if (identityId && bySource.has(index)) {
      fills.push({ id: identityId, isrc: sourceIsrc ?? targetIsrc, album: source.album, durationS: roundDuration(source.duration_s) });
      placed.push({ write, identityId, identityIsrc: null });
    } else if (identityId) {
      fills.push({ id: identityId, isrc: null, album: source.album, durationS: roundDuration(source.duration_s) });
      placed.push({ write, identityId, identityIsrc: targetIsrc });
    } else {
      const isrc = targetIsrc ?? sourceIsrc;
      const id = randomUUID();
      created.push({ id, isrc, title: source.title, artist: source.artist || source.artists.join(', '), album: source.album, durationS: roundDuration(source.duration_s) });
      placed.push({ write, identityId: id, identityIsrc: isrc });
    }
  });
  if (fills.length > 0) {
    const filled = new Map((await execute(fillIdentities(fills))).map((row) => [String(row['id']), (row['isrc'] as string | null) ?? null]));
    for (const entry of placed) if (entry.identityIsrc === null && filled.has(entry.identityId)) entry.identityIsrc = filled.get(entry.identityId)!;
  }
  if (created.length > 0) await execute(insertIdentities(created));
  return placed;
}

/**
 * Every edge of a round in one statement; a write whose two edges are the same row (a migration
 * between two accounts of one service) has its second one in a statement after, which sees the first.
 */
async function writeEdges(execute: SqlExecutor, round: readonly Placed[]): Promise<void> {
  const first: EdgeFields[] = [];
  const after: EdgeFields[] = [];
  for (const { write, identityId, identityIsrc } of round) {
    const { source, sourceProvider, targetProvider, chosen, chosenId, confidence } = write;
    // An edge whose track carries the identity's own ISRC is as sure as a read; any other is the match's.
    const edgeOf = (track: typeof chosen, provider: string, providerTrackId: string): EdgeFields => {
      const isrcBacked = identityIsrc !== null && normalizeIsrc(track.isrc) === identityIsrc;
      return { identityId, provider, providerTrackId, providerUri: uriOf(track, provider), confidence: isrcBacked ? READ_EDGE_CONFIDENCE : confidence, source: isrcBacked ? 'isrc_exact' : 'fuzzy', scope: GLOBAL_SCOPE };
    };
    first.push(edgeOf(chosen, targetProvider, chosenId));
    const sourceId = linkableId(source);
    if (!sourceId) continue;
    const edge = edgeOf(source, sourceProvider, sourceId);
    (sourceProvider === targetProvider && sourceId === chosenId ? after : first).push(edge);
  }
  if (first.length > 0) await execute(upsertEdges(first));
  if (after.length > 0) await execute(upsertEdges(after));
}
