import type { CandidateTrack } from './intent-resolver.ts';

/** What the generator's API shows of drafts and their items, read from the rows. */

export interface DraftItemView {
  id: string;
  position: number;
  status: 'pending' | 'resolved' | 'unresolved' | 'removed';
  approved: boolean;
  target_uri: string | null;
  title: string;
  artist: string;
  album: string | null;
  duration_s: number | null;
  isrc: string | null;
  explicit: boolean | null;
  /** The match service's confidence in the chosen track (0–1). */
  confidence: number | null;
  /** The scorer's sentence about the choice, or why nothing was taken. */
  reason: string | null;
  /** The scorer's signals for the chosen track (title, artist, duration…): the explanation of its confidence. */
  signals: CandidateTrack['signals'];
  /** What the model proposed (its words), for unresolved items above all. */
  intent: { title: string; artist: string; album: string | null; release_year: number | null; reason: string | null } | null;
  /** The target's other ranked results for the intent: what "replace" offers. */
  candidates: CandidateTrack[];
}

export interface DraftView {
  id: string;
  name: string;
  status: string;
  target_provider: string;
  target_account_id: string;
  controls: Record<string, unknown>;
  generation: Record<string, unknown>;
  migration_job_id: string | null;
  expires_at: string;
  created_at: string;
  counts: { pending: number; resolved: number; unresolved: number; approved: number; duration_s: number };
  items: DraftItemView[];
}

const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : String(value));
export const jsonValue = (value: unknown): unknown => (typeof value === 'string' ? (JSON.parse(value) as unknown) : value);

export function itemView(row: Record<string, unknown>): DraftItemView {
  const intent = jsonValue(row['intent']) as DraftItemView['intent'];
  const candidates = (jsonValue(row['candidates']) as CandidateTrack[] | null) ?? [];
  const uri = (row['target_uri'] as string | null) ?? null;
  return {
    id: String(row['id']),
    position: Number(row['position']),
    status: row['status'] as DraftItemView['status'],
    approved: row['approved'] === true,
    target_uri: uri,
    title: String(row['title']),
    artist: String(row['artist']),
    album: (row['album'] as string | null) ?? null,
    duration_s: row['duration_s'] === null ? null : Number(row['duration_s']),
    isrc: (row['isrc'] as string | null) ?? null,
    explicit: (row['explicit'] as boolean | null) ?? null,
    confidence: row['confidence'] === null ? null : Number(row['confidence']),
    reason: (row['reason'] as string | null) ?? null,
    signals: candidates.find((candidate) => candidate.uri === uri)?.signals ?? [],
    intent: intent && typeof intent === 'object' && 'title' in intent ? intent : null,
    candidates,
  };
}

export function draftView(row: Record<string, unknown>, items: DraftItemView[]): DraftView {
  const live = items.filter((item) => item.status !== 'removed');
  return {
    id: String(row['id']),
    name: String(row['name']),
    status: String(row['status']),
    target_provider: String(row['target_provider']),
    target_account_id: String(row['target_account_id']),
    controls: jsonValue(row['controls']) as Record<string, unknown>,
    generation: jsonValue(row['generation']) as Record<string, unknown>,
    migration_job_id: (row['migration_job_id'] as string | null) ?? null,
    expires_at: iso(row['expires_at']),
    created_at: iso(row['created_at']),
    counts: {
      pending: live.filter((item) => item.status === 'pending').length,
      resolved: live.filter((item) => item.status === 'resolved').length,
      unresolved: live.filter((item) => item.status === 'unresolved').length,
      approved: live.filter((item) => item.approved && item.status === 'resolved').length,
      duration_s: live.reduce((total, item) => total + (item.status === 'resolved' ? (item.duration_s ?? 0) : 0), 0),
    },
    items,
  };
}
