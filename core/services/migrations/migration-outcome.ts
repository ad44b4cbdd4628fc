import type { StatusCounts } from './migration-views.ts';

/**
 * Reasons of skips that are not losses: the target already had the song, or the user chose to
 * skip it (in this job's review, or an earlier review decision for this target reused).
 */
export const ALREADY_IN_TARGET = 'Already in the target';
export const DUPLICATE_IN_JOB = 'Duplicate of an earlier song';
export const SKIPPED_IN_REVIEW = 'Skipped in review.';
export const SKIPPED_BEFORE = 'Skipped: you skipped this before for this target.';
/** Every reason above, as `like` patterns (reasons may carry detail after the prefix). */
export const HARMLESS_SKIP_PATTERNS = [`${ALREADY_IN_TARGET}%`, `${DUPLICATE_IN_JOB}%`, SKIPPED_IN_REVIEW, SKIPPED_BEFORE] as const;

/**
 * completed: everything arrived (or was already there, or the user chose to skip it); partial:
 * something arrived and something did not; failed: nothing arrived, or the job stopped on an error
 * it could not get past.
 */
export function outcomeOf(counts: StatusCounts, harmlessSkips: number, error: string | null): 'completed' | 'partial' | 'failed' {
  const arrived = counts.written + harmlessSkips;
  const lost = counts.total - arrived;
  if (error !== null) return counts.written > 0 ? 'partial' : 'failed';
  if (lost === 0) return 'completed';
  return arrived > 0 ? 'partial' : 'failed';
}

