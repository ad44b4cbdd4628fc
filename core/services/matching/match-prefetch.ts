import { missToken, trackKey, isrcKey } from './match-answers.ts';
import { selectDenials, selectGraphMatches, selectMisses, type DenialKey, type GraphLookup, type MissKey } from './match-graph.sql.ts';
import type { SqlExecutor } from './match-types.ts';

/** What one resolution would first ask the database, read ahead for a slice of songs. */
export interface PrefetchLookup {
  graph: GraphLookup;
  miss: MissKey;
  denial: DenialKey;
}

/** The answers read ahead for one lookup. */
export interface Prefetched {
  graph: Record<string, unknown> | null;
  miss: Record<string, unknown> | null;
  denied: string[];
}

interface Entry extends Prefetched {
  /** The write counter when the read started: writes counted later may not be in it. */
  version: number;
  tokens: string[];
}

/**
 * Read-ahead of the match service's per-song lookups (graph edge, no-match row, denials), three
 * statements for a whole slice of songs instead of three per song. An answer is used once, and
 * only while no write of this service instance since the read touched what it depends on (its
 * ISRC, its source track, the target track it names, its no-match row); otherwise the service
 * asks the database again. So a song listed twice in one playlist is searched once, as before:
 * the second copy finds the first one's edge. Writes by other processes during the slice can be
 * missed, as they could between any read and its use: an edge found later costs a search, a
 * denial made meanwhile in another job applies from the next lookup on.
 */
export class MatchPrefetch {
  readonly #entries = new Map<string, Entry>();
  readonly #dirty = new Map<string, number>();
  #counter = 0;
  #allDirtyAt = 0;

  async load(execute: SqlExecutor, lookups: readonly PrefetchLookup[]): Promise<void> {
    const unique = new Map<string, PrefetchLookup>();
    for (const lookup of lookups) unique.set(lookupKey(lookup.graph, lookup.miss.strictness), lookup);
    if (unique.size === 0) return;
    const list = [...unique.values()];
    const version = ++this.#counter;
    const graph = await execute(selectGraphMatches(list.map((lookup) => lookup.graph)));
    const misses = await execute(selectMisses(list.map((lookup) => lookup.miss)));
    const denials = await execute(selectDenials(list.map((lookup) => lookup.denial)));
    const entries: Entry[] = list.map((lookup) => ({ version, tokens: tokensOf(lookup), graph: null, miss: null, denied: [] }));
    for (const row of graph) {
      const entry = entries[Number(row.lookup_index)]!;
      entry.graph = row;
      entry.tokens.push(trackKey(list[Number(row.lookup_index)]!.graph.targetProvider, String(row.provider_track_id)));
    }
    for (const row of misses) entries[Number(row.lookup_index)]!.miss = row;
    for (const row of denials) entries[Number(row.lookup_index)]!.denied.push(String(row.target_track_id));
    list.forEach((lookup, index) => this.#entries.set(lookupKey(lookup.graph, lookup.miss.strictness), entries[index]!));
  }

  /** The answers read ahead for this lookup, if still current; each is handed out once. */
  take(graph: GraphLookup, strictness: string): Prefetched | null {
    const key = lookupKey(graph, strictness);
    const entry = this.#entries.get(key);
    if (!entry) return null;
    this.#entries.delete(key);
    if (entry.version <= this.#allDirtyAt) return null;
    for (const token of entry.tokens) if ((this.#dirty.get(token) ?? 0) >= entry.version) return null;
    return entry;
  }

  /** A write committed (or tried): answers read before it about these keys are not used. */
  touched(tokens: readonly string[] | 'all'): void {
    const version = ++this.#counter;
    if (tokens === 'all') {
      this.#allDirtyAt = version;
      this.#dirty.clear();
      return;
    }
    for (const token of tokens) this.#dirty.set(token, version);
  }
}

function lookupKey(graph: GraphLookup, strictness: string): string {
  return JSON.stringify([graph.sourceProvider, graph.sourceTrackId, graph.isrc, graph.sourceKey, graph.targetProvider, graph.scope, strictness, graph.minFuzzyConfidence, graph.confirmedForSourceOnly ?? false]);
}

function tokensOf(lookup: PrefetchLookup): string[] {
  const tokens = [missToken(lookup.miss)];
  if (lookup.graph.isrc) tokens.push(isrcKey(lookup.graph.isrc));
  if (lookup.graph.sourceTrackId) tokens.push(trackKey(lookup.graph.sourceProvider, lookup.graph.sourceTrackId));
  return tokens;
}
