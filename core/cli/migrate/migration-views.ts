/** The parts of the engine's migration JSON (`MigrationJob`, `MigrationItem`) the CLI reads. */

export interface StatusCounts {
  total: number;
  pending: number;
  matched: number;
  needs_review: number;
  written: number;
  skipped: number;
  failed: number;
}

export interface JobSnapshot {
  id: string;
  label: string;
  status: 'queued' | 'running' | 'awaiting_review' | 'paused' | 'completed' | 'failed' | 'cancelled';
  outcome: 'pending' | 'running' | 'completed' | 'partial' | 'failed';
  phase: string;
  source_provider: string;
  target_provider: string;
  error: string | null;
  error_code: string | null;
  resume_at: string | null;
  created_at: string;
  completed_at: string | null;
  total: number;
  done: number;
  counts: StatusCounts;
  collections: { id: string; name: string; target_playlist_id: string | null }[];
}

export interface CandidateSnapshot {
  uri: string | null;
  title: string;
  artist: string;
  album: string | null;
  duration_s: number | null;
  score: number;
  reason: string;
}

export interface ItemSnapshot {
  id: string;
  entity_type: 'track' | 'album' | 'artist';
  status: string;
  source_playlist_name: string | null;
  position: number | null;
  title: string;
  artist: string;
  album: string | null;
  confidence: number | null;
  reason: string | null;
  target_uri: string | null;
  candidates: CandidateSnapshot[];
}

export const FINISHED: readonly JobSnapshot['status'][] = ['completed', 'failed', 'cancelled'];

/** Exit codes of `opl migrate`: the job's outcome once it has finished. */
export const EXIT = { completed: 0, failed: 1, partial: 2, unfinished: 3, usage: 64, interrupted: 130 } as const;

export function exitCodeOf(job: JobSnapshot): number {
  if (!FINISHED.includes(job.status)) return EXIT.unfinished;
  if (job.outcome === 'completed' && job.status === 'completed') return EXIT.completed;
  if (job.outcome === 'partial') return EXIT.partial;
  return EXIT.failed;
}
