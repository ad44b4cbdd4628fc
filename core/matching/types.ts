import type { Strictness } from './strictness.ts';

export type { Strictness };

export interface MatchOptions {
  targetProvider: string;
  /** Defaults to `same_recording`. */
  strictness?: Strictness;
  /** The target returns videos (e.g. YouTube Music): prefer official audio over videos and uploads. */
  targetIsVideoProvider?: boolean;
}

/**
 * One signal or penalty. For signals, `value` is 0..1 and `weight` its share of the score (or the
 * bonus it adds); for penalties, `weight` is what it subtracts from the score.
 */
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
  /** Best first. */
  ranked: ScoredCandidate[];
  /** One human sentence on why this decision was taken. */
  reason: string;
}
