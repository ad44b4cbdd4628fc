import type { Track } from '@opl/plugin-sdk';
import { prepare, scoreCandidate, type Prepared } from './score.ts';
import type { MatchDecision, MatchOptions, ScoredCandidate, Strictness } from './types.ts';

/**
 * Track matching: pure, deterministic scoring of a target provider's search candidates against a
 * source track. No I/O here; the match service owns searching, caching and the identity graph.
 */

export type { MatchDecision, MatchOptions, ScoredCandidate, SignalBreakdown, Strictness } from './types.ts';
export { durationValue } from './score.ts';
export { normalizeText, titleSimilarity } from './text.ts';
export { classifySegment, parseTitle, splitArtistNames, type ParsedTitle, type VersionKind, type VersionTag } from './versions.ts';

/** Auto-accept only above this score… */
export const ACCEPT_THRESHOLD: Record<Strictness, number> = { exact_release: 0.92, same_recording: 0.88, best_effort: 0.82 };
/** …and this far ahead of the best candidate that is not an equivalent of it. */
export const ACCEPT_MARGIN = 0.06;
/** Below this nothing is plausible. */
export const REJECT_BELOW = 0.45;

const byScore = (a: ScoredCandidate, b: ScoredCandidate): number => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * Two candidates are equivalent when they look like the same recording released twice (album and
 * single, or a compilation): same title, artists and version tags, durations within 3 s.
 */
function equivalent(a: Prepared, b: Prepared): boolean {
  if (a.title.tokens.join(' ') !== b.title.tokens.join(' ')) return false;
  const artists = (p: Prepared): string => p.artists.map((f) => f.tokens.join(' ')).sort().join('|');
  if (artists(a) !== artists(b)) return false;
  const kinds = (p: Prepared): string => [...new Set(p.tags.map((t) => t.kind))].filter((k) => !['video_tag', 'explicit', 'clean', 'deluxe', 'bonus'].includes(k)).sort().join(',');
  if (kinds(a) !== kinds(b)) return false;
  // A music video or upload next to the official audio of the same song: policy prefers the audio.
  const va = a.track.provider_metadata.videoType;
  const vb = b.track.provider_metadata.videoType;
  if (va !== vb && (va === 'MUSIC_VIDEO_TYPE_ATV' || vb === 'MUSIC_VIDEO_TYPE_ATV')) return true;
  const da = a.track.duration_s;
  const db = b.track.duration_s;
  return da === null || db === null || Math.abs(da - db) <= 3;
}

export function decideMatch(source: Track, candidates: readonly Track[], options: MatchOptions): MatchDecision {
  const strictness = options.strictness ?? 'same_recording';
  const ctx = { strictness, videoProvider: options.targetIsVideoProvider ?? false };
  const hints = source.artists.length > 0 ? source.artists : [source.artist];
  const src = prepare(source);
  const prepared = new Map<string, Prepared>();
  const ranked: ScoredCandidate[] = [];
  candidates.forEach((candidate, index) => {
    const p = prepare(candidate, hints);
    const scored = scoreCandidate(src, p, ctx);
    // Ids should be unique; fall back to the position so ranking stays total.
    if (!scored.id || prepared.has(scored.id)) scored.id = scored.id ? `${scored.id}#${index}` : `#${index}`;
    prepared.set(scored.id, p);
    ranked.push(scored);
  });
  ranked.sort(byScore);

  const best = ranked[0];
  if (!best) return { decision: 'reject', chosen: null, confidence: 0, ranked, reason: 'The target returned no candidates.' };
  if (best.score < REJECT_BELOW) {
    return { decision: 'reject', chosen: null, confidence: best.score, ranked, reason: `No plausible candidate: the best scores ${Math.round(best.score * 100)}% (${best.reason})` };
  }
  const bestPrepared = prepared.get(best.id)!;
  const rival = ranked.slice(1).find((c) => !equivalent(bestPrepared, prepared.get(c.id)!));
  const twin = ranked[1] && ranked[1] !== rival ? ranked[1] : undefined;
  const margin = best.score - (rival?.score ?? 0);
  const threshold = ACCEPT_THRESHOLD[strictness];
  const hardPenalty = best.penalties.some((p) => p.signal.startsWith('version_mismatch') && p.weight >= 0.1);

  const titleValue = best.breakdown.find((b) => b.signal === 'title_similarity')?.value ?? 0;
  const isrcBacked = best.breakdown.some((b) => b.signal === 'isrc_exact' && b.weight > 0);

  let why: string | null = null;
  if (best.score < threshold) why = `the best scores ${Math.round(best.score * 100)}%, below the ${Math.round(threshold * 100)}% bar`;
  else if (hardPenalty) why = 'the best is a different version';
  // A title that only partly matches ("Love" / "Love Me") is a different song often enough to ask.
  else if (titleValue < 0.85 && !isrcBacked) why = 'the titles only partly match';
  else if (margin < ACCEPT_MARGIN) why = `the runner-up ${rival!.id} is too close (${Math.round(rival!.score * 100)}%)`;
  else if (twin && best.score - twin.score < 0.005) why = `${twin.id} looks like the same recording and nothing tells them apart`;

  if (why) return { decision: 'review', chosen: best.id, confidence: best.score, ranked, reason: `Needs review: ${why}. ${best.reason}` };
  return { decision: 'accept', chosen: best.id, confidence: best.score, ranked, reason: `Accepted ${best.id}. ${best.reason}` };
}
