import { PluginError, type Track } from '@opl/plugin-sdk';
import { decideMatch, parseStrictness, STRICTNESS, type ScoredCandidate, type Strictness } from '../../matching/index.ts';
import { GraphWriter } from './graph-writer.ts';
import { empty, GRAPH_REASON, missToken, ranked, unsearchableReason, uriOf } from './match-answers.ts';
import { GLOBAL_SCOPE, recordMiss, selectDenied, selectGraphMatch, selectMiss, type DenialKey, type EdgeSource, type GraphLookup, type MissKey } from './match-graph.sql.ts';
import { accountScope, hasSearchText, isLinkOnly, linkableId, linksOf, normalizeIsrc, sourceKeyOf } from './match-keys.ts';
import { MatchPrefetch, type Prefetched } from './match-prefetch.ts';
import {
  MISS_BACKOFF_MAX_SECONDS,
  MISS_BACKOFF_SECONDS,
  REVALIDATE_AFTER_DAYS,
  type ConfirmRequest,
  type ConfirmResult,
  type DenyRequest,
  type GraphTransaction,
  type MatchCatalogue,
  type MatchPlugins,
  type MatchTarget,
  type Resolution,
  type ResolveRequest,
  type SearchQuery,
  type SqlExecutor,
  type ValidateTarget,
} from './match-types.ts';

export * from './match-types.ts';

/**
 * The match service: the one place that caches, scores and promotes. Adapters only return
 * candidates (`searchTracks`); scoring is the pure `decideMatch`; this service owns the identity
 * graph (`track_identity`, `track_edge`), the no-match cache (`match_miss`) and remembered
 * denials (`match_denial`).
 *
 * Rules
 * - A read of a track with an ISRC and a provider id records a global `isrc_exact` edge (1.0).
 * - A source track that names a track of the target itself (`provider_uris[target]`, or a web link
 *   a file kept for it, taken by the adapter's `validateUri` as a track) is the answer before
 *   anything else (`#namedBySource`).
 * - `resolve` then asks the graph — the account's overlay, then global edges — reached through the
 *   source track's own edge or its ISRC; a hit costs zero searches. A global `fuzzy` edge counts
 *   only if its confidence clears the requested strictness's accept bar. Under `exact_release` only
 *   a person's confirmation of this very source track answers: an identity is a recording, and any
 *   other edge (an ISRC read, an earlier acceptance) may name another release of it, such as a
 *   compilation copy with the album track's ISRC; so that level searches and scores the release.
 * - A graph hit is checked against the target adapter (`validate`, the adapter's `validateUri`)
 *   before it is used when it is an edge people made (a confirmation or any account overlay: a
 *   correction may have pasted an album link) or a search-made edge older than 30 days (plugin URI
 *   forms change). Fresh search-made edges came from the target's own track results, so checking
 *   them would only add a sandbox call per song to every warm migration. An edge the adapter
 *   refuses, or that names an album or artist rather than a track, is removed in every scope and
 *   the next edge (or a search) answers; answers are memoised per service instance (one migration
 *   run). What a URI check cannot see — a track the catalogue removed — surfaces as NotFound when
 *   writing; the writer then calls `forgetTarget`, which removes the edge everywhere.
 * - Otherwise it searches the target: by ISRC first when the target declares the `isrc` search mode
 *   and the source has one, then by text (never with no text: a source with nothing to search by
 *   is rejected as `unsearchable`, not searched for nothing and not cached as a miss); it scores
 *   locally and, on accept, records a global edge for the chosen track (`isrc_exact` when its ISRC
 *   is the identity's, else `fuzzy`) and links the source track to the same identity, so the
 *   reverse direction resolves from the graph too.
 * - A search failure (rate limit, expired auth, any provider error) is `retry`: nothing is
 *   recorded. A real no-match is cached for 1 day, doubling with each further miss (max 30 days).
 * - A confirmation writes `user_confirmed` edges in the account's overlay (applies at once to that
 *   account only). It is promoted to `global` only on corroborated evidence: the source's and the
 *   chosen track's ISRCs agree, or at least 2 distinct accounts confirmed the same target track
 *   for the same identity. A promoted edge never replaces a global `isrc_exact` edge.
 * - A denial is remembered per account and source track: that target is never auto-chosen again
 *   for it, from the graph or from a search.
 * - Nothing personal enters global rows: no account, playlist or user ids; local-file tracks never
 *   get edges.
 * - Graph writes (identity, edges, promotion, denial) run in transactions after advisory locks on
 *   the ISRCs and provider tracks involved (`GraphWriter`); edges are unique per (provider, track,
 *   scope) and upserted. A migration reads a slice's lookups ahead (`prefetch`, `MatchPrefetch`)
 *   and commits its acceptances once per slice (`deferGraphWrites`, `flushGraphWrites`).
 */

const SEARCH_LIMIT = 10;
/** Typed errors of an ISRC search that just mean "search by text instead". */
const FALL_THROUGH = new Set(['Unsupported', 'InvalidInput', 'NotFound']);

export interface MatchServiceOptions {
  execute: SqlExecutor;
  /** Runs graph writes atomically (one database transaction). */
  transaction: GraphTransaction;
  plugins: MatchPlugins;
  catalogue: MatchCatalogue;
  /** The clock, for the no-match backoff. */
  now?: () => Date;
  /**
   * Acceptances wait for `flushGraphWrites` instead of one commit per resolution (a migration
   * commits a slice's at once; see `GraphWriter`). Whoever sets it must flush.
   */
  deferGraphWrites?: boolean;
}

class SearchFailed extends Error {
  readonly type: string;
  readonly retryAfterSeconds: number | null;
  constructor(type: string, message: string, retryAfterSeconds: number | null) {
    super(message);
    this.type = type;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export class MatchService {
  readonly #execute: SqlExecutor;
  readonly #plugins: MatchPlugins;
  /** validateUri answers of this instance's lifetime (one migration run), per validator, by provider and URI. */
  readonly #validated = new WeakMap<ValidateTarget, Map<string, Promise<boolean>>>();
  readonly #catalogue: MatchCatalogue;
  readonly #now: () => Date;
  readonly #prefetched = new MatchPrefetch();
  readonly #graph: GraphWriter;

  constructor(options: MatchServiceOptions) {
    this.#execute = options.execute;
    this.#plugins = options.plugins;
    this.#catalogue = options.catalogue;
    this.#now = options.now ?? (() => new Date());
    this.#graph = new GraphWriter(options.transaction, (tokens) => this.#prefetched.touched(tokens), { deferAccepted: options.deferGraphWrites ?? false });
  }

  /** Commits the acceptances `deferGraphWrites` kept waiting, in one transaction. */
  flushGraphWrites(): Promise<void> {
    return this.#graph.flush();
  }

  /** A statement on the graph, the no-match cache or denials: it must see every acceptance, so deferred ones are committed first. */
  async #query(statement: Parameters<SqlExecutor>[0]): Promise<Record<string, unknown>[]> {
    if (this.#graph.pending) await this.#graph.flush();
    return this.#execute(statement);
  }

  /** Records what a read of `provider` tells the graph: tracks with an ISRC and an id. */
  recordReadTracks(provider: string, tracks: readonly Track[]): Promise<number> {
    return this.#graph.recordReadTracks(provider, tracks);
  }

  /**
   * Reads ahead what `resolve` would first ask the database for each of these requests (the
   * graph, the no-match cache, denials): three statements for the lot. `resolve` then uses those
   * answers while nothing this instance wrote since could have changed them (see `MatchPrefetch`).
   */
  async prefetch(requests: readonly ResolveRequest[]): Promise<void> {
    await this.#prefetched.load(
      (statement) => this.#query(statement),
      requests.map((request) => {
        const strictness = parseStrictness(request.strictness);
        const graph = this.#lookup(request, strictness, []);
        return { graph, miss: missKeyOf(graph, strictness), denial: denialKeyOf(graph) };
      }),
    );
  }

  /** The graph lookup of a request (see `selectGraphMatch`). */
  #lookup(request: ResolveRequest, strictness: Strictness, dropped: readonly string[]): GraphLookup {
    const settings = STRICTNESS[strictness];
    return {
      sourceProvider: request.sourceProvider,
      sourceTrackId: linkableId(request.source),
      isrc: normalizeIsrc(request.source.isrc),
      sourceKey: sourceKeyOf(request.source),
      targetProvider: request.target.provider,
      scope: accountScope(request.target.accountId),
      minFuzzyConfidence: settings.trustFuzzyGraphEdges ? settings.acceptAt : null,
      confirmedForSourceOnly: settings.graphAnswersOnlyConfirmedSource,
      excludeTrackIds: dropped,
    };
  }

  async resolve(request: ResolveRequest): Promise<Resolution> {
    const { target } = request;
    const strictness = parseStrictness(request.strictness);
    const first = this.#lookup(request, strictness, []);
    const { scope, sourceKey } = first;

    const named = await this.#namedBySource(request, scope, sourceKey);
    if (named) return named;

    // What a slice's read-ahead found for this song, if nothing since made it out of date.
    const ahead = this.#prefetched.take(first, strictness);
    const dropped: string[] = [];
    for (;;) {
      const [hit] = dropped.length === 0 && ahead ? (ahead.graph ? [ahead.graph] : []) : await this.#query(selectGraphMatch(this.#lookup(request, strictness, dropped)));
      if (!hit) break;
      const edgeSource = hit.source as EdgeSource;
      const edgeScope = String(hit.scope);
      const chosenId = String(hit.provider_track_id);
      const uri = (hit.provider_uri as string | null) ?? null;
      if (uri && request.validate && this.#needsCheck(edgeSource, edgeScope, hit.created_at) && !(await this.#stillValid(target.provider, chosenId, uri, request.validate))) {
        dropped.push(chosenId);
        await this.forgetTarget(target.provider, chosenId);
        continue;
      }
      return {
        decision: 'accept',
        chosen: { id: chosenId, uri, track: null },
        confidence: Number(hit.confidence),
        reason: `${GRAPH_REASON[edgeSource]}${edgeScope === GLOBAL_SCOPE ? '' : ' for this account'}, found through ${Number(hit.via_rank) === 0 ? 'this very source track' : 'its recording code (ISRC)'}; no search needed.`,
        breakdown: [],
        penalties: [],
        candidates: [],
        searches: 0,
        from: 'graph',
        edge: { source: edgeSource, scope: edgeScope },
        ...(dropped.length > 0 ? { droppedEdges: dropped } : {}),
      };
    }

    const searched = await this.#resolveBySearch(request, strictness, first, dropped.length === 0 ? ahead : null);
    return dropped.length > 0 ? { ...searched, droppedEdges: dropped } : searched;
  }

  /**
   * The source already names a track of the target: its `provider_uris` has the target's key (a
   * pasted link, a file exported from that service, a migration between two accounts of one
   * service), or a file kept a web link the target's plugin knows as one of its tracks (see
   * `linksOf`). When the target adapter takes the link as a track, it is the answer at every
   * strictness, before the graph and without a search: it is the very track the listener had.
   * Nothing is recorded in the graph (a file's link is one listener's word, not evidence for
   * everyone), and a track this account denied for this source is not chosen again.
   */
  async #namedBySource(request: ResolveRequest, scope: string, sourceKey: string): Promise<Resolution | null> {
    const { source, sourceProvider, target, validate } = request;
    if (!validate) return null;
    for (const uri of linksOf(source, target.provider)) {
      const answer = await validate(uri).catch(() => null);
      if (!answer?.valid || answer.entity !== 'track' || !answer.id) continue;
      const denied = await this.#query(selectDenied({ scope, sourceProvider, sourceKey, targetProvider: target.provider }));
      if (denied.some((row) => String(row.target_track_id) === answer.id)) return null;
      return {
        decision: 'accept',
        chosen: { id: answer.id, uri: answer.normalizedUri ?? uri, track: null },
        confidence: 1,
        reason: `The source names this very ${target.provider} track (${uri.slice(0, 200)}); no search needed.`,
        breakdown: [],
        penalties: [],
        candidates: [],
        searches: 0,
        from: 'source_uri',
      };
    }
    return null;
  }

  /** No usable graph edge: the no-match cache, then the target's search, local scoring and recording. */
  async #resolveBySearch(request: ResolveRequest, strictness: Strictness, lookup: GraphLookup, ahead: Prefetched | null): Promise<Resolution> {
    const { source, target } = request;
    const { isrc } = lookup;
    const attributes = this.#catalogue.providerPlugin(target.provider)?.provider?.attributes;
    const targetSearchesIsrc = attributes?.search_modes.includes('isrc') ?? false;
    const searchesIsrc = isrc !== null && targetSearchesIsrc;
    const hasText = hasSearchText(source);
    // A pasted link of another service, alone on its line, has nothing a search could use; asking
    // anyway would search for nothing (a provider refuses an empty query). The preflight warns by
    // the same rule (`isLinkOnly`).
    if (isLinkOnly(source, targetSearchesIsrc)) return { ...empty('reject', 'unsearchable', 0), reason: unsearchableReason(source, target.provider) };
    const missKey = missKeyOf(lookup, strictness);
    const [miss] = ahead ? (ahead.miss ? [ahead.miss] : []) : await this.#query(selectMiss(missKey));
    const now = this.#now();
    if (miss && new Date(miss.retry_after as string | Date) > now) {
      const retryAt = new Date(miss.retry_after as string | Date);
      return {
        ...empty('reject', 'miss_cache', 0),
        reason: `No match on ${target.provider} when last searched; not searching again before ${retryAt.toISOString()}.`,
        retryAt,
      };
    }

    const denied = new Set(ahead ? ahead.denied : (await this.#query(selectDenied(denialKeyOf(lookup)))).map((row) => String(row.target_track_id)));
    const matchOptions = { targetProvider: target.provider, strictness, targetIsVideoProvider: attributes?.video ?? false };

    let searches = 0;
    const pool = new Map<string, Track>();
    let droppedDenied = false;
    const add = (tracks: readonly Track[]) => {
      for (const track of tracks) {
        if (!track.id || pool.has(track.id)) continue;
        if (denied.has(track.id)) {
          droppedDenied = true;
          continue;
        }
        pool.set(track.id, track);
      }
    };
    try {
      if (searchesIsrc) {
        searches += 1;
        const found = await this.#search(target, { isrc, title: null, artist: null, album: null, duration_s: null }, 'isrc', request, true);
        add(found);
        if (pool.size > 0) {
          const decision = decideMatch(source, [...pool.values()], matchOptions);
          if (decision.decision === 'accept') return await this.#accepted(request, decision.chosen!, decision.confidence, decision.reason, decision.ranked, pool, searches, missKey, miss !== undefined);
        }
      }
      if (hasText) {
        searches += 1;
        add(await this.#search(target, { isrc: null, title: source.title, artist: source.artist || null, album: source.album, duration_s: source.duration_s }, 'text', request, false));
      }
    } catch (error) {
      if (!(error instanceof SearchFailed)) throw error;
      return {
        ...empty('retry', 'search', searches),
        reason: `Searching ${target.provider} failed (${error.type}: ${error.message}); the item stays retryable.`,
        error: error.type,
        retryAfterSeconds: error.retryAfterSeconds,
      };
    }

    const decision = decideMatch(source, [...pool.values()], matchOptions);
    if (decision.decision === 'accept') return this.#accepted(request, decision.chosen!, decision.confidence, decision.reason, decision.ranked, pool, searches, missKey, miss !== undefined);
    const candidates = ranked(decision.ranked, pool);
    const best = candidates[0];
    // What review and reject answers share: the scorer's verdict on the best candidate and the ranking.
    const scored = {
      confidence: decision.confidence,
      reason: decision.reason,
      breakdown: best?.breakdown ?? [],
      penalties: best?.penalties ?? [],
      candidates,
      searches,
      from: 'search' as const,
    };
    if (decision.decision === 'review') {
      return { decision: 'review', chosen: best ? { id: best.track.id!, uri: uriOf(best.track, target.provider), track: best.track } : null, ...scored };
    }
    // A real no-match. One the account's own denials caused is not everyone's no-match: not cached.
    let retryAt: Date | undefined;
    if (!droppedDenied) {
      const [row] = await this.#query(recordMiss(missKey, now, MISS_BACKOFF_SECONDS, MISS_BACKOFF_MAX_SECONDS));
      this.#prefetched.touched([missToken(missKey)]);
      if (row) retryAt = new Date(row.retry_after as string | Date);
    }
    return { decision: 'reject', chosen: null, ...scored, ...(retryAt ? { retryAt } : {}) };
  }

  /** A user's confirmation: an overlay edge at once; global only on corroborated evidence (see `GraphWriter`). */
  confirm(request: ConfirmRequest): Promise<ConfirmResult> {
    return this.#graph.confirm(request);
  }

  /** A user's "not this one": remembered for the account and source; undoes a confirmation of it. */
  deny(request: DenyRequest): Promise<void> {
    return this.#graph.deny(request);
  }

  /**
   * A target track that does not exist (a write answered NotFound, or the adapter refused its URI):
   * its edges go from every scope, so no account's migration is sent to it again. Returns how many.
   */
  forgetTarget(provider: string, providerTrackId: string): Promise<number> {
    return this.#graph.forgetTarget(provider, providerTrackId);
  }

  /**
   * Which graph hits are checked with the adapter. An edge a search recorded came from the target's
   * own track results, so its URI was a track URI of the plugin version of that day: it is checked
   * once it is older than `REVALIDATE_AFTER_DAYS` (plugins change URI forms, catalogues move).
   * Edges people made (a confirmation, any account overlay) are always checked: a correction may
   * have pasted an album or artist link. Catalogue removals show up as NotFound when writing.
   */
  #needsCheck(source: EdgeSource, scope: string, createdAt: unknown): boolean {
    if (scope !== GLOBAL_SCOPE || source === 'user_confirmed') return true;
    const created = new Date(createdAt as string | Date).getTime();
    return !Number.isFinite(created) || this.#now().getTime() - created > REVALIDATE_AFTER_DAYS * 86_400_000;
  }

  /** Whether the adapter still takes this graph edge's URI as this track (memoised per instance). */
  #stillValid(provider: string, trackId: string, uri: string, validate: ValidateTarget): Promise<boolean> {
    const key = `${provider}\u0000${uri}`;
    let memo = this.#validated.get(validate);
    if (!memo) this.#validated.set(validate, (memo = new Map<string, Promise<boolean>>()));
    const known = memo.get(key);
    if (known) return known;
    const answer = validate(uri).then(
      (result) => result === null || (result.valid && (result.entity ?? 'track') === 'track' && (result.id ?? trackId) === trackId),
      () => {
        // The check itself failing (provider trouble) says nothing against the edge; ask again next time.
        memo.delete(key);
        return true;
      },
    );
    memo.set(key, answer);
    return answer;
  }

  async #search(target: MatchTarget, query: SearchQuery, mode: 'isrc' | 'text', request: Pick<ResolveRequest, 'context' | 'signal'>, tolerant: boolean): Promise<Track[]> {
    try {
      const result = request.signal
        ? await this.#plugins.call(target.pluginId, 'searchTracks', { query, mode, limit: SEARCH_LIMIT }, request.context ?? {}, request.signal)
        : await this.#plugins.call(target.pluginId, 'searchTracks', { query, mode, limit: SEARCH_LIMIT }, request.context ?? {});
      return result.candidates;
    } catch (error) {
      const type = error instanceof PluginError ? error.type : error instanceof Error ? error.name : 'Error';
      if (tolerant && FALL_THROUGH.has(type)) return [];
      const retryAfter = error instanceof PluginError && 'retryAfterSeconds' in error ? (error.retryAfterSeconds as number | null) : null;
      throw new SearchFailed(type, error instanceof Error ? error.message : String(error), retryAfter);
    }
  }

  async #accepted(
    request: ResolveRequest,
    chosenId: string,
    confidence: number,
    reason: string,
    scored: ScoredCandidate[],
    pool: Map<string, Track>,
    searches: number,
    missKey: MissKey,
    hadMiss: boolean,
  ): Promise<Resolution> {
    const { source, sourceProvider, target } = request;
    const chosen = pool.get(chosenId)!;
    const candidates = ranked(scored, pool);
    const best = candidates.find((c) => c.track.id === chosenId);
    await this.#graph.recordAccepted({ source, sourceProvider, targetProvider: target.provider, chosen, chosenId, confidence, missKey, hadMiss });
    return {
      decision: 'accept',
      chosen: { id: chosenId, uri: uriOf(chosen, target.provider), track: chosen },
      confidence,
      reason,
      breakdown: best?.breakdown ?? [],
      penalties: best?.penalties ?? [],
      candidates,
      searches,
      from: 'search',
    };
  }
}

function missKeyOf(lookup: GraphLookup, strictness: Strictness): MissKey {
  return { sourceProvider: lookup.sourceProvider, sourceKey: lookup.sourceKey, targetProvider: lookup.targetProvider, strictness };
}

function denialKeyOf(lookup: GraphLookup): DenialKey {
  return { scope: lookup.scope, sourceProvider: lookup.sourceProvider, sourceKey: lookup.sourceKey, targetProvider: lookup.targetProvider };
}
