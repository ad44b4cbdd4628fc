import type { Manifest, Track } from '@opl/plugin-sdk';
import type { SignalBreakdown, Strictness } from '../../matching/index.ts';
import type { PluginCallContext } from '../../plugin-host/index.ts';
import type { EdgeSource, SqlStatement } from './match-graph.sql.ts';

/** The match service's contract: what callers pass and get back, and the graph's constants. */

export type GraphTransaction = <T>(work: (execute: SqlExecutor) => Promise<T>) => Promise<T>;

/** What the target adapter says of a URI (its `validateUri`); null when it cannot tell. */
export type ValidateTarget = (uri: string) => Promise<{ valid: boolean; entity?: string | null; id?: string | null; normalizedUri?: string | null } | null>;

export type SqlExecutor = (statement: SqlStatement) => Promise<Record<string, unknown>[]>;

export interface MatchPlugins {
  /** `signal`: the caller gave up (a cancelled generation); the search in flight is aborted. */
  call(pluginId: string, op: 'searchTracks', input: { query: SearchQuery; mode: 'isrc' | 'text'; limit: number }, context?: PluginCallContext, signal?: AbortSignal): Promise<{ candidates: Track[] }>;
}

export interface MatchCatalogue {
  providerPlugin(providerName: string): Manifest | undefined;
}

export interface SearchQuery {
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
  /** Aborts the target searches in flight when the caller gives up (a cancelled generation). */
  signal?: AbortSignal;
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
