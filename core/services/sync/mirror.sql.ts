import type { SqlStatement } from '../../storage/sql/executors.ts';
import { RUN_COLUMNS } from './sync.sql.ts';

/**
 * The mirror phase's statements. A run enters the phase by `stats.mirror = 'pending'`; the phase
 * is held under the run's lease like the first part of a run, so two workers (the finalizer hook
 * and a sweep, or two processes) never write to the target at once.
 */

/** The source songs' matches: the items of the rule's origin migration and of every run's job, oldest first. */
export function selectRuleMatches(ownerId: string, originJobId: string, ruleId: string, sourcePlaylistId: string): SqlStatement {
  return {
    text: `select i.source_metadata, i.target_uri, i.status, i.job_id = ? as from_origin from job_item i join migration_job j on j.id = i.job_id
           where j.owner_id = ? and (j.id = ? or j.sync_run_id in (select id from sync_run where rule_id = ?))
             and i.entity_type = 'track' and i.source_playlist_id is not distinct from ?
           order by j.created_at, i.position nulls last, i.id`,
    values: [originJobId, ownerId, originJobId, ruleId, sourcePlaylistId],
  };
}

/** The songs a job wrote (the rule owns them from then on). */
export function selectWrittenUris(jobId: string): SqlStatement {
  return { text: `select distinct target_uri from job_item where job_id = ? and entity_type = 'track' and status = 'written' and target_uri is not null`, values: [jobId] };
}

/** Hands a run to its mirror phase (releasing the lease: the phase claims it again). */
export function markMirrorPending(runId: string, worker: string | null, stats: Record<string, unknown>): SqlStatement {
  return {
    text: `update sync_run set status = 'running', stats = coalesce(stats, '{}'::jsonb) || ?::jsonb || '{"mirror":"pending"}'::jsonb, lease_owner = null, lease_expires_at = null, updated_at = now()
           where id = ? and status in ('running', 'review_required') and coalesce(stats->>'mirror', '') <> 'pending' and (?::text is null or lease_owner = ?) returning id`,
    values: [JSON.stringify(stats), runId, worker, worker],
  };
}

export function claimMirrorPhase(runId: string, worker: string, leaseSeconds: number): SqlStatement {
  return {
    text: `update sync_run set lease_owner = ?, lease_expires_at = now() + make_interval(secs => ?), updated_at = now()
           where id = ? and status = 'running' and stats->>'mirror' = 'pending' and (lease_owner is null or lease_expires_at < now())
           returning ${RUN_COLUMNS}`,
    values: [worker, leaseSeconds, runId],
  };
}

export function renewMirrorLease(runId: string, worker: string, leaseSeconds: number): SqlStatement {
  return {
    text: `update sync_run set lease_expires_at = now() + make_interval(secs => ?) where id = ? and lease_owner = ? and status = 'running' returning id`,
    values: [leaseSeconds, runId, worker],
  };
}

/** More removals than the rule allows: the run waits for its owner, with what it would do. */
export function awaitApproval(runId: string, worker: string, stats: Record<string, unknown>): SqlStatement {
  return {
    text: `update sync_run set status = 'approval_required', stats = coalesce(stats, '{}'::jsonb) || ?::jsonb, lease_owner = null, lease_expires_at = null, updated_at = now()
           where id = ? and lease_owner = ? and status = 'running' returning id`,
    values: [JSON.stringify(stats), runId, worker],
  };
}

/** The owner approves up to `removals` removals: the run goes on with its mirror phase. */
export function approveRun(ownerId: string, ruleId: string, runId: string, removals: number): SqlStatement {
  return {
    text: `update sync_run set status = 'running', stats = coalesce(stats, '{}'::jsonb) || jsonb_build_object('mirror', 'pending', 'approved_removals', ?::int), updated_at = now()
           where owner_id = ? and rule_id = ? and id = ? and status = 'approval_required' returning ${RUN_COLUMNS}`,
    values: [removals, ownerId, ruleId, runId],
  };
}

export function updateCheckpointTarget(ruleId: string, targetState: unknown): SqlStatement {
  return { text: `update sync_checkpoint set target_state = ?::jsonb, updated_at = now() where rule_id = ? returning rule_id`, values: [JSON.stringify(targetState), ruleId] };
}

export function insertMirrorStep(step: { ownerId: string; ruleId: string; runId: string; seq: number; kind: 'remove' | 'move' | 'replace' | 'add'; payload: Record<string, unknown> }): SqlStatement {
  return {
    text: `insert into sync_mirror_step (owner_id, rule_id, run_id, seq, kind, payload) values (?, ?, ?, ?, ?, ?::jsonb) returning id`,
    values: [step.ownerId, step.ruleId, step.runId, step.seq, step.kind, JSON.stringify(step.payload)],
  };
}

export function settleMirrorStep(stepId: string, status: 'done' | 'failed', error: string | null): SqlStatement {
  return { text: `update sync_mirror_step set status = ?, error = ?, updated_at = now() where id = ?`, values: [status, error, stepId] };
}

export function selectMirrorSteps(ownerId: string, runId: string): SqlStatement {
  return { text: `select seq, kind, payload, status, error from sync_mirror_step where owner_id = ? and run_id = ? order by seq`, values: [ownerId, runId] };
}
