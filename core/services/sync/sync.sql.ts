import type { SqlStatement } from '../../storage/sql/executors.ts';

/**
 * The sync engine's statements, as pure functions (testable alone). Times that decide scheduling
 * come from the caller's clock; leases use the database's own clock, so every worker process
 * agrees on when one expires.
 */

/** Serialises rule changes of one owner, so two concurrent creations cannot close a cycle between them. */
export const SYNC_RULE_LOCK = 1_937_011;

export const RULE_COLUMNS = `id, owner_id, origin_job_id, name, collection_kind, source_provider, source_account_id, source_playlist_id,
  target_provider, target_account_id, target_playlist_id, mode, mirror_max_removals, mirror_removes_foreign, status, pause_code, pause_reason, schedule_kind, interval_minutes,
  daily_at, time_zone, next_run_at, last_run_at, consecutive_failures, progress_seq, created_at, updated_at`;

export const RUN_COLUMNS = `id, owner_id, rule_id, status, attempt, trigger, scheduled_for, source_snapshot, target_snapshot, migration_job_id,
  stats, lease_owner, lease_expires_at, error_code, error, started_at, completed_at, progress_seq, created_at, updated_at`;

export function lockOwnerRules(ownerId: string): SqlStatement {
  return { text: `select pg_advisory_xact_lock(${SYNC_RULE_LOCK}, hashtext(?))`, values: [ownerId] };
}

export interface NewRule {
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
  scheduleKind: 'interval' | 'daily';
  intervalMinutes: number | null;
  dailyAt: string | null;
  timeZone: string | null;
  nextRunAt: Date;
}

export function insertRule(rule: NewRule): SqlStatement {
  return {
    text: `insert into sync_rule (owner_id, origin_job_id, name, collection_kind, source_provider, source_account_id, source_playlist_id,
             target_provider, target_account_id, target_playlist_id, mode, mirror_max_removals, mirror_removes_foreign, schedule_kind, interval_minutes, daily_at, time_zone, next_run_at)
           values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning ${RULE_COLUMNS}`,
    values: [rule.ownerId, rule.originJobId, rule.name, rule.collectionKind, rule.sourceProvider, rule.sourceAccountId, rule.sourcePlaylistId, rule.targetProvider, rule.targetAccountId, rule.targetPlaylistId, rule.mode, rule.mirrorMaxRemovals, rule.mirrorRemovesForeign, rule.scheduleKind, rule.intervalMinutes, rule.dailyAt, rule.timeZone, rule.nextRunAt],
  };
}

export function selectRule(ownerId: string, ruleId: string): SqlStatement {
  return { text: `select ${RULE_COLUMNS} from sync_rule where owner_id = ? and id = ?`, values: [ownerId, ruleId] };
}

export function selectRuleById(ruleId: string): SqlStatement {
  return { text: `select ${RULE_COLUMNS} from sync_rule where id = ?`, values: [ruleId] };
}

export function selectRules(ownerId: string): SqlStatement {
  return { text: `select ${RULE_COLUMNS} from sync_rule where owner_id = ? order by created_at, id`, values: [ownerId] };
}

export function updateRuleSettings(ownerId: string, ruleId: string, changes: { mode: string; mirrorMaxRemovals: number; mirrorRemovesForeign: boolean; scheduleKind: string; intervalMinutes: number | null; dailyAt: string | null; timeZone: string | null; nextRunAt: Date }): SqlStatement {
  return {
    text: `update sync_rule set mode = ?, mirror_max_removals = ?, mirror_removes_foreign = ?, schedule_kind = ?, interval_minutes = ?, daily_at = ?, time_zone = ?, next_run_at = ?, updated_at = now()
           where owner_id = ? and id = ? returning ${RULE_COLUMNS}`,
    values: [changes.mode, changes.mirrorMaxRemovals, changes.mirrorRemovesForeign, changes.scheduleKind, changes.intervalMinutes, changes.dailyAt, changes.timeZone, changes.nextRunAt, ownerId, ruleId],
  };
}

/** Pauses a rule with a reason (only from the given states). */
export function pauseRule(ruleId: string, code: string, reason: string, from: readonly string[] = ['active', 'review_required', 'approval_required', 'paused']): SqlStatement {
  return {
    text: `update sync_rule set status = 'paused', pause_code = ?, pause_reason = ?, updated_at = now()
           where id = ? and status in (select jsonb_array_elements_text(?::jsonb)) returning ${RULE_COLUMNS}`,
    values: [code, reason, ruleId, JSON.stringify(from)],
  };
}

export function resumeRule(ownerId: string, ruleId: string, nextRunAt: Date): SqlStatement {
  return {
    text: `update sync_rule set status = 'active', pause_code = null, pause_reason = null, consecutive_failures = 0, next_run_at = ?, updated_at = now()
           where owner_id = ? and id = ? and status = 'paused' returning ${RULE_COLUMNS}`,
    values: [nextRunAt, ownerId, ruleId],
  };
}

export function setRuleStatus(ruleId: string, status: 'active' | 'review_required' | 'approval_required', from: readonly string[]): SqlStatement {
  return {
    text: `update sync_rule set status = ?, updated_at = now() where id = ? and status in (select jsonb_array_elements_text(?::jsonb)) returning id`,
    values: [status, ruleId, JSON.stringify(from)],
  };
}

/** A run ended well: the failure count starts again. */
export function noteRuleSuccess(ruleId: string, at: Date): SqlStatement {
  return { text: `update sync_rule set consecutive_failures = 0, last_run_at = ?, updated_at = now() where id = ?`, values: [at, ruleId] };
}

/**
 * A run failed: one more in a row, and the next try at `retryAt` — or at the next slot when that
 * comes sooner. A used-up quota (`notBefore`) is different: no try before the reset, which would
 * only fail again and count towards the pause.
 */
export function noteRuleFailure(ruleId: string, at: Date, retryAt: Date, notBefore = false): SqlStatement {
  return {
    text: `update sync_rule set consecutive_failures = consecutive_failures + 1, last_run_at = ?,
             next_run_at = case when ?::boolean then greatest(coalesce(next_run_at, ?), ?) else least(coalesce(next_run_at, ?), ?) end, updated_at = now()
           where id = ? returning consecutive_failures`,
    values: [at, notBefore, retryAt, retryAt, retryAt, retryAt, ruleId],
  };
}

export function deleteRule(ownerId: string, ruleId: string): SqlStatement {
  return { text: `delete from sync_rule where owner_id = ? and id = ? returning id`, values: [ownerId, ruleId] };
}

// --- the schedule ---------------------------------------------------------------------------

/** Active rules whose slot has come (by the caller's clock). */
export function selectDueRules(now: Date, limit: number): SqlStatement {
  return { text: `select ${RULE_COLUMNS} from sync_rule where status = 'active' and next_run_at <= ? order by next_run_at limit ?`, values: [now, limit] };
}

/** The due rule, locked for this evaluation; another worker evaluating it at once skips it. */
export function lockDueRule(ruleId: string, now: Date): SqlStatement {
  return { text: `select ${RULE_COLUMNS} from sync_rule where id = ? and status = 'active' and next_run_at <= ? for update skip locked`, values: [ruleId, now] };
}

export function setNextRun(ruleId: string, nextRunAt: Date): SqlStatement {
  return { text: `update sync_rule set next_run_at = ?, updated_at = now() where id = ?`, values: [nextRunAt, ruleId] };
}

/**
 * A new run, unless the rule has one queued, running or waiting for review already: the partial
 * unique index `sync_run_one_active_per_rule` refuses the second, in any process.
 */
export function insertRun(ruleId: string, ownerId: string, scheduledFor: Date, trigger: 'schedule' | 'manual'): SqlStatement {
  return {
    text: `insert into sync_run (rule_id, owner_id, scheduled_for, trigger) values (?, ?, ?, ?) on conflict do nothing returning ${RUN_COLUMNS}`,
    values: [ruleId, ownerId, scheduledFor, trigger],
  };
}

/**
 * Takes a run for this worker: a queued one, or a running one whose worker let its lease expire
 * before it recorded a migration job (a stale worker). A run with a job is the job's business
 * from then on (the migration engine's own lease and recovery).
 */
export function claimRun(runId: string, worker: string, leaseSeconds: number): SqlStatement {
  return {
    text: `update sync_run set status = 'running', lease_owner = ?, lease_expires_at = now() + make_interval(secs => ?),
             attempt = case when status = 'running' then attempt + 1 else attempt end, started_at = coalesce(started_at, now()), updated_at = now()
           where id = ? and migration_job_id is null and coalesce(stats->>'mirror', '') <> 'pending'
             and (status = 'queued' or (status = 'running' and (lease_expires_at is null or lease_expires_at < now())))
           returning ${RUN_COLUMNS}`,
    values: [worker, leaseSeconds, runId],
  };
}

export function renewRunLease(runId: string, worker: string, leaseSeconds: number): SqlStatement {
  return {
    text: `update sync_run set lease_expires_at = now() + make_interval(secs => ?) where id = ? and lease_owner = ? and status = 'running' and migration_job_id is null returning id`,
    values: [leaseSeconds, runId, worker],
  };
}

/** Records the run's migration job, only while this worker still holds the run (the fence). */
export function attachJob(runId: string, worker: string, jobId: string, sourceSnapshot: unknown, targetSnapshot: unknown, stats: unknown): SqlStatement {
  return {
    text: `update sync_run set migration_job_id = ?, source_snapshot = ?::jsonb, target_snapshot = ?::jsonb, stats = ?::jsonb, lease_owner = null, lease_expires_at = null, updated_at = now()
           where id = ? and lease_owner = ? and status = 'running' and migration_job_id is null and lease_expires_at > now() returning id`,
    values: [jobId, JSON.stringify(sourceSnapshot), JSON.stringify(targetSnapshot), JSON.stringify(stats), runId, worker],
  };
}

/** Ends a run that never made a job (fenced by the lease, when `worker` is given). */
export function endRun(runId: string, worker: string | null, end: { status: 'completed' | 'failed' | 'cancelled'; errorCode: string | null; error: string | null; stats: unknown; sourceSnapshot?: unknown; targetSnapshot?: unknown }, at: Date): SqlStatement {
  return {
    text: `update sync_run set status = ?, error_code = ?, error = ?, stats = coalesce(?::jsonb, stats), source_snapshot = coalesce(?::jsonb, source_snapshot),
             target_snapshot = coalesce(?::jsonb, target_snapshot), lease_owner = null, lease_expires_at = null, completed_at = ?, updated_at = now()
           where id = ? and status in ('queued', 'running', 'review_required', 'approval_required') and (?::text is null or lease_owner = ?) returning ${RUN_COLUMNS}`,
    values: [end.status, end.errorCode, end.error, end.stats === undefined ? null : JSON.stringify(end.stats), end.sourceSnapshot === undefined ? null : JSON.stringify(end.sourceSnapshot), end.targetSnapshot === undefined ? null : JSON.stringify(end.targetSnapshot), at, runId, worker, worker],
  };
}

export function setRunStatus(runId: string, status: 'running' | 'review_required'): SqlStatement {
  return { text: `update sync_run set status = ?, updated_at = now() where id = ? and status in ('running', 'review_required') and status <> ? returning id`, values: [status, runId, status] };
}

export function selectRun(ownerId: string, runId: string): SqlStatement {
  return { text: `select ${RUN_COLUMNS} from sync_run where owner_id = ? and id = ?`, values: [ownerId, runId] };
}

export function selectRunById(runId: string): SqlStatement {
  return { text: `select ${RUN_COLUMNS} from sync_run where id = ?`, values: [runId] };
}

export function selectRunOfJob(jobId: string): SqlStatement {
  return { text: `select ${RUN_COLUMNS} from sync_run where migration_job_id = ? and status in ('running', 'review_required')`, values: [jobId] };
}

export function selectRuns(ownerId: string, ruleId: string, limit: number, offset: number): SqlStatement {
  return { text: `select ${RUN_COLUMNS} from sync_run where owner_id = ? and rule_id = ? order by created_at desc, id limit ? offset ?`, values: [ownerId, ruleId, limit, offset] };
}

export function selectActiveRun(ruleId: string): SqlStatement {
  return { text: `select ${RUN_COLUMNS} from sync_run where rule_id = ? and status in ('queued', 'running', 'review_required', 'approval_required')`, values: [ruleId] };
}

/** Runs without a job whose worker is gone (lease over) or that were never picked up. */
export function selectStrandedRuns(limit: number): SqlStatement {
  return {
    text: `select id from sync_run where migration_job_id is null and
             ((status = 'running' and (lease_expires_at is null or lease_expires_at < now())) or (status = 'queued' and created_at < now() - interval '30 seconds'))
           order by created_at limit ?`,
    values: [limit],
  };
}

/** Runs whose migration job may have settled (the finalizer's sweep). */
export function selectRunsWithJobs(limit: number): SqlStatement {
  return { text: `select migration_job_id from sync_run where migration_job_id is not null and status in ('running', 'review_required') order by updated_at limit ?`, values: [limit] };
}

// --- checkpoints ----------------------------------------------------------------------------

export function selectCheckpoint(ruleId: string): SqlStatement {
  return { text: `select source_state, target_state, run_id, committed_at from sync_checkpoint where rule_id = ?`, values: [ruleId] };
}

export function upsertCheckpoint(ownerId: string, ruleId: string, runId: string | null, sourceState: unknown, targetState: unknown, at: Date): SqlStatement {
  return {
    text: `insert into sync_checkpoint (owner_id, rule_id, run_id, source_state, target_state, committed_at) values (?, ?, ?, ?::jsonb, ?::jsonb, ?)
           on conflict (rule_id) do update set run_id = excluded.run_id, source_state = excluded.source_state, target_state = excluded.target_state,
             committed_at = excluded.committed_at, updated_at = now()`,
    values: [ownerId, ruleId, runId, JSON.stringify(sourceState), JSON.stringify(targetState), at],
  };
}

// --- events -----------------------------------------------------------------------------------

export function rulesChangedAfter(ownerId: string, after: number, limit: number): SqlStatement {
  return { text: `select ${RULE_COLUMNS} from sync_rule where owner_id = ? and progress_seq > ? order by progress_seq limit ?`, values: [ownerId, after, limit] };
}

export function deletionsAfter(ownerId: string, after: number, limit: number): SqlStatement {
  return { text: `select rule_id, progress_seq from sync_rule_deletion where owner_id = ? and progress_seq > ? order by progress_seq limit ?`, values: [ownerId, after, limit] };
}

/** Deletion events older than a week go: a client away that long reloads the whole list. */
export function purgeOldDeletions(before: Date): SqlStatement {
  return { text: `delete from sync_rule_deletion where deleted_at < ?`, values: [before] };
}

export function runsChangedAfter(ownerId: string, after: number, limit: number): SqlStatement {
  return { text: `select ${RUN_COLUMNS} from sync_run where owner_id = ? and progress_seq > ? order by progress_seq limit ?`, values: [ownerId, after, limit] };
}
