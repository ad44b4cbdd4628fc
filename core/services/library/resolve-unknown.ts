import type { Playlist, Track } from '@opl/plugin-sdk';
import type { SqlExecute } from '../../storage/sql/executors.ts';
import type { AccountView } from '../connections/connection.service.ts';
import { hasSearchText, type MatchService } from '../matching/index.ts';
import { identitiesOf } from './workspace-model.ts';

/**
 * Resolves the songs a diff could not compare (no edge in the identity graph, no ISRC) through
 * the matching engine: each such song of one member is matched on the other member's account,
 * as a migration would match it. An accepted match writes the graph's edges for both tracks, so
 * the next diff (and the workspace) compares them from the graph, with no search. Songs of the
 * second member are looked at after the first's were resolved: one search often settles both.
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
  return track.is_local !== true && track.id !== null && hasSearchText(track);
}

/** The tracks of a side without a known identity (`identities`, per track) that a search could resolve, each once. */
export function unresolvedOf(side: Pick<ResolveSide, 'playlist'>, identities: readonly (string | null)[]): Track[] {
  const seen = new Set<string>();
  return side.playlist.tracks.filter((track, index) => {
    if (identities[index] !== null || !searchable(track) || seen.has(track.id!)) return false;
    seen.add(track.id!);
    return true;
  });
}

async function unresolvedTracks(execute: SqlExecute, side: ResolveSide): Promise<Track[]> {
  return unresolvedOf(side, await identitiesOf(execute, side.account, side.playlist.tracks.map((track) => ({ id: track.id, isrc: track.isrc, is_local: track.is_local }))));
}

export async function resolveUnknown(execute: SqlExecute, matcherFor: (account: AccountView) => MatchService, a: ResolveSide, b: ResolveSide): Promise<ResolveOutcome> {
  const outcome: ResolveOutcome = { searches: 0, resolved: 0, unmatched: 0, remaining: 0, stopped: null };
  for (const [from, to] of [
    [a, b],
    [b, a],
  ] as const) {
    const tracks = await unresolvedTracks(execute, from);
    if (outcome.stopped || outcome.searches >= RESOLVE_SEARCH_LIMIT) {
      outcome.remaining += tracks.length;
      continue;
    }
    const matcher = matcherFor(to.account);
    const target = { provider: to.account.provider, pluginId: to.account.plugin_id ?? '', accountId: to.account.id };
    for (const [index, source] of tracks.entries()) {
      if (outcome.searches >= RESOLVE_SEARCH_LIMIT) {
        outcome.remaining += tracks.length - index;
        break;
      }
      const resolution = await matcher.resolve({ source, sourceProvider: from.account.provider, target });
      outcome.searches += resolution.searches;
      if (resolution.decision === 'retry') {
        outcome.stopped = { error: resolution.error ?? 'ProviderError', retry_after_s: resolution.retryAfterSeconds ?? null };
        outcome.remaining += tracks.length - index;
        break;
      }
      if (resolution.decision === 'accept') outcome.resolved += 1;
      else outcome.unmatched += 1;
    }
  }
  return outcome;
}
