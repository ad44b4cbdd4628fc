import type { Track } from '@opl/plugin-sdk';
import type { ScoredCandidate } from '../../matching/index.ts';
import type { EdgeSource, MissKey } from './match-graph.sql.ts';
import { namedLinks } from './match-keys.ts';
import type { RankedCandidate, Resolution } from './match-types.ts';

/** What the match service's answers are made of: reasons, rankings, graph lock keys, URIs. */

export const GRAPH_REASON: Record<EdgeSource, string> = {
  isrc_exact: 'Known match: the same recording code (ISRC) on both services',
  user_confirmed: 'Known match: confirmed by a listener',
  fuzzy: 'Known match from an earlier confident search',
};

export const isrcKey = (isrc: string): string => `isrc:${isrc}`;
export const trackKey = (provider: string, id: string): string => `track:${provider}:${id}`;
/** The no-match row of a source and target, as a key of what a write touched (see `MatchPrefetch`). */
export const missToken = (key: MissKey): string => `miss:${key.sourceProvider}\u0000${key.sourceKey}\u0000${key.targetProvider}\u0000${key.strictness}`;

export function empty(decision: Resolution['decision'], from: Resolution['from'], searches: number): Resolution {
  return { decision, chosen: null, confidence: 0, reason: '', breakdown: [], penalties: [], candidates: [], searches, from };
}

export function ranked(scored: readonly ScoredCandidate[], pool: Map<string, Track>): RankedCandidate[] {
  const out: RankedCandidate[] = [];
  for (const candidate of scored) {
    const track = pool.get(candidate.id);
    if (track) out.push({ track, score: candidate.score, reason: candidate.reason, breakdown: candidate.breakdown, penalties: candidate.penalties });
  }
  return out;
}

/** Why a source track without title, artist, album or a usable ISRC cannot be searched for, naming the link it does have. */
export function unsearchableReason(track: Track, targetProvider: string): string {
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

export function uriOf(track: Track, provider: string): string | null {
  const uri = track.provider_uris[provider];
  return typeof uri === 'string' ? uri : null;
}

export function roundDuration(duration: number | null): number | null {
  return duration === null ? null : Math.round(duration);
}
