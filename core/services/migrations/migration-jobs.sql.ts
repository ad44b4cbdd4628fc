import { MIGRATION_PROGRESS_LOCK } from '../../storage/entities/migration-job.entity.ts';

/**
 * SQL of migration jobs, their items and the operation ledger. Pure functions returning
 * `{text, values}` with `?` placeholders. Arrays travel as JSON (`?::jsonb`), never as driver
 * arrays. Every statement that changes a job or its items runs inside `MigrationStore.inJob`,
 * which takes the job's progress lock first (see the migration that installs the trigger).
 */

export interface SqlStatement {
  text: string;
  values: unknown[];
}

export { MIGRATION_PROGRESS_LOCK };
// The operation ledger's statements live in their own file; importers of this one still find them here.
export * from './operation-ledger.sql.ts';

export const JOB_COLUMNS = `id, owner_id, source_provider, source_account_id, target_provider, target_account_id, source_kind, source_snapshot_id, origin, sync_run_id,
  strictness, status, outcome, phase, selection, warnings, acknowledged_warnings, summary, error, error_code, lease_owner,
  lease_expires_at, resume_at, created_at, updated_at, started_at, completed_at, detail_expires_at, detail_purged_at, progress_seq`;

export const ITEM_COLUMNS = `id, job_id, entity_type, status, source_playlist_id, source_playlist_name, target_playlist_id, position,
  title, artist, album, duration_s, release_year, explicit, isrc, source_entity_id, source_entity_name, source_track_id,
  source_item_id, source_uri, source_metadata, target_uri, target_id, target_entity_id, confidence, reason, review_action,
  review_original_status, review_original_reason, reviewed_at, candidates, match_detail, created_at, updated_at, progress_seq`;

export function lockJob(jobId: string): SqlStatement {
  return { text: `select pg_advisory_xact_lock(${MIGRATION_PROGRESS_LOCK}, hashtext(?))`, values: [jobId] };
}

export interface NewJob {
  id: string;
  ownerId: string;
  sourceProvider: string;
  sourceAccountId: string;
  sourceKind: 'provider' | 'import' | 'generated' | 'snapshot';
  /** The verified snapshot a restore reads (`source_kind = snapshot`); null otherwise. */
  sourceSnapshotId?: string | null;
  targetProvider: string;
  targetAccountId: string;
  strictness: string;
  selection: Record<string, unknown>;
  warnings: unknown[];
  acknowledgedWarnings: unknown[];
  /** A sync rule's run (`origin` sync); absent: a user's migration. */
  syncRunId?: string | null;
}

export function insertJob(job: NewJob): SqlStatement {
  return {
    text: `insert into migration_job (id, owner_id, source_provider, source_account_id, source_kind, source_snapshot_id, target_provider, target_account_id,
             strictness, selection, warnings, acknowledged_warnings, origin, sync_run_id)
           values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?::jsonb, ?, ?) returning ${JOB_COLUMNS}`,
    values: [
      job.id,
      job.ownerId,
      job.sourceProvider,
      job.sourceAccountId,
      job.sourceKind,
      job.sourceSnapshotId ?? null,
      job.targetProvider,
      job.targetAccountId,
      job.strictness,
      JSON.stringify(job.selection),
      JSON.stringify(job.warnings),
      JSON.stringify(job.acknowledgedWarnings),
      job.syncRunId ? 'sync' : 'user',
      job.syncRunId ?? null,
    ],
  };
}

export function selectJob(jobId: string, ownerId: string | null = null): SqlStatement {
  return ownerId === null
    ? { text: `select ${JOB_COLUMNS} from migration_job where id = ?`, values: [jobId] }
    : { text: `select ${JOB_COLUMNS} from migration_job where id = ? and owner_id = ?`, values: [jobId, ownerId] };
}

export function selectJobs(ownerId: string, limit: number, offset: number): SqlStatement {
  return { text: `select ${JOB_COLUMNS} from migration_job where owner_id = ? order by created_at desc, id limit ? offset ?`, values: [ownerId, limit, offset] };
}

/** Per-status counts of one job's items, by entity type. */
export function selectItemCounts(jobId: string): SqlStatement {
  return { text: `select entity_type, status, count(*)::int as n from job_item where job_id = ? group by entity_type, status`, values: [jobId] };
}

/** Per-status counts of several jobs' items (one query for a page of the history). */
export function selectItemCountsOfJobs(jobIds: readonly string[]): SqlStatement {
  return {
    text: `select job_id, entity_type, status, count(*)::int as n from job_item where job_id in (select (jsonb_array_elements_text(?::jsonb))::uuid) group by job_id, entity_type, status`,
    values: [JSON.stringify(jobIds)],
  };
}

/** Per-collection counts of one job's track items. */
export function selectCollectionCounts(jobId: string): SqlStatement {
  return {
    text: `select source_playlist_id, min(source_playlist_name) as source_playlist_name, min(target_playlist_id) as target_playlist_id, status, count(*)::int as n
           from job_item where job_id = ? and entity_type = 'track' group by source_playlist_id, status`,
    values: [jobId],
  };
}

/** The owner's most recent job (the "seconds between jobs" default). */
export function selectLatestJobCreatedAt(ownerId: string): SqlStatement {
  return { text: `select created_at, now() as now from migration_job where owner_id = ? order by created_at desc limit 1`, values: [ownerId] };
}

/** Tracks written to a target account in the last 24 hours plus those still on their way there. */
export function selectTargetTracksToday(ownerId: string, targetAccountId: string): SqlStatement {
  return {
    text: `select count(*)::int as n from job_item i join migration_job j on j.id = i.job_id
           where j.owner_id = ? and j.target_account_id = ? and i.entity_type = 'track'
             and ((i.status = 'written' and i.updated_at > now() - interval '24 hours')
               or (i.status in ('pending', 'matched', 'needs_review') and j.status in ('queued', 'running', 'awaiting_review', 'paused')))`,
    values: [ownerId, targetAccountId],
  };
}

/** Claims the job's lease when it is free, expired or already ours; returns the job row. */
export function claimLease(jobId: string, worker: string, leaseSeconds: number): SqlStatement {
  return {
    text: `update migration_job set lease_owner = ?, lease_expires_at = now() + make_interval(secs => ?),
             status = 'running',
             outcome = 'running', started_at = coalesce(started_at, now()), resume_at = null, updated_at = now()
           where id = ? and status in ('queued', 'running')
             and (lease_owner is null or lease_expires_at < now() or lease_owner = ?)
           returning ${JOB_COLUMNS}`,
    values: [worker, leaseSeconds, jobId, worker],
  };
}

/** Renews a held lease without touching `updated_at` or the progress number (no event). */
export function renewLease(jobId: string, worker: string, leaseSeconds: number): SqlStatement {
  return {
    text: `update migration_job set lease_expires_at = now() + make_interval(secs => ?) where id = ? and lease_owner = ? and status = 'running' returning id`,
    values: [leaseSeconds, jobId, worker],
  };
}

export function releaseLease(jobId: string, worker: string): SqlStatement {
  return { text: `update migration_job set lease_owner = null, lease_expires_at = null where id = ? and lease_owner = ?`, values: [jobId, worker] };
}

/** Jobs that should be running but have no live worker (a worker died, or its queue entry was lost). */
export function selectOrphanedJobs(staleSeconds: number, limit: number): SqlStatement {
  return {
    text: `select id from migration_job
           where status in ('queued', 'running') and (lease_expires_at is null or lease_expires_at < now())
             and updated_at < now() - make_interval(secs => ?) and (resume_at is null or resume_at <= now())
           order by created_at limit ?`,
    values: [staleSeconds, limit],
  };
}

/** Paused jobs whose wait is over (a provider quota reset): each goes back to the queue with `requeueDuePausedJob`. */
export function selectDuePausedJobs(limit: number): SqlStatement {
  return {
    text: `select id from migration_job where status = 'paused' and resume_at is not null and resume_at <= now() order by resume_at limit ?`,
    values: [limit],
  };
}

/** Back to the queue, when the job is still paused and due (run under the job's lock: `MigrationStore.change`). */
export function requeueDuePausedJob(jobId: string): SqlStatement {
  return {
    text: `update migration_job set status = 'queued', error_code = null, error = null, resume_at = null, updated_at = now()
           where id = ? and status = 'paused' and resume_at is not null and resume_at <= now()
           returning id`,
    values: [jobId],
  };
}

/**
 * The runner's changes of a job's phase, status and end are fenced like its writes (`insertLedger`):
 * they apply only while `worker` holds the lease, and return the job's id when they did. A run that
 * lost the lease (another worker took the job, or the user cancelled it) changes nothing, so it
 * can neither undo a cancellation nor overwrite the new holder's progress.
 */
export function updateJobPhase(jobId: string, phase: string, worker: string): SqlStatement {
  return { text: `update migration_job set phase = ?, updated_at = now() where id = ? and lease_owner = ? returning id`, values: [phase, jobId, worker] };
}

export function updateJobSelection(jobId: string, selection: Record<string, unknown>): SqlStatement {
  return { text: `update migration_job set selection = ?::jsonb, updated_at = now() where id = ?`, values: [JSON.stringify(selection), jobId] };
}

export function updateJobStatus(jobId: string, fields: { status: string; outcome: string; errorCode: string | null; error: string | null; resumeAt?: Date | null }, worker: string): SqlStatement {
  return {
    text: `update migration_job set status = ?, outcome = ?, error_code = ?, error = ?, resume_at = ?, lease_owner = null, lease_expires_at = null, updated_at = now()
           where id = ? and lease_owner = ? returning id`,
    values: [fields.status, fields.outcome, fields.errorCode, fields.error, fields.resumeAt ?? null, jobId, worker],
  };
}

export function finishJob(jobId: string, fields: { outcome: string; status: string; summary: Record<string, unknown>; error: string | null; retentionDays: number }, worker: string): SqlStatement {
  return {
    text: `update migration_job set status = ?, outcome = ?, summary = ?::jsonb, error = ?, error_code = null, phase = 'written',
             completed_at = now(), lease_owner = null, lease_expires_at = null, updated_at = now(),
             detail_expires_at = case when ? > 0 then now() + make_interval(days => ?) else null end
           where id = ? and lease_owner = ? returning id`,
    values: [fields.status, fields.outcome, JSON.stringify(fields.summary), fields.error, fields.retentionDays, fields.retentionDays, jobId, worker],
  };
}

/** Requeues a job stopped for review or a pause (the review is resolved, the account reconnected). */
export function requeueJob(jobId: string, ownerId: string, fromStatuses: readonly string[]): SqlStatement {
  return {
    text: `update migration_job set status = 'queued', error_code = null, error = null, resume_at = null, updated_at = now()
           where id = ? and owner_id = ? and status in (select jsonb_array_elements_text(?::jsonb)) returning id`,
    values: [jobId, ownerId, JSON.stringify(fromStatuses)],
  };
}

export function cancelJob(jobId: string, ownerId: string): SqlStatement {
  return {
    text: `update migration_job set status = 'cancelled', outcome = case when outcome in ('pending', 'running') then 'failed' else outcome end,
             error_code = 'cancelled', error = 'Cancelled by the user.', completed_at = now(), lease_owner = null, lease_expires_at = null, updated_at = now()
           where id = ? and owner_id = ? and status in ('queued', 'running', 'awaiting_review', 'paused') returning id`,
    values: [jobId, ownerId],
  };
}

export interface NewItem {
  entityType: 'track' | 'album' | 'artist';
  status: 'pending' | 'skipped';
  sourcePlaylistId: string | null;
  sourcePlaylistName: string | null;
  position: number | null;
  title: string;
  artist: string;
  album: string | null;
  durationS: number | null;
  releaseYear: number | null;
  explicit: boolean | null;
  isrc: string | null;
  sourceEntityId: string | null;
  sourceEntityName: string | null;
  sourceTrackId: string | null;
  sourceItemId: string | null;
  sourceUri: string | null;
  sourceMetadata: Record<string, unknown>;
  reason: string | null;
}

/** Inserts a batch of items in one statement (a JSON array expanded server-side). */
export function insertItems(jobId: string, ownerId: string, items: readonly NewItem[]): SqlStatement {
  const rows = items.map((item) => ({
    entity_type: item.entityType,
    status: item.status,
    source_playlist_id: item.sourcePlaylistId,
    source_playlist_name: item.sourcePlaylistName,
    position: item.position,
    title: item.title,
    artist: item.artist,
    album: item.album,
    duration_s: item.durationS === null ? null : Math.round(item.durationS),
    release_year: item.releaseYear,
    explicit: item.explicit,
    isrc: item.isrc,
    source_entity_id: item.sourceEntityId,
    source_entity_name: item.sourceEntityName,
    source_track_id: item.sourceTrackId,
    source_item_id: item.sourceItemId,
    source_uri: item.sourceUri,
    source_metadata: item.sourceMetadata,
    reason: item.reason,
  }));
  return {
    text: `insert into job_item (job_id, owner_id, entity_type, status, source_playlist_id, source_playlist_name, position, title, artist, album,
             duration_s, release_year, explicit, isrc, source_entity_id, source_entity_name, source_track_id, source_item_id, source_uri,
             source_metadata, reason)
           select ?, ?, r.entity_type, r.status, r.source_playlist_id, r.source_playlist_name, r.position, r.title, r.artist, r.album,
             r.duration_s, r.release_year, r.explicit, r.isrc, r.source_entity_id, r.source_entity_name, r.source_track_id, r.source_item_id,
             r.source_uri, r.source_metadata, r.reason
           from jsonb_to_recordset(?::jsonb) as r(entity_type text, status text, source_playlist_id text, source_playlist_name text, position int,
             title text, artist text, album text, duration_s int, release_year int, explicit boolean, isrc text, source_entity_id text,
             source_entity_name text, source_track_id text, source_item_id text, source_uri text, source_metadata jsonb, reason text)`,
    values: [jobId, ownerId, JSON.stringify(rows)],
  };
}

export function selectItemsByStatus(jobId: string, statuses: readonly string[], limit: number): SqlStatement {
  return {
    text: `select ${ITEM_COLUMNS} from job_item where job_id = ? and status in (select jsonb_array_elements_text(?::jsonb))
           order by entity_type, source_playlist_id nulls first, position nulls last, id limit ?`,
    values: [jobId, JSON.stringify(statuses), limit],
  };
}

export function selectItem(jobId: string, itemId: string): SqlStatement {
  return { text: `select ${ITEM_COLUMNS} from job_item where job_id = ? and id = ?`, values: [jobId, itemId] };
}

export function selectItemsOfCollection(jobId: string, entityType: string, collectionId: string | null): SqlStatement {
  return {
    text: `select ${ITEM_COLUMNS} from job_item where job_id = ? and entity_type = ? and source_playlist_id is not distinct from ?
           order by position nulls last, id`,
    values: [jobId, entityType, collectionId],
  };
}

export interface ItemMatch {
  status: 'matched' | 'needs_review' | 'skipped' | 'failed' | 'pending';
  targetUri: string | null;
  targetId: string | null;
  confidence: number | null;
  reason: string | null;
  candidates: unknown[] | null;
  matchDetail: Record<string, unknown> | null;
  /**
   * What the song's own service listed it as, for a song that was only a link (see
   * `SourceLookup`): shown as the item's title, artist, album and ISRC where the source had none.
   * The source itself (`source_metadata`, the key of review decisions) is left as it was.
   */
  listed?: { title: string; artist: string; album: string | null; isrc: string | null };
}

/** Many items' match results in one statement (the matcher persists them in small batches). */
export function updateItemMatches(rows: readonly { itemId: string; match: ItemMatch }[]): SqlStatement {
  const records = rows.map(({ itemId, match }) => ({
    id: itemId,
    status: match.status,
    target_uri: match.targetUri,
    target_id: match.targetId,
    confidence: match.confidence,
    reason: match.reason,
    candidates: match.candidates,
    match_detail: match.matchDetail,
    listed_title: match.listed?.title ?? null,
    listed_artist: match.listed?.artist ?? null,
    listed_album: match.listed?.album ?? null,
    listed_isrc: match.listed?.isrc ?? null,
  }));
  return {
    text: `update job_item i set status = r.status, target_uri = r.target_uri, target_id = r.target_id, target_entity_id = r.target_id, confidence = r.confidence, reason = r.reason,
             candidates = r.candidates, match_detail = r.match_detail, updated_at = now(),
             title = case when coalesce(i.title, '') = '' then coalesce(r.listed_title, i.title) else i.title end,
             source_entity_name = case when coalesce(i.source_entity_name, '') = '' then coalesce(r.listed_title, i.source_entity_name) else i.source_entity_name end,
             artist = case when coalesce(i.artist, '') = '' then coalesce(r.listed_artist, i.artist) else i.artist end,
             album = case when coalesce(i.album, '') = '' then coalesce(r.listed_album, i.album) else i.album end,
             isrc = coalesce(i.isrc, r.listed_isrc)
           from jsonb_to_recordset(?::jsonb) as r(id uuid, status text, target_uri text, target_id text, confidence double precision, reason text, candidates jsonb, match_detail jsonb,
             listed_title text, listed_artist text, listed_album text, listed_isrc text)
           where i.id = r.id`,
    values: [JSON.stringify(records)],
  };
}

export function updateItemOutcome(itemId: string, fields: { status: string; reason: string | null; targetPlaylistId?: string | null }): SqlStatement {
  return {
    text: `update job_item set status = ?, reason = coalesce(?, reason), target_playlist_id = coalesce(?, target_playlist_id), updated_at = now() where id = ?`,
    values: [fields.status, fields.reason, fields.targetPlaylistId ?? null, itemId],
  };
}

export function setCollectionTarget(jobId: string, collectionId: string, targetPlaylistId: string): SqlStatement {
  return {
    text: `update job_item set target_playlist_id = ?, updated_at = now() where job_id = ? and entity_type = 'track' and source_playlist_id = ? and target_playlist_id is distinct from ?`,
    values: [targetPlaylistId, jobId, collectionId, targetPlaylistId],
  };
}

export function applyReview(itemId: string, fields: { status: string; action: 'approve' | 'skip'; targetUri: string | null; targetId: string | null; confidence: number | null; reason: string }): SqlStatement {
  return {
    text: `update job_item set review_original_status = coalesce(review_original_status, status), review_original_reason = coalesce(review_original_reason, reason),
             status = ?, review_action = ?, target_uri = coalesce(?, target_uri), target_id = coalesce(?, target_id), target_entity_id = coalesce(?, target_entity_id),
             confidence = coalesce(?, confidence), reason = ?, reviewed_at = now(), updated_at = now()
           where id = ? and status = 'needs_review' returning ${ITEM_COLUMNS}`,
    values: [fields.status, fields.action, fields.targetUri, fields.targetId, fields.targetId, fields.confidence, fields.reason, itemId],
  };
}

export function countItemsWithStatus(jobId: string, status: string): SqlStatement {
  return { text: `select count(*)::int as n from job_item where job_id = ? and status = ?`, values: [jobId, status] };
}

/** Target collections an earlier job of this owner wrote this source collection to (newest first). */
export function selectPreviousTargets(ownerId: string, targetAccountId: string, sourceAccountId: string, collectionId: string): SqlStatement {
  return {
    text: `select distinct i.target_playlist_id, max(j.created_at) as at from job_item i join migration_job j on j.id = i.job_id
           where j.owner_id = ? and j.target_account_id = ? and j.source_account_id = ? and i.source_playlist_id = ? and i.target_playlist_id is not null
           group by i.target_playlist_id order by at desc limit 5`,
    values: [ownerId, targetAccountId, sourceAccountId, collectionId],
  };
}

// --- review decisions ----------------------------------------------------------------------------

/** The decisions for one source entity in several scopes at once (one round trip per item). */
export function selectDecisions(ownerId: string, provider: string, scopes: readonly string[], entityType: string, sourceKey: string): SqlStatement {
  return {
    text: `select scope, action, chosen_target_uri, chosen_target_id from review_decision
           where owner_id = ? and provider = ? and scope in (select jsonb_array_elements_text(?::jsonb)) and entity_type = ? and source_key = ?`,
    values: [ownerId, provider, JSON.stringify(scopes), entityType, sourceKey],
  };
}

export function upsertDecision(fields: { ownerId: string; provider: string; scope: string; accountId: string | null; entityType: string; sourceKey: string; action: string; uri: string | null; id: string | null }): SqlStatement {
  return {
    text: `insert into review_decision (owner_id, scope, provider, account_id, entity_type, source_key, action, chosen_target_uri, chosen_target_id)
           values (?, ?, ?, ?, ?, ?, ?, ?, ?)
           on conflict (owner_id, provider, scope, entity_type, source_key) do update
             set action = excluded.action, chosen_target_uri = excluded.chosen_target_uri, chosen_target_id = excluded.chosen_target_id, updated_at = now()`,
    values: [fields.ownerId, fields.scope, fields.provider, fields.accountId, fields.entityType, fields.sourceKey, fields.action, fields.uri, fields.id],
  };
}

// --- bulk outcomes of a write batch ------------------------------------------------------------

export function markItemsWritten(rows: readonly { id: string; targetPlaylistId: string | null; reason: string }[]): SqlStatement {
  return {
    // The match reason stays (it explains the choice); \`r.reason\` only fills an empty one.
    text: `update job_item i set status = 'written', target_playlist_id = coalesce(r.target_playlist_id, i.target_playlist_id), reason = coalesce(i.reason, r.reason), updated_at = now()
           from jsonb_to_recordset(?::jsonb) as r(id uuid, target_playlist_id text, reason text) where i.id = r.id`,
    values: [JSON.stringify(rows.map((row) => ({ id: row.id, target_playlist_id: row.targetPlaylistId, reason: row.reason })))],
  };
}

/** Replaces the reason of written items (a fact about the write that matters more than the match reason). */
export function noteItems(itemIds: readonly string[], reason: string): SqlStatement {
  return {
    text: `update job_item set reason = ?, updated_at = now() where id in (select (jsonb_array_elements_text(?::jsonb))::uuid)`,
    values: [reason, JSON.stringify(itemIds)],
  };
}
