import type { StatusCounts } from './migration-views.ts';

/** Reasons of skips that are not losses: the target already had the song. */
export const ALREADY_IN_TARGET = 'Already in the target';
export const DUPLICATE_IN_JOB = 'Duplicate of an earlier song';

/**
 * completed: everything arrived (or was already there); partial: something arrived and something
 * did not; failed: nothing arrived, or the job stopped on an error it could not get past.
 */
export function outcomeOf(counts: StatusCounts, harmlessSkips: number, error: string | null): 'completed' | 'partial' | 'failed' {
  const arrived = counts.written + harmlessSkips;
  const lost = counts.total - arrived;
  if (error !== null) return counts.written > 0 ? 'partial' : 'failed';
  if (lost === 0) return 'completed';
  return arrived > 0 ? 'partial' : 'failed';
}

