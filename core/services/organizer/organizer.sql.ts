import type { SqlStatement } from '../../storage/sql/executors.ts';
import type { OrganizerAction } from './organizer-actions.ts';

/**
 * SQL of the organizer: pure functions returning `{text, values}` (`?` placeholders). Every
 * statement a request can reach names the owner, so another owner's id or token finds nothing.
 * Idempotency lives on `organizer_item` (the migration operation ledger is not used): an item is
 * marked `running` (the intent) before its provider call, and settled only by what is observed.
 */

export const JOB_COLUMNS = `id, owner_id, provider, account_id, mode, status, preflight, summary, error, preflight_id, created_at, started_at, completed_at`;
export const ITEM_COLUMNS = `id, job_id, playlist_id, playlist_name, action, status, retryable, snapshot_id, entries, set_video_ids, baseline, relation, notes,
  baseline_sequence_hash, expected_sequence_hash, attempts, error_code, error, completed_at`;

export function insertPreflight(row: { id: string; ownerId: string; provider: string; accountId: string; action: OrganizerAction; plan: unknown; phrase: string | null; ttlSeconds: number }): SqlStatement {
  return {
    text: `insert into organizer_preflight (id, owner_id, provider, account_id, action, plan, confirmation_phrase, expires_at)
           values (?, ?, ?, ?, ?, ?::jsonb, ?, now() + make_interval(secs => ?)) returning expires_at`,
    values: [row.id, row.ownerId, row.provider, row.accountId, row.action, JSON.stringify(row.plan), row.phrase, row.ttlSeconds],
  };
}

/** The preflight with whether it expired and which job (if any) already used it. */
export function selectPreflight(ownerId: string, id: string): SqlStatement {
  return {
    text: `select p.id, p.provider, p.account_id, p.action, p.plan, p.confirmation_phrase, p.expires_at, p.expires_at <= now() as expired,
                  (select j.id from organizer_job j where j.preflight_id = p.id) as job_id
             from organizer_preflight p where p.owner_id = ? and p.id = ?`,
    values: [ownerId, id],
  };
}

export interface NewItem {
  playlistId: string;
  playlistName: string;
  relation: string;
  snapshotId: string | null;
  entries: unknown[] | null;
  setVideoIds: string[] | null;
  baseline: unknown[] | null;
  baselineHash: string | null;
  expectedHash: string | null;
}

/** The job and one item per playlist in one statement; the unique preflight id refuses a second job. */
export function insertJobWithItems(job: { id: string; ownerId: string; provider: string; accountId: string; action: OrganizerAction | 'restore_tracks'; preflightId: string | null; preflight: unknown }, items: readonly NewItem[]): SqlStatement {
  const rows = items.map((item) => ({
    playlist_id: item.playlistId,
    playlist_name: item.playlistName,
    relation: item.relation,
    snapshot_id: item.snapshotId,
    entries: item.entries,
    set_video_ids: item.setVideoIds,
    baseline: item.baseline,
    baseline_sequence_hash: item.baselineHash,
    expected_sequence_hash: item.expectedHash,
  }));
  return {
    text: `with job as (
             insert into organizer_job (id, owner_id, provider, account_id, mode, status, preflight, confirmed_at, preflight_id)
             values (?, ?, ?, ?, ?, 'queued', ?::jsonb, now(), ?) returning id
           )
           insert into organizer_item (owner_id, job_id, playlist_id, playlist_name, action, status, idempotency_key, relation, snapshot_id, entries,
                                       set_video_ids, baseline, baseline_sequence_hash, expected_sequence_hash)
           select ?, job.id, r.playlist_id, r.playlist_name, ?, 'pending', job.id::text || ':' || r.playlist_id || ':' || ?, r.relation, r.snapshot_id, r.entries,
                  case when r.set_video_ids is null then null else array(select jsonb_array_elements_text(r.set_video_ids)) end,
                  r.baseline, r.baseline_sequence_hash, r.expected_sequence_hash
             from job, jsonb_to_recordset(?::jsonb) as r(playlist_id text, playlist_name text, relation text, snapshot_id text, entries jsonb,
                  set_video_ids jsonb, baseline jsonb, baseline_sequence_hash text, expected_sequence_hash text)`,
    values: [job.id, job.ownerId, job.provider, job.accountId, job.action, JSON.stringify(job.preflight), job.preflightId, job.ownerId, job.action, job.action, JSON.stringify(rows)],
  };
}

export function selectJob(ownerId: string, jobId: string): SqlStatement {
  return { text: `select ${JOB_COLUMNS} from organizer_job where owner_id = ? and id = ?`, values: [ownerId, jobId] };
}

export function selectJobs(ownerId: string, limit: number): SqlStatement {
  return { text: `select ${JOB_COLUMNS} from organizer_job where owner_id = ? order by created_at desc limit ?`, values: [ownerId, limit] };
}

export function selectItems(jobId: string): SqlStatement {
  return { text: `select ${ITEM_COLUMNS} from organizer_item where job_id = ? order by created_at, playlist_id`, values: [jobId] };
}

/** The items of several jobs of one owner in one statement (a job list never reads per job). */
export function selectItemsOfJobs(ownerId: string, jobIds: readonly string[]): SqlStatement {
  return {
    text: `select ${ITEM_COLUMNS} from organizer_item where owner_id = ? and job_id in (select jsonb_array_elements_text(?::jsonb)::uuid) order by job_id, created_at, playlist_id`,
    values: [ownerId, JSON.stringify(jobIds)],
  };
}

/** Worker side (no owner: the job id came from the queue). */
export function selectJobForWorker(jobId: string): SqlStatement {
  return { text: `select ${JOB_COLUMNS} from organizer_job where id = ?`, values: [jobId] };
}

/** Takes (or renews) the job's lease; nothing when another worker holds a live one. */
export function claimJob(jobId: string, worker: string, leaseSeconds: number): SqlStatement {
  return {
    text: `update organizer_job set lease_owner = ?, lease_until = now() + make_interval(secs => ?), status = 'running', started_at = coalesce(started_at, now()), updated_at = now()
            where id = ? and status in ('queued', 'running') and (lease_owner is null or lease_owner = ? or lease_until < now()) returning id`,
    values: [worker, leaseSeconds, jobId, worker],
  };
}

export function releaseJob(jobId: string, worker: string, status: string, summary: unknown): SqlStatement {
  return {
    text: `update organizer_job set lease_owner = null, lease_until = null, status = ?, summary = ?::jsonb, completed_at = now(), updated_at = now() where id = ? and lease_owner = ? returning id`,
    values: [status, JSON.stringify(summary), jobId, worker],
  };
}

/**
 * The intent: the item is `running` and its attempt counted before any provider call. Only while
 * this worker holds the job's lease, so a worker that lost it never writes.
 */
export function markItemRunning(itemId: string, jobId: string, worker: string): SqlStatement {
  return {
    text: `update organizer_item i set status = 'running', attempts = attempts + 1, updated_at = now()
             from organizer_job j where i.id = ? and j.id = ? and i.job_id = j.id and j.lease_owner = ? and j.lease_until > now() returning i.id`,
    values: [itemId, jobId, worker],
  };
}

export interface ItemOutcome {
  status: 'succeeded' | 'failed' | 'ambiguous';
  retryable: boolean;
  errorCode: string | null;
  error: string | null;
  notes: string[];
  /** Song removal: the entries removed (position, URI), kept for the record. */
  entries?: unknown[] | null;
}

export function settleItem(itemId: string, jobId: string, worker: string, outcome: ItemOutcome): SqlStatement {
  return {
    text: `update organizer_item i set status = ?, retryable = ?, error_code = ?, error = ?, notes = ?::jsonb, entries = coalesce(?::jsonb, i.entries),
                  completed_at = case when ? = 'succeeded' then now() else null end, updated_at = now()
             from organizer_job j where i.id = ? and j.id = ? and i.job_id = j.id and j.lease_owner = ? returning i.id`,
    values: [outcome.status, outcome.retryable, outcome.errorCode, outcome.error, JSON.stringify(outcome.notes), outcome.entries === undefined ? null : JSON.stringify(outcome.entries), outcome.status, itemId, jobId, worker],
  };
}

/** Retry: only failed (or unsettled) items marked retryable go back to pending; successes never rerun. */
export function resetRetryableItems(ownerId: string, jobId: string): SqlStatement {
  return {
    text: `with reset as (
             update organizer_item set status = 'pending', error_code = null, error = null, updated_at = now()
              where owner_id = ? and job_id = ? and status in ('failed', 'ambiguous') and retryable returning id
           )
           update organizer_job set status = 'queued', completed_at = null, updated_at = now()
            where owner_id = ? and id = ? and status in ('partial', 'failed') and exists (select 1 from reset) returning id`,
    values: [ownerId, jobId, ownerId, jobId],
  };
}

/** Jobs a crashed worker left queued or running with an expired lease (re-queued at worker start). */
export function selectStrandedJobs(): SqlStatement {
  return { text: `select id from organizer_job where status in ('queued', 'running') and (lease_until is null or lease_until < now()) order by created_at limit 100`, values: [] };
}

/** Identity-graph identities of a provider's track ids (an account overlay edge before a global one). */
export function selectIdentities(provider: string, trackIds: readonly string[], accountScope: string): SqlStatement {
  return {
    text: `select distinct on (provider_track_id) provider_track_id, identity_id from track_edge
            where provider = ? and provider_track_id in (select jsonb_array_elements_text(?::jsonb)) and scope in ('global', ?)
            order by provider_track_id, case when scope = 'global' then 1 else 0 end, created_at`,
    values: [provider, JSON.stringify(trackIds), accountScope],
  };
}
