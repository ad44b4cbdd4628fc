import type { Track } from '@opl/plugin-sdk';
import { prepare, scoreCandidate, type Prepared } from './score.ts';
import { DIFFERENT_RECORDING, parseStrictness, STRICTNESS, type Strictness } from './strictness.ts';
import type { MatchDecision, MatchOptions, ScoredCandidate } from './types.ts';
import type { VersionKind } from './versions.ts';

/**
 * Track matching: pure, deterministic scoring of a target provider's search candidates against a
 * source track. No I/O here; the match service owns searching, caching and the identity graph.
 */

export type { MatchDecision, MatchOptions, ScoredCandidate, SignalBreakdown } from './types.ts';
export { durationValue } from './score.ts';
export { normalizeText, titleSimilarity } from './text.ts';
export { classifySegment, parseTitle, splitArtistNames, type ParsedTitle, type VersionKind, type VersionTag } from './versions.ts';
export { DEFAULT_STRICTNESS, DIFFERENT_RECORDING, parseStrictness, STRICTNESS, STRICTNESS_LEVELS, strictnessSettings, UnknownStrictness, type Strictness, type StrictnessSettings } from './strictness.ts';

/** Auto-accept only above this score (per strictness; see strictness.ts)… */
export const ACCEPT_THRESHOLD: Readonly<Record<Strictness, number>> = {
  exact_release: STRICTNESS.exact_release.acceptAt,
  same_recording: STRICTNESS.same_recording.acceptAt,
  best_effort: STRICTNESS.best_effort.acceptAt,
};
/** …and this far ahead of the best candidate that is not an equivalent of it. */
export const ACCEPT_MARGIN = 0.06;
/** Below this nothing is plausible. */
export const REJECT_BELOW = 0.45;

const byScore = (a: ScoredCandidate, b: ScoredCandidate): number => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** How a listener recognises a candidate: its title and artist, not a provider id. */
export function describeTrack(track: Track): string {
  const artist = track.artist || track.artists.join(', ');
  return `“${track.title}”${artist ? ` by ${artist}` : ''}`;
}

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

/**
 * Rules no score can outweigh: a different recording (live, remix, karaoke, cover…) is never
 * auto-accepted at any strictness, and `exact_release` needs the same release. Each entry is a
 * reason in words.
 */
function acceptBlockers(source: Track, best: ScoredCandidate, candidate: Track, strictness: Strictness): string[] {
  const settings = STRICTNESS[strictness];
  const blockers: string[] = [];
  const versions = best.penalties.filter((p) => p.signal.startsWith('version_mismatch:'));
  const different = versions.find((p) => DIFFERENT_RECORDING.has(p.signal.slice('version_mismatch:'.length) as VersionKind));
  if (different) blockers.push(`it looks like a different version: ${different.note}`);
  if (settings.requireSameRelease) {
    const edition = versions.find((p) => p !== different);
    if (edition) blockers.push(`${edition.note}, and this migration asks for the exact release`);
    const album = best.penalties.find((p) => p.signal === 'album_mismatch');
    if (album) blockers.push(`${album.note}, and this migration asks for the exact release`);
    if (best.penalties.some((p) => p.signal === 'isrc_mismatch')) blockers.push('its recording code (ISRC) differs from the source’s, and this migration asks for the exact release');
    const explicit = best.penalties.find((p) => p.signal === 'explicit_mismatch');
    if (explicit) blockers.push(`${explicit.note}, and this migration asks for the exact release`);
  }
  const max = settings.maxDurationDeltaS;
  // A length of 0 is unknown (`#EXTINF:0,`, a PLS `Length1=0`), as the scorer takes it: not a length that differs.
  if (max !== null && source.duration_s !== null && candidate.duration_s !== null && source.duration_s > 0 && candidate.duration_s > 0 && Math.abs(source.duration_s - candidate.duration_s) > max) {
    blockers.push(`its length differs by ${Math.round(Math.abs(source.duration_s - candidate.duration_s))} s, more than the ${max} s an exact release allows`);
  }
  return blockers;
}

const pct = (n: number): string => `${Math.round(n * 100)}%`;
/** The candidate's signals in words, without its score prefix (the decision states the score once). */
const evidence = (candidate: ScoredCandidate): string => candidate.reason.replace(/^Score \d+%: /u, '');

export function decideMatch(source: Track, candidates: readonly Track[], options: MatchOptions): MatchDecision {
  const strictness = parseStrictness(options.strictness);
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
  if (!best) return { decision: 'reject', chosen: null, confidence: 0, ranked, reason: 'the target service found no songs for this search.' };
  const bestPrepared = prepared.get(best.id)!;
  const bestName = describeTrack(bestPrepared.track);
  if (best.score < REJECT_BELOW) {
    return { decision: 'reject', chosen: null, confidence: best.score, ranked, reason: `the closest song, ${bestName}, scores only ${pct(best.score)}: ${evidence(best)}` };
  }
  const rival = ranked.slice(1).find((c) => !equivalent(bestPrepared, prepared.get(c.id)!));
  const twin = ranked[1] && ranked[1] !== rival ? ranked[1] : undefined;
  const margin = best.score - (rival?.score ?? 0);
  const threshold = STRICTNESS[strictness].acceptAt;

  const titleValue = best.breakdown.find((b) => b.signal === 'title_similarity')?.value ?? 0;
  const isrcBacked = best.breakdown.some((b) => b.signal === 'isrc_exact' && b.weight > 0);
  const blockers = acceptBlockers(source, best, bestPrepared.track, strictness);

  let why: string | null = null;
  if (blockers.length > 0) why = blockers[0]!;
  else if (best.score < threshold) why = `it scores ${pct(best.score)}, below the ${pct(threshold)} needed to add it without asking (${STRICTNESS[strictness].label})`;
  // A title that only partly matches ("Love" / "Love Me") is a different song often enough to ask.
  else if (titleValue < 0.85 && !isrcBacked) why = 'the titles only partly match';
  else if (!isrcBacked && best.penalties.some((p) => p.signal === 'title_extra_words')) why = best.penalties.find((p) => p.signal === 'title_extra_words')!.note;
  else if (margin < ACCEPT_MARGIN) why = `another song, ${describeTrack(prepared.get(rival!.id)!.track)}, scores almost as high (${pct(rival!.score)})`;
  else if (twin && best.score - twin.score < 0.005) why = `${describeTrack(prepared.get(twin.id)!.track)} looks like the same recording and nothing tells them apart`;

  if (why) return { decision: 'review', chosen: best.id, confidence: best.score, ranked, reason: `Please check ${bestName} (${pct(best.score)}): ${why}. What agrees and what not: ${evidence(best)}` };
  return { decision: 'accept', chosen: best.id, confidence: best.score, ranked, reason: `Matched ${bestName} (${pct(best.score)}): ${evidence(best)}` };
}
