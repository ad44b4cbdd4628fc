import type { Playlist, Track } from '@opl/plugin-sdk';
import type { SqlExecute } from '../../storage/sql/executors.ts';
import type { AccountView } from '../connections/connection.service.ts';
import { hasSearchText, type MatchService } from '../matching/index.ts';
import { identitiesOf, IMPORT_PROVIDER } from './workspace-model.ts';

/**
 * Resolves the songs a diff could not compare (no edge in the identity graph, no ISRC) through
 * the matching engine: each such song of one member is matched on the other member's account,
 * as a migration would match it. An accepted match writes the graph's edges for both tracks, so
 * the next diff (and the workspace) compares them from the graph, with no search. Songs of the
 * second member are looked at after the first's were resolved: one search often settles both.
 *
 * An import's songs (no provider id: no edge can name them) are matched on the account the import
 * is compared with, and each match is remembered for the import (`import-matches.ts`).
 *
 * This is the one part of the Library that searches; the diff says beforehand how many searches
 * it takes at most (the diff's `searches_needed`: one text search per song `unresolvedOf` lists). A rate limit or provider failure stops it; what was
 * resolved until then stays resolved.
 */

/** Searches one request makes at most (a large playlist is resolved over several requests). */
export const RESOLVE_SEARCH_LIMIT = 200;

export interface ResolveSide {
  account: AccountView;
  playlist: Playlist;
}

export interface ResolveOutcome {
  /** Searches sent to the providers. */
  searches: number;
  /** Songs that now have an identity. */
  resolved: number;
  /** Songs searched without a confident match (left for the migration's review). */
  unmatched: number;
  /** Songs not looked at: past the limit, or after the stop. */
  remaining: number;
  /** Why it stopped early (a rate limit, a provider failure); null when it went through. */
  stopped: { error: string; retry_after_s: number | null } | null;
}

/** A song the matcher can search for: not a local file, with a title, artist or album. */
function searchable(track: Track): boolean {
  return track.is_local !== true && hasSearchText(track);
}

/**
 * The tracks of a side without a known identity (`identities`, per track) that a search could
 * resolve, each once: by its provider id (`keyOf`; an account's track), or by its song key (an
 * import's track, which has no provider id). A track without a key cannot be searched.
 */
export function unresolvedOf(side: Pick<ResolveSide, 'playlist'>, identities: readonly (string | null)[], keyOf: (track: Track) => string | null = (track) => track.id): Track[] {
  const seen = new Set<string>();
  return side.playlist.tracks.filter((track, index) => {
    const key = keyOf(track);
    if (identities[index] !== null || key === null || !searchable(track) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

async function unresolvedTracks(execute: SqlExecute, side: ResolveSide): Promise<Track[]> {
  return unresolvedOf(side, await identitiesOf(execute, side.account, side.playlist.tracks.map((track) => ({ id: track.id, isrc: track.isrc, is_local: track.is_local }))));
}

const emptyOutcome = (): ResolveOutcome => ({ searches: 0, resolved: 0, unmatched: 0, remaining: 0, stopped: null });

/**
 * Matches each of `tracks` on the `to` account (within the request's search limit), adding to
 * `outcome`; `accepted` hears each match found (after the matcher wrote its graph edges).
 */
async function matchOnto(outcome: ResolveOutcome, tracks: readonly Track[], sourceProvider: string, to: AccountView, matcher: MatchService, accepted?: (source: Track, targetTrackId: string) => Promise<void>): Promise<void> {
  if (outcome.stopped || outcome.searches >= RESOLVE_SEARCH_LIMIT) {
    outcome.remaining += tracks.length;
    return;
  }
  const target = { provider: to.provider, pluginId: to.plugin_id ?? '', accountId: to.id };
  for (const [index, source] of tracks.entries()) {
    if (outcome.searches >= RESOLVE_SEARCH_LIMIT) {
      outcome.remaining += tracks.length - index;
      return;
    }
    const resolution = await matcher.resolve({ source, sourceProvider, target });
    outcome.searches += resolution.searches;
    if (resolution.decision === 'retry') {
      outcome.stopped = { error: resolution.error ?? 'ProviderError', retry_after_s: resolution.retryAfterSeconds ?? null };
      outcome.remaining += tracks.length - index;
      return;
    }
    if (resolution.decision === 'accept' && resolution.chosen) {
      outcome.resolved += 1;
      await accepted?.(source, resolution.chosen.id);
    } else outcome.unmatched += 1;
  }
}

export async function resolveUnknown(execute: SqlExecute, matcherFor: (account: AccountView) => MatchService, a: ResolveSide, b: ResolveSide): Promise<ResolveOutcome> {
  const outcome = emptyOutcome();
  for (const [from, to] of [
    [a, b],
    [b, a],
  ] as const) {
    await matchOnto(outcome, await unresolvedTracks(execute, from), from.account.provider, to.account, matcherFor(to.account));
  }
  return outcome;
}

/**
 * Resolves an import's songs not compared yet (`tracks`: each once, see `unresolvedOf` with
 * `importTrackKey`) on the account it is compared with; `remember` stores each match found, as no
 * graph edge can hold an import's track. The account's own unknown songs are not searched (an
 * import cannot be searched), though a match often gives the account's track an edge too.
 */
export async function resolveImportUnknown(tracks: readonly Track[], to: AccountView, matcher: MatchService, remember: (source: Track, targetTrackId: string) => Promise<void>): Promise<ResolveOutcome> {
  const outcome = emptyOutcome();
  await matchOnto(outcome, tracks, IMPORT_PROVIDER, to, matcher, remember);
  return outcome;
}
