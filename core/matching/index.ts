import type { Track } from '@opl/plugin-sdk';

/**
 * Track matching: pure, deterministic scoring of a target provider's search candidates against a
 * source track. No I/O here; the match service owns searching, caching and the identity graph.
 */

export type Strictness = 'exact_release' | 'same_recording' | 'best_effort';

export interface MatchOptions {
  targetProvider: string;
  /** Defaults to `same_recording`. */
  strictness?: Strictness;
  /** The target returns videos (e.g. YouTube Music): prefer official audio over videos and uploads. */
  targetIsVideoProvider?: boolean;
}

export interface SignalBreakdown {
  signal: string;
  value: number;
  weight: number;
  note: string;
}

export interface ScoredCandidate {
  id: string;
  /** 0..1 */
  score: number;
  breakdown: SignalBreakdown[];
  penalties: SignalBreakdown[];
  /** One human sentence. */
  reason: string;
}

export interface MatchDecision {
  decision: 'accept' | 'review' | 'reject';
  chosen: string | null;
  confidence: number;
  ranked: ScoredCandidate[];
}

const norm = (s: string): string =>
  s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

const tokens = (s: string): Set<string> => new Set(norm(s).split(' ').filter(Boolean));

function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let inter = 0;
  for (const t of a) if (b.has(t)) inter++;
  return inter / (a.size + b.size - inter);
}

function scoreOne(source: Track, c: Track): ScoredCandidate {
  const title = jaccard(tokens(source.title), tokens(c.title));
  const artist = jaccard(tokens(source.artist), tokens(c.artist));
  let duration = 0.5;
  if (source.duration_s !== null && c.duration_s !== null) {
    const d = Math.abs(source.duration_s - c.duration_s);
    duration = d <= 2 ? 1 : Math.max(0, 1 - (d - 2) / 20);
  }
  const breakdown: SignalBreakdown[] = [
    { signal: 'title_similarity', value: title, weight: 0.5, note: '' },
    { signal: 'artist_overlap', value: artist, weight: 0.35, note: '' },
    { signal: 'duration', value: duration, weight: 0.15, note: '' },
  ];
  const score = breakdown.reduce((s, b) => s + b.value * b.weight, 0);
  return { id: c.id ?? '', score, breakdown, penalties: [], reason: `Title ${Math.round(title * 100)}%, artist ${Math.round(artist * 100)}%.` };
}

export function decideMatch(source: Track, candidates: readonly Track[], _options: MatchOptions): MatchDecision {
  const ranked = candidates
    .map((c) => scoreOne(source, c))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const best = ranked[0];
  if (!best || best.score < 0.5) return { decision: 'reject', chosen: null, confidence: best?.score ?? 0, ranked };
  const margin = best.score - (ranked[1]?.score ?? 0);
  if (best.score >= 0.9 && margin >= 0.05) return { decision: 'accept', chosen: best.id, confidence: best.score, ranked };
  return { decision: 'review', chosen: best.id, confidence: best.score, ranked };
}
