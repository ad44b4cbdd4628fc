import { PluginError, type Manifest, type Track } from '@opl/plugin-sdk';
import { decideMatch, parseStrictness, STRICTNESS, type ScoredCandidate, type SignalBreakdown, type Strictness } from '../../matching/index.ts';
import type { PluginCallContext } from '../../plugin-host/index.ts';
import {
  countConfirmingAccounts,
  deleteDenial,
  deleteEdge,
  deleteMiss,
  deleteTargetEdges,
  fillIdentity,
  GLOBAL_SCOPE,
  insertDenial,
  insertIdentity,
  lockGraphKey,
  recordMiss,
  selectDenied,
  selectGraphMatch,
  selectIdentityByIsrc,
  selectMiss,
  selectConfirmedIdentity,
  selectSourceIdentity,
  upsertEdge,
  type DenialKey,
  type EdgeSource,
  type MissKey,
  type SqlStatement,
} from './match-graph.sql.ts';
import { accountScope, hasSearchText, isLinkOnly, linkableId, linksOf, namedLinks, normalizeIsrc, sourceKeyOf } from './match-keys.ts';

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
 * - Graph writes (identity, edges, promotion, denial) of one decision run in one transaction, after
 *   advisory locks on the ISRCs and provider tracks involved (sorted, so two workers cannot
 *   deadlock): a second worker resolving the same recording waits, then finds the first one's
 *   identity instead of creating a twin. Edges are unique per (provider, track, scope) and upserted.
 */

export type GraphTransaction = <T>(work: (execute: SqlExecutor) => Promise<T>) => Promise<T>;

/** What the target adapter says of a URI (its `validateUri`); null when it cannot tell. */
export type ValidateTarget = (uri: string) => Promise<{ valid: boolean; entity?: string | null; id?: string | null; normalizedUri?: string | null } | null>;

export type SqlExecutor = (statement: SqlStatement) => Promise<Record<string, unknown>[]>;

export interface MatchPlugins {
  call(pluginId: string, op: 'searchTracks', input: { query: SearchQuery; mode: 'isrc' | 'text'; limit: number }, context?: PluginCallContext): Promise<{ candidates: Track[] }>;
}

export interface MatchCatalogue {
  providerPlugin(providerName: string): Manifest | undefined;
}

interface SearchQuery {
  isrc: string | null;
  title: string | null;
  artist: string | null;
  album: string | null;
  duration_s: number | null;
}

export interface MatchTarget {
  /** Provider name (the manifest's `provider.name`). */
  provider: string;
  pluginId: string;
  accountId: string;
}

export interface ResolveRequest {
  source: Track;
  /** Provider the source track was read from (`import` or similar for files). */
  sourceProvider: string;
  target: MatchTarget;
  strictness?: Strictness;
  /** Passed to the target plugin's search (account and credentials). */
  context?: PluginCallContext;
  /** Checks a graph hit's URI with the target adapter before it is used (see the class comment). */
  validate?: ValidateTarget;
}

export interface ChosenTrack {
  id: string;
  uri: string | null;
  /** The full candidate when it came from a search; null on a graph hit. */
  track: Track | null;
}

export interface RankedCandidate {
  track: Track;
  score: number;
  reason: string;
  breakdown: SignalBreakdown[];
  penalties: SignalBreakdown[];
}

export interface Resolution {
  decision: 'accept' | 'review' | 'reject' | 'retry';
  /** On accept: the target track; on review: the best suggestion; otherwise null. */
  chosen: ChosenTrack | null;
  confidence: number;
  /** One human sentence. */
  reason: string;
  /** Signals and penalties of the chosen or best candidate (empty on a graph hit). */
  breakdown: SignalBreakdown[];
  penalties: SignalBreakdown[];
  /** Ranked candidates when searched (for review). */
  candidates: RankedCandidate[];
  /** Target searches this resolution made. */
  searches: number;
  /** `source_uri`: the source itself names a track of the target (see `#namedBySource`); `unsearchable`: nothing to search by. */
  from: 'source_uri' | 'graph' | 'search' | 'miss_cache' | 'unsearchable';
  /** On a graph hit: which edge answered. */
  edge?: { source: EdgeSource; scope: string };
  /** Graph edges the target adapter refused during this resolution (removed from the graph). */
  droppedEdges?: string[];
  /** On retry: the typed error and the provider's wait, if any; on a cached miss: when to search again. */
  error?: string;
  retryAfterSeconds?: number | null;
  retryAt?: Date;
}

export interface ConfirmRequest {
  accountId: string;
  source: Track;
  sourceProvider: string;
  targetProvider: string;
  /** The target track the user chose. */
  target: Track;
}

export interface ConfirmResult {
  identityId: string;
  promoted: boolean;
  /** Why it was promoted to global, if it was. */
  rule: 'isrc_agreement' | 'independent_confirmations' | null;
  confirmingAccounts: number;
}

export interface DenyRequest {
  accountId: string;
  source: Track;
  sourceProvider: string;
  targetProvider: string;
  targetTrackId: string;
}

export const READ_EDGE_CONFIDENCE = 1;
export const CONFIRMED_EDGE_CONFIDENCE = 1;
/** Confirmations from this many distinct accounts promote an overlay edge to global. */
export const PROMOTION_MIN_ACCOUNTS = 2;
/** Search-made graph edges older than this are checked with the target adapter before use. */
export const REVALIDATE_AFTER_DAYS = 30;
export const MISS_BACKOFF_SECONDS = 86_400;
export const MISS_BACKOFF_MAX_SECONDS = 30 * 86_400;
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
  readonly #transaction: GraphTransaction;
  readonly #plugins: MatchPlugins;
  /** validateUri answers of this instance's lifetime (one migration run), per validator, by provider and URI. */
  readonly #validated = new WeakMap<ValidateTarget, Map<string, Promise<boolean>>>();
  readonly #catalogue: MatchCatalogue;
  readonly #now: () => Date;

  constructor(options: MatchServiceOptions) {
    this.#execute = options.execute;
    this.#transaction = options.transaction;
    this.#plugins = options.plugins;
    this.#catalogue = options.catalogue;
    this.#now = options.now ?? (() => new Date());
  }

  /** Records what a read of `provider` tells the graph: tracks with an ISRC and an id. */
  async recordReadTracks(provider: string, tracks: readonly Track[]): Promise<number> {
    let recorded = 0;
    for (const track of tracks) {
      const id = linkableId(track);
      const isrc = normalizeIsrc(track.isrc);
      if (!id || !isrc) continue;
      await this.#graphWrite([isrcKey(isrc), trackKey(provider, id)], async (execute) => {
        const identityId = await this.#identityForIsrc(execute, isrc, track);
        await execute(
          upsertEdge({ identityId, provider, providerTrackId: id, providerUri: uriOf(track, provider), confidence: READ_EDGE_CONFIDENCE, source: 'isrc_exact', scope: GLOBAL_SCOPE }),
        );
      });
      recorded += 1;
    }
    return recorded;
  }

  async resolve(request: ResolveRequest): Promise<Resolution> {
    const { source, sourceProvider, target } = request;
    const strictness = parseStrictness(request.strictness);
    const settings = STRICTNESS[strictness];
    const scope = accountScope(target.accountId);
    const sourceKey = sourceKeyOf(source);
    const isrc = normalizeIsrc(source.isrc);

    const named = await this.#namedBySource(request, scope, sourceKey);
    if (named) return named;

    const dropped: string[] = [];
    for (;;) {
      const [hit] = await this.#execute(
        selectGraphMatch({
          sourceProvider,
          sourceTrackId: linkableId(source),
          isrc,
          sourceKey,
          targetProvider: target.provider,
          scope,
          minFuzzyConfidence: settings.trustFuzzyGraphEdges ? settings.acceptAt : null,
          confirmedForSourceOnly: settings.graphAnswersOnlyConfirmedSource,
          excludeTrackIds: dropped,
        }),
      );
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

    const searched = await this.#resolveBySearch(request, strictness, scope, sourceKey, isrc);
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
      const denied = await this.#execute(selectDenied({ scope, sourceProvider, sourceKey, targetProvider: target.provider }));
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
  async #resolveBySearch(request: ResolveRequest, strictness: Strictness, scope: string, sourceKey: string, isrc: string | null): Promise<Resolution> {
    const { source, sourceProvider, target } = request;
    const attributes = this.#catalogue.providerPlugin(target.provider)?.provider?.attributes;
    const targetSearchesIsrc = attributes?.search_modes.includes('isrc') ?? false;
    const searchesIsrc = isrc !== null && targetSearchesIsrc;
    const hasText = hasSearchText(source);
    // A pasted link of another service, alone on its line, has nothing a search could use; asking
    // anyway would search for nothing (a provider refuses an empty query). The preflight warns by
    // the same rule (`isLinkOnly`).
    if (isLinkOnly(source, targetSearchesIsrc)) return { ...empty('reject', 'unsearchable', 0), reason: unsearchableReason(source, target.provider) };
    const missKey: MissKey = { sourceProvider, sourceKey, targetProvider: target.provider, strictness };
    const [miss] = await this.#execute(selectMiss(missKey));
    const now = this.#now();
    if (miss && new Date(miss.retry_after as string | Date) > now) {
      const retryAt = new Date(miss.retry_after as string | Date);
      return {
        ...empty('reject', 'miss_cache', 0),
        reason: `No match on ${target.provider} when last searched; not searching again before ${retryAt.toISOString()}.`,
        retryAt,
      };
    }

    const denialKey: DenialKey = { scope, sourceProvider, sourceKey, targetProvider: target.provider };
    const denied = new Set((await this.#execute(selectDenied(denialKey))).map((row) => String(row.target_track_id)));
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
        const found = await this.#search(target, { isrc, title: null, artist: null, album: null, duration_s: null }, 'isrc', request.context, true);
        add(found);
        if (pool.size > 0) {
          const decision = decideMatch(source, [...pool.values()], matchOptions);
          if (decision.decision === 'accept') return await this.#accepted(request, decision.chosen!, decision.confidence, decision.reason, decision.ranked, pool, searches, missKey);
        }
      }
      if (hasText) {
        searches += 1;
        add(await this.#search(target, { isrc: null, title: source.title, artist: source.artist || null, album: source.album, duration_s: source.duration_s }, 'text', request.context, false));
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
    if (decision.decision === 'accept') return this.#accepted(request, decision.chosen!, decision.confidence, decision.reason, decision.ranked, pool, searches, missKey);
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
      const [row] = await this.#execute(recordMiss(missKey, now, MISS_BACKOFF_SECONDS, MISS_BACKOFF_MAX_SECONDS));
      if (row) retryAt = new Date(row.retry_after as string | Date);
    }
    return { decision: 'reject', chosen: null, ...scored, ...(retryAt ? { retryAt } : {}) };
  }

  /** A user's confirmation: an overlay edge at once; global only on corroborated evidence. */
  async confirm(request: ConfirmRequest): Promise<ConfirmResult> {
    const { source, sourceProvider, targetProvider, target } = request;
    const targetId = linkableId(target);
    if (!targetId) throw new Error('the confirmed target track has no provider id');
    const scope = accountScope(request.accountId);
    const sourceId = linkableId(source);
    const sourceIsrc = normalizeIsrc(source.isrc);
    const targetIsrc = normalizeIsrc(target.isrc);

    const keys = [trackKey(targetProvider, targetId), ...(sourceId ? [trackKey(sourceProvider, sourceId)] : []), ...(sourceIsrc ? [isrcKey(sourceIsrc)] : []), ...(targetIsrc ? [isrcKey(targetIsrc)] : [])];
    return this.#graphWrite(keys, async (execute) => {
      const identityId = await this.#identityFor(execute, source, sourceProvider, scope, targetIsrc, { provider: targetProvider, id: targetId });
      await execute(deleteDenial({ scope, sourceProvider, sourceKey: sourceKeyOf(source), targetProvider }, targetId));
      if (sourceId) {
        await execute(
          upsertEdge({ identityId, provider: sourceProvider, providerTrackId: sourceId, providerUri: uriOf(source, sourceProvider), confidence: CONFIRMED_EDGE_CONFIDENCE, source: 'user_confirmed', scope }),
        );
      }
      await execute(
        upsertEdge({ identityId, provider: targetProvider, providerTrackId: targetId, providerUri: uriOf(target, targetProvider), confidence: CONFIRMED_EDGE_CONFIDENCE, source: 'user_confirmed', scope }),
      );

      const [count] = await execute(countConfirmingAccounts(targetProvider, targetId, identityId));
      const confirmingAccounts = Number(count?.accounts ?? 0);
      const rule = sourceIsrc !== null && sourceIsrc === targetIsrc ? 'isrc_agreement' : confirmingAccounts >= PROMOTION_MIN_ACCOUNTS ? 'independent_confirmations' : null;
      if (rule) {
        if (sourceId) {
          await execute(
            upsertEdge({ identityId, provider: sourceProvider, providerTrackId: sourceId, providerUri: uriOf(source, sourceProvider), confidence: CONFIRMED_EDGE_CONFIDENCE, source: 'user_confirmed', scope: GLOBAL_SCOPE }),
          );
        }
        await execute(
          upsertEdge({ identityId, provider: targetProvider, providerTrackId: targetId, providerUri: uriOf(target, targetProvider), confidence: CONFIRMED_EDGE_CONFIDENCE, source: 'user_confirmed', scope: GLOBAL_SCOPE }),
        );
      }
      return { identityId, promoted: rule !== null, rule, confirmingAccounts };
    });
  }

  /** A user's "not this one": remembered for the account and source; undoes a confirmation of it. */
  async deny(request: DenyRequest): Promise<void> {
    const scope = accountScope(request.accountId);
    const { source, sourceProvider, targetProvider, targetTrackId } = request;
    const sourceId = linkableId(source);
    const sourceIsrc = normalizeIsrc(source.isrc);
    const keys = [trackKey(targetProvider, targetTrackId), ...(sourceId ? [trackKey(sourceProvider, sourceId)] : []), ...(sourceIsrc ? [isrcKey(sourceIsrc)] : [])];
    await this.#graphWrite(keys, async (execute) => {
      await execute(insertDenial({ scope, sourceProvider, sourceKey: sourceKeyOf(source), targetProvider }, targetTrackId));
      const [row] = await execute(selectSourceIdentity(sourceProvider, sourceId, sourceIsrc, scope));
      if (row) await execute(deleteEdge(scope, targetProvider, targetTrackId, String(row.identity_id)));
    });
  }

  /**
   * A target track that does not exist (a write answered NotFound, or the adapter refused its URI):
   * its edges go from every scope, so no account's migration is sent to it again. Returns how many.
   */
  async forgetTarget(provider: string, providerTrackId: string): Promise<number> {
    return this.#graphWrite([trackKey(provider, providerTrackId)], async (execute) => (await execute(deleteTargetEdges(provider, providerTrackId))).length);
  }

  /** Runs graph writes in one transaction after locking their keys in a fixed order. */
  async #graphWrite<T>(keys: readonly string[], work: (execute: SqlExecutor) => Promise<T>): Promise<T> {
    const sorted = [...new Set(keys)].sort();
    return this.#transaction(async (execute) => {
      for (const key of sorted) await execute(lockGraphKey(key));
      return work(execute);
    });
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

  async #search(target: MatchTarget, query: SearchQuery, mode: 'isrc' | 'text', context: PluginCallContext | undefined, tolerant: boolean): Promise<Track[]> {
    try {
      const result = await this.#plugins.call(target.pluginId, 'searchTracks', { query, mode, limit: SEARCH_LIMIT }, context ?? {});
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
  ): Promise<Resolution> {
    const { source, sourceProvider, target } = request;
    const chosen = pool.get(chosenId)!;
    const candidates = ranked(scored, pool);
    const best = candidates.find((c) => c.track.id === chosenId);
    const targetIsrc = normalizeIsrc(chosen.isrc);
    const sourceId = linkableId(source);
    const sourceIsrc = normalizeIsrc(source.isrc);
    const keys = [trackKey(target.provider, chosenId), ...(sourceId ? [trackKey(sourceProvider, sourceId)] : []), ...(sourceIsrc ? [isrcKey(sourceIsrc)] : []), ...(targetIsrc ? [isrcKey(targetIsrc)] : [])];
    await this.#graphWrite(keys, async (execute) => {
      const identityId = await this.#identityFor(execute, source, sourceProvider, GLOBAL_SCOPE, targetIsrc);
      const [identity] = await execute({ text: 'select isrc from track_identity where id = ?', values: [identityId] });
      const identityIsrc = (identity?.isrc as string | null) ?? null;
      const isrcBacked = (isrc: string | null) => isrc !== null && isrc === identityIsrc;
      await execute(
        upsertEdge({
          identityId,
          provider: target.provider,
          providerTrackId: chosenId,
          providerUri: uriOf(chosen, target.provider),
          confidence: isrcBacked(targetIsrc) ? READ_EDGE_CONFIDENCE : confidence,
          source: isrcBacked(targetIsrc) ? 'isrc_exact' : 'fuzzy',
          scope: GLOBAL_SCOPE,
        }),
      );
      if (sourceId) {
        await execute(
          upsertEdge({
            identityId,
            provider: sourceProvider,
            providerTrackId: sourceId,
            providerUri: uriOf(source, sourceProvider),
            confidence: isrcBacked(sourceIsrc) ? READ_EDGE_CONFIDENCE : confidence,
            source: isrcBacked(sourceIsrc) ? 'isrc_exact' : 'fuzzy',
            scope: GLOBAL_SCOPE,
          }),
        );
      }
      await execute(deleteMiss(missKey));
    });
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

  /**
   * The identity of a source track (own edge in scope or global, then ISRC), else — for a
   * confirmation — the one other accounts confirmed this pair on, else the target's ISRC identity,
   * else a new one.
   */
  async #identityFor(execute: SqlExecutor, source: Track, sourceProvider: string, scope: string, targetIsrc: string | null, confirmed?: { provider: string; id: string }): Promise<string> {
    const sourceIsrc = normalizeIsrc(source.isrc);
    const sourceId = linkableId(source);
    let [row] = await execute(selectSourceIdentity(sourceProvider, sourceId, sourceIsrc, scope));
    if (!row && confirmed && sourceId) [row] = await execute(selectConfirmedIdentity(sourceProvider, sourceId, confirmed.provider, confirmed.id));
    if (row) {
      const id = String(row.identity_id);
      await execute(fillIdentity(id, { isrc: sourceIsrc ?? targetIsrc, album: source.album, durationS: roundDuration(source.duration_s) }));
      return id;
    }
    if (targetIsrc) return this.#identityForIsrc(execute, targetIsrc, source);
    return this.#createIdentity(execute, source, sourceIsrc);
  }

  async #identityForIsrc(execute: SqlExecutor, isrc: string, track: Track): Promise<string> {
    const [row] = await execute(selectIdentityByIsrc(isrc));
    if (row) {
      const id = String(row.id);
      await execute(fillIdentity(id, { album: track.album, durationS: roundDuration(track.duration_s) }));
      return id;
    }
    return this.#createIdentity(execute, track, isrc);
  }

  async #createIdentity(execute: SqlExecutor, track: Track, isrc: string | null): Promise<string> {
    const [row] = await execute(
      insertIdentity({ isrc, title: track.title, artist: track.artist || track.artists.join(', '), album: track.album, durationS: roundDuration(track.duration_s) }),
    );
    return String(row!.id);
  }
}

const GRAPH_REASON: Record<EdgeSource, string> = {
  isrc_exact: 'Known match: the same recording code (ISRC) on both services',
  user_confirmed: 'Known match: confirmed by a listener',
  fuzzy: 'Known match from an earlier confident search',
};

const isrcKey = (isrc: string): string => `isrc:${isrc}`;
const trackKey = (provider: string, id: string): string => `track:${provider}:${id}`;

function empty(decision: Resolution['decision'], from: Resolution['from'], searches: number): Resolution {
  return { decision, chosen: null, confidence: 0, reason: '', breakdown: [], penalties: [], candidates: [], searches, from };
}

function ranked(scored: readonly ScoredCandidate[], pool: Map<string, Track>): RankedCandidate[] {
  const out: RankedCandidate[] = [];
  for (const candidate of scored) {
    const track = pool.get(candidate.id);
    if (track) out.push({ track, score: candidate.score, reason: candidate.reason, breakdown: candidate.breakdown, penalties: candidate.penalties });
  }
  return out;
}

/** Why a source track without title, artist, album or a usable ISRC cannot be searched for, naming the link it does have. */
function unsearchableReason(track: Track, targetProvider: string): string {
  const named = namedLinks(track)[0];
  if (named === undefined) return `it has no title, artist or album to search ${targetProvider} by. Add the song's title and artist to the file.`;
  const { service, link } = named;
  const shown = link.slice(0, 200);
  const a = /^[aeiou]/i.test(service ?? '') ? 'an' : 'a';
  // The target's own link, which its plugin did not take as a song (a video, an album, a malformed id).
  if (service === targetProvider) return `it is only ${a} ${service} link (${shown}) that ${targetProvider} does not take as a song, with no title, artist or album to search by. Add the song's title and artist to the file.`;
  if (service === null) return `it is only a web link (${shown}) that ${targetProvider} does not take as a song, with no title, artist or album to search by. Add the song's title and artist to the file.`;
  return `it is only ${a} ${service} link (${shown}), with no title, artist or album to search ${targetProvider} by. Add the song's title and artist to the file, or migrate it to ${service}.`;
}

function uriOf(track: Track, provider: string): string | null {
  const uri = track.provider_uris[provider];
  return typeof uri === 'string' ? uri : null;
}

function roundDuration(duration: number | null): number | null {
  return duration === null ? null : Math.round(duration);
}
