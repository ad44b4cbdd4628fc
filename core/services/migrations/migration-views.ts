import type { EntityType, ItemStatus, JobOutcome, MigrationJobStatus } from '../../storage/entities/values.ts';
import { isoOrNull, jsonColumn } from '../../storage/sql/row-values.ts';

/**
 * How migration rows look in the API: one mapping from database rows to JSON views, shared by
 * the JSON endpoints, the progress events and the reports.
 */

export const ITEM_STATUS_KEYS = ['pending', 'matched', 'needs_review', 'written', 'skipped', 'failed'] as const;

export interface StatusCounts {
  total: number;
  pending: number;
  matched: number;
  needs_review: number;
  written: number;
  skipped: number;
  failed: number;
}

export function emptyCounts(): StatusCounts {
  return { total: 0, pending: 0, matched: 0, needs_review: 0, written: 0, skipped: 0, failed: 0 };
}

export function countsFrom(rows: readonly Record<string, unknown>[]): { counts: StatusCounts; entity_counts: Record<string, StatusCounts> } {
  const counts = emptyCounts();
  const entity: Record<string, StatusCounts> = {};
  for (const row of rows) {
    const status = String(row['status']) as keyof StatusCounts;
    const n = Number(row['n']);
    const type = String(row['entity_type']);
    entity[type] ??= emptyCounts();
    counts.total += n;
    entity[type].total += n;
    if (status in counts && status !== 'total') {
      counts[status] += n;
      entity[type][status] += n;
    }
  }
  return { counts, entity_counts: entity };
}


export interface JobRow {
  id: string;
  ownerId: string;
  sourceProvider: string;
  sourceAccountId: string;
  sourceKind: 'provider' | 'import' | 'generated' | 'snapshot';
  sourceSnapshotId: string | null;
  /** `sync`: created by a sync rule's run (`syncRunId`). */
  origin: 'user' | 'sync';
  syncRunId: string | null;
  targetProvider: string;
  targetAccountId: string;
  strictness: string;
  status: MigrationJobStatus;
  outcome: JobOutcome;
  phase: string;
  selection: Record<string, unknown>;
  warnings: unknown[];
  acknowledgedWarnings: unknown[];
  summary: Record<string, unknown> | null;
  error: string | null;
  errorCode: string | null;
  resumeAt: string | null;
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
  detailExpiresAt: string | null;
  detailPurgedAt: string | null;
  progressSeq: number;
}

export function jobRow(row: Record<string, unknown>): JobRow {
  return {
    id: String(row['id']),
    ownerId: String(row['owner_id']),
    sourceProvider: String(row['source_provider']),
    sourceAccountId: String(row['source_account_id']),
    sourceKind: row['source_kind'] === 'import' || row['source_kind'] === 'generated' || row['source_kind'] === 'snapshot' ? row['source_kind'] : 'provider',
    sourceSnapshotId: (row['source_snapshot_id'] as string | null | undefined) ?? null,
    origin: row['origin'] === 'sync' ? 'sync' : 'user',
    syncRunId: (row['sync_run_id'] as string | null | undefined) ?? null,
    targetProvider: String(row['target_provider']),
    targetAccountId: String(row['target_account_id']),
    strictness: String(row['strictness']),
    status: String(row['status']) as MigrationJobStatus,
    outcome: String(row['outcome']) as JobOutcome,
    phase: String(row['phase']),
    selection: jsonColumn(row['selection'], {}),
    warnings: jsonColumn(row['warnings'], []),
    acknowledgedWarnings: jsonColumn(row['acknowledged_warnings'], []),
    summary: jsonColumn(row['summary'], null),
    error: (row['error'] as string | null) ?? null,
    errorCode: (row['error_code'] as string | null) ?? null,
    resumeAt: isoOrNull(row['resume_at']),
    createdAt: isoOrNull(row['created_at'])!,
    startedAt: isoOrNull(row['started_at']),
    completedAt: isoOrNull(row['completed_at']),
    detailExpiresAt: isoOrNull(row['detail_expires_at']),
    detailPurgedAt: isoOrNull(row['detail_purged_at']),
    progressSeq: Number(row['progress_seq'] ?? 0),
  };
}

/** Whether the job's item detail is gone (deadline passed or purged): item and report routes answer 410. */
export function detailExpired(job: JobRow, now: Date = new Date()): boolean {
  return job.detailPurgedAt !== null || (job.detailExpiresAt !== null && new Date(job.detailExpiresAt).getTime() <= now.getTime());
}

export function jobLabel(job: JobRow): string {
  const names = (job.selection['collections'] as { name: string }[] | undefined)?.map((collection) => collection.name) ?? [];
  const head = names.length === 0 ? 'Library' : names.length === 1 ? names[0]! : `${names[0]} and ${names.length - 1} more`;
  return `${head}: ${job.sourceProvider} → ${job.targetProvider}`;
}

export function jobView(job: JobRow, counted: { counts: StatusCounts; entity_counts: Record<string, StatusCounts> }) {
  const collections = (job.selection['collections'] as { id: string; name: string; kind: string; target_playlist_id?: string | null }[] | undefined) ?? [];
  return {
    id: job.id,
    label: jobLabel(job),
    status: job.status,
    outcome: job.outcome,
    phase: job.phase,
    source_kind: job.sourceKind,
    origin: job.origin,
    sync_run_id: job.syncRunId,
    source_provider: job.sourceProvider,
    source_account_id: job.sourceAccountId,
    target_provider: job.targetProvider,
    target_account_id: job.targetAccountId,
    strictness: job.strictness,
    collections: collections.map((collection) => ({ id: collection.id, name: collection.name, kind: collection.kind, target_playlist_id: collection.target_playlist_id ?? null })),
    warnings: job.warnings,
    acknowledged_warnings: job.acknowledgedWarnings,
    error: job.error,
    error_code: job.errorCode,
    resume_at: job.resumeAt,
    created_at: job.createdAt,
    started_at: job.startedAt,
    completed_at: job.completedAt,
    detail_expires_at: job.detailExpiresAt,
    detail_available: !detailExpired(job),
    total: counted.counts.total,
    done: counted.counts.written + counted.counts.skipped + counted.counts.failed,
    failed: counted.counts.failed,
    counts: counted.counts,
    entity_counts: counted.entity_counts,
  };
}

export type JobView = ReturnType<typeof jobView>;

export function itemView(row: Record<string, unknown>) {
  return {
    id: String(row['id']),
    entity_type: String(row['entity_type']) as EntityType,
    status: String(row['status']) as ItemStatus,
    source_playlist_id: (row['source_playlist_id'] as string | null) ?? null,
    source_playlist_name: (row['source_playlist_name'] as string | null) ?? null,
    target_playlist_id: (row['target_playlist_id'] as string | null) ?? null,
    position: row['position'] === null || row['position'] === undefined ? null : Number(row['position']),
    title: (row['title'] as string | null) ?? '',
    artist: (row['artist'] as string | null) ?? '',
    album: (row['album'] as string | null) ?? null,
    duration_s: row['duration_s'] === null || row['duration_s'] === undefined ? null : Number(row['duration_s']),
    release_year: row['release_year'] === null || row['release_year'] === undefined ? null : Number(row['release_year']),
    explicit: (row['explicit'] as boolean | null) ?? null,
    isrc: (row['isrc'] as string | null) ?? null,
    source_entity_id: (row['source_entity_id'] as string | null) ?? null,
    source_entity_name: (row['source_entity_name'] as string | null) ?? null,
    source_track_id: (row['source_track_id'] as string | null) ?? null,
    source_item_id: (row['source_item_id'] as string | null) ?? null,
    source_uri: (row['source_uri'] as string | null) ?? null,
    source_metadata: jsonColumn<Record<string, unknown>>(row['source_metadata'], {}),
    target_uri: (row['target_uri'] as string | null) ?? null,
    target_id: (row['target_id'] as string | null) ?? null,
    target_entity_id: (row['target_entity_id'] as string | null) ?? null,
    confidence: row['confidence'] === null || row['confidence'] === undefined ? null : Number(row['confidence']),
    reason: (row['reason'] as string | null) ?? null,
    review_action: (row['review_action'] as string | null) ?? null,
    review_original_status: (row['review_original_status'] as string | null) ?? null,
    review_original_reason: (row['review_original_reason'] as string | null) ?? null,
    reviewed_at: isoOrNull(row['reviewed_at']),
    candidates: jsonColumn<unknown[]>(row['candidates'], []),
    match_detail: jsonColumn<Record<string, unknown> | null>(row['match_detail'], null),
    created_at: isoOrNull(row['created_at']),
    updated_at: isoOrNull(row['updated_at']),
  };
}

export type ItemView = ReturnType<typeof itemView>;
