import { scheduleOf, type Schedule } from './sync-schedule.ts';
import { isoOrNull, jsonColumn } from '../../storage/sql/row-values.ts';

/** How sync rows look in the API (JSON endpoints and events share these). */


export interface RuleRow {
  id: string;
  ownerId: string;
  originJobId: string;
  name: string;
  collectionKind: 'PLAYLIST' | 'LIKED_TRACKS';
  sourceProvider: string;
  sourceAccountId: string;
  sourcePlaylistId: string;
  targetProvider: string;
  targetAccountId: string;
  targetPlaylistId: string;
  mode: 'add_only' | 'mirror';
  mirrorMaxRemovals: number;
  mirrorRemovesForeign: boolean;
  status: 'active' | 'paused' | 'review_required' | 'approval_required';
  pauseCode: string | null;
  pauseReason: string | null;
  schedule: Schedule;
  nextRunAt: string | null;
  lastRunAt: string | null;
  consecutiveFailures: number;
  progressSeq: number;
  createdAt: string;
}

export function ruleRow(row: Record<string, unknown>): RuleRow {
  return {
    id: String(row['id']),
    ownerId: String(row['owner_id']),
    originJobId: String(row['origin_job_id']),
    name: typeof row['name'] === 'string' ? row['name'] : '',
    collectionKind: row['collection_kind'] === 'LIKED_TRACKS' ? 'LIKED_TRACKS' : 'PLAYLIST',
    sourceProvider: String(row['source_provider']),
    sourceAccountId: String(row['source_account_id']),
    sourcePlaylistId: String(row['source_playlist_id']),
    targetProvider: String(row['target_provider']),
    targetAccountId: String(row['target_account_id']),
    targetPlaylistId: String(row['target_playlist_id']),
    mode: row['mode'] === 'mirror' ? 'mirror' : 'add_only',
    mirrorMaxRemovals: Number(row['mirror_max_removals'] ?? 20),
    mirrorRemovesForeign: row['mirror_removes_foreign'] === true,
    status: String(row['status']) as RuleRow['status'],
    pauseCode: (row['pause_code'] as string | null) ?? null,
    pauseReason: (row['pause_reason'] as string | null) ?? null,
    schedule: scheduleOf(row as { schedule_kind: unknown; interval_minutes: unknown; daily_at: unknown; time_zone: unknown }),
    nextRunAt: isoOrNull(row['next_run_at']),
    lastRunAt: isoOrNull(row['last_run_at']),
    consecutiveFailures: Number(row['consecutive_failures'] ?? 0),
    progressSeq: Number(row['progress_seq'] ?? 0),
    createdAt: isoOrNull(row['created_at'])!,
  };
}

/** The next step a paused rule needs from its owner. */
function actionOf(rule: RuleRow, activeRun: RunView | null): { type: 'reconnect'; account_id: string; provider: string } | { type: 'resume' } | { type: 'approve'; run_id: string } | null {
  if (rule.status === 'approval_required' && activeRun?.status === 'approval_required') return { type: 'approve', run_id: activeRun.id };
  if (rule.status !== 'paused') return null;
  if (rule.pauseCode === 'auth_expired_source') return { type: 'reconnect', account_id: rule.sourceAccountId, provider: rule.sourceProvider };
  if (rule.pauseCode === 'auth_expired_target' || rule.pauseCode === 'auth_expired') return { type: 'reconnect', account_id: rule.targetAccountId, provider: rule.targetProvider };
  return { type: 'resume' };
}

export function ruleView(rule: RuleRow, activeRun: RunView | null) {
  return {
    id: rule.id,
    name: rule.name,
    origin_job_id: rule.originJobId,
    collection_kind: rule.collectionKind,
    source: { provider: rule.sourceProvider, account_id: rule.sourceAccountId, playlist_id: rule.sourcePlaylistId },
    target: { provider: rule.targetProvider, account_id: rule.targetAccountId, playlist_id: rule.targetPlaylistId },
    mode: rule.mode,
    mirror: { max_removals: rule.mirrorMaxRemovals, removes_foreign: rule.mirrorRemovesForeign },
    status: rule.status,
    pause_code: rule.pauseCode,
    pause_reason: rule.pauseReason,
    action: actionOf(rule, activeRun),
    schedule: rule.schedule,
    next_run_at: rule.status === 'active' ? rule.nextRunAt : null,
    last_run_at: rule.lastRunAt,
    consecutive_failures: rule.consecutiveFailures,
    active_run: activeRun,
    created_at: rule.createdAt,
  };
}

export type RuleView = ReturnType<typeof ruleView>;

export function runView(row: Record<string, unknown>) {
  return {
    id: String(row['id']),
    rule_id: String(row['rule_id']),
    status: String(row['status']) as 'queued' | 'running' | 'review_required' | 'approval_required' | 'completed' | 'failed' | 'cancelled',
    trigger: typeof row['trigger'] === 'string' ? row['trigger'] : 'schedule',
    attempt: Number(row['attempt'] ?? 1),
    scheduled_for: isoOrNull(row['scheduled_for'])!,
    migration_job_id: (row['migration_job_id'] as string | null) ?? null,
    stats: jsonColumn<Record<string, unknown>>(row['stats'], {}),
    error_code: (row['error_code'] as string | null) ?? null,
    error: (row['error'] as string | null) ?? null,
    started_at: isoOrNull(row['started_at']),
    completed_at: isoOrNull(row['completed_at']),
    created_at: isoOrNull(row['created_at'])!,
  };
}

export type RunView = ReturnType<typeof runView>;
