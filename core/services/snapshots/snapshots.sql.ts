import type { SqlStatement } from '../../storage/sql/executors.ts';

/**
 * SQL of snapshot profiles and snapshots: pure functions returning `{text, values}`. Every
 * statement names the owner, so another owner's id finds nothing.
 */

export const PROFILE_COLUMNS = 'id, owner_id, name, selection, library_id, schedule, next_run_at, retention, automatic_origin, automatic_account_id, created_at, updated_at';
export const SNAPSHOT_COLUMNS = `id, owner_id, profile_id, library_id, status, origin, archive_path, archive_sha256, archive_bytes, schema_version,
  counts, progress, manifest, error, verification_reason, verified_at, started_at, completed_at, created_at, updated_at, progress_seq`;

/** A profile's stored fields besides its owner and lineage; `nextRunAt` is the schedule's first slot. */
export interface ProfileFields {
  name: string;
  selection: unknown;
  schedule: unknown;
  nextRunAt: Date | null;
  retention: unknown;
}

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

export function insertProfile(ownerId: string, fields: ProfileFields): SqlStatement {
  return {
    text: `insert into snapshot_profile (owner_id, name, selection, schedule, next_run_at, retention) values (?, ?, ?::jsonb, ?::jsonb, ?, ?::jsonb) returning ${PROFILE_COLUMNS}`,
    values: [ownerId, fields.name, json(fields.selection), json(fields.schedule), fields.nextRunAt, json(fields.retention)],
  };
}

export function updateProfile(ownerId: string, id: string, fields: ProfileFields): SqlStatement {
  return {
    text: `update snapshot_profile set name = ?, selection = ?::jsonb, schedule = ?::jsonb, next_run_at = ?, retention = ?::jsonb, updated_at = now() where owner_id = ? and id = ? returning ${PROFILE_COLUMNS}`,
    values: [fields.name, json(fields.selection), json(fields.schedule), fields.nextRunAt, json(fields.retention), ownerId, id],
  };
}

/** Profiles whose scheduled snapshot is due at `now` (oldest slot first). */
export function selectDueProfiles(now: Date, limit: number): SqlStatement {
  return { text: `select ${PROFILE_COLUMNS} from snapshot_profile where next_run_at <= ? order by next_run_at, id limit ?`, values: [now, limit] };
}

/** Locks one due profile for its evaluation; another evaluator (another worker) skips it. */
export function lockDueProfile(id: string, now: Date): SqlStatement {
  return { text: `select ${PROFILE_COLUMNS} from snapshot_profile where id = ? and next_run_at <= ? for update skip locked`, values: [id, now] };
}

export function setNextRun(id: string, nextRunAt: Date): SqlStatement {
  return { text: 'update snapshot_profile set next_run_at = ? where id = ?', values: [nextRunAt, id] };
}

/** A scheduled snapshot, unless the profile has one queued or running already (a slow one is not doubled). */
export function insertScheduledSnapshot(ownerId: string, profileId: string, libraryId: string): SqlStatement {
  return {
    text: `insert into snapshot (owner_id, profile_id, library_id, status, origin, progress)
           select ?, ?, ?, 'queued', 'created', '{"collections_done":0,"collections_total":0,"items":0}'::jsonb
           where not exists (select 1 from snapshot where profile_id = ? and status in ('queued', 'running')) returning id`,
    values: [ownerId, profileId, libraryId, profileId],
  };
}

/** Profiles with a retention policy. */
export function selectRetainingProfiles(): SqlStatement {
  return { text: `select ${PROFILE_COLUMNS} from snapshot_profile where retention is not null order by id`, values: [] };
}

/** A profile's finished snapshots, the facts retention needs. */
export function selectFinishedSnapshots(profileId: string): SqlStatement {
  return {
    text: `select id, status, created_at, archive_path is not null and verification_reason is null and status in ('completed', 'partial') as good
           from snapshot where profile_id = ? and status in ('completed', 'partial', 'failed')`,
    values: [profileId],
  };
}

/** A snapshot's progress events after event id `after`: the row as it is now, if it changed since. */
export function selectSnapshotEvent(ownerId: string, id: string, after: number): SqlStatement {
  return { text: `select ${SNAPSHOT_COLUMNS} from snapshot where owner_id = ? and id = ? and progress_seq > ?`, values: [ownerId, id, after] };
}

export function selectProfiles(ownerId: string): SqlStatement {
  return { text: `select ${PROFILE_COLUMNS} from snapshot_profile where owner_id = ? order by created_at, id`, values: [ownerId] };
}

export function selectProfile(ownerId: string, id: string): SqlStatement {
  return { text: `select ${PROFILE_COLUMNS} from snapshot_profile where owner_id = ? and id = ?`, values: [ownerId, id] };
}

export function deleteProfile(ownerId: string, id: string): SqlStatement {
  return { text: 'delete from snapshot_profile where owner_id = ? and id = ? returning id', values: [ownerId, id] };
}

export function insertQueuedSnapshot(ownerId: string, profileId: string, libraryId: string, total: number): SqlStatement {
  return {
    text: `insert into snapshot (owner_id, profile_id, library_id, status, origin, progress) values (?, ?, ?, 'queued', 'created', ?::jsonb) returning ${SNAPSHOT_COLUMNS}`,
    values: [ownerId, profileId, libraryId, JSON.stringify({ collections_done: 0, collections_total: total, items: 0 })],
  };
}

/**
 * An uploaded archive's row, unless this owner holds that snapshot already (by the id in its
 * manifest). Other owners' rows are never consulted: the row's own id is always fresh.
 */
/** Advisory lock class of an owner's uploads: two uploads of one archive cannot both pass the "already stored" check. */
export const SNAPSHOT_UPLOAD_LOCK = 1_937_021;

export function lockOwnerUploads(ownerId: string): SqlStatement {
  return { text: `select pg_advisory_xact_lock(${SNAPSHOT_UPLOAD_LOCK}, hashtext(?))`, values: [ownerId] };
}

export function insertUploadedSnapshot(row: {
  id: string;
  archiveSnapshotId: string;
  ownerId: string;
  libraryId: string;
  status: 'completed' | 'partial';
  archivePath: string;
  sha256: string;
  bytes: number;
  manifest: unknown;
  counts: unknown;
}): SqlStatement {
  return {
    text: `insert into snapshot (id, owner_id, library_id, status, origin, archive_path, archive_sha256, archive_bytes, schema_version, counts, manifest, verified_at, started_at, completed_at)
           select ?, ?, ?, ?, 'uploaded', ?, ?, ?, 1, ?::jsonb, ?::jsonb, now(), now(), now()
           where not exists (select 1 from snapshot where owner_id = ? and (id = ? or manifest->>'snapshot_id' = ?)) returning ${SNAPSHOT_COLUMNS}`,
    values: [row.id, row.ownerId, row.libraryId, row.status, row.archivePath, row.sha256, row.bytes, JSON.stringify(row.counts), JSON.stringify(row.manifest), row.ownerId, row.archiveSnapshotId, row.archiveSnapshotId],
  };
}

export function selectSnapshots(ownerId: string): SqlStatement {
  return { text: `select ${SNAPSHOT_COLUMNS} from snapshot where owner_id = ? order by created_at desc, id`, values: [ownerId] };
}

export function selectSnapshot(ownerId: string, id: string): SqlStatement {
  return { text: `select ${SNAPSHOT_COLUMNS} from snapshot where owner_id = ? and id = ?`, values: [ownerId, id] };
}

/** The job's own read: the row by id alone (the payload names it; the row names its owner). */
export function selectSnapshotForJob(id: string): SqlStatement {
  return { text: `select ${SNAPSHOT_COLUMNS} from snapshot where id = ?`, values: [id] };
}

/** Claims a queued snapshot for a run: only one worker gets it, and only once. */
export function claimSnapshot(id: string): SqlStatement {
  return { text: `update snapshot set status = 'running', started_at = now(), updated_at = now() where id = ? and status = 'queued' returning ${SNAPSHOT_COLUMNS}`, values: [id] };
}

export function recordProgress(id: string, progress: unknown): SqlStatement {
  return { text: `update snapshot set progress = ?::jsonb, updated_at = now() where id = ? and status = 'running'`, values: [JSON.stringify(progress), id] };
}

export function completeSnapshot(id: string, facts: { status: 'completed' | 'partial'; archivePath: string; sha256: string; bytes: number; manifest: unknown; counts: unknown; progress: unknown }): SqlStatement {
  return {
    text: `update snapshot set status = ?, archive_path = ?, archive_sha256 = ?, archive_bytes = ?, schema_version = 1, counts = ?::jsonb, manifest = ?::jsonb,
             progress = ?::jsonb, verified_at = now(), completed_at = now(), updated_at = now() where id = ? and status = 'running'`,
    values: [facts.status, facts.archivePath, facts.sha256, facts.bytes, JSON.stringify(facts.counts), JSON.stringify(facts.manifest), JSON.stringify(facts.progress), id],
  };
}

export function failSnapshot(id: string, error: string, verificationReason: string | null = null): SqlStatement {
  return {
    text: `update snapshot set status = 'failed', error = ?, verification_reason = ?, completed_at = now(), updated_at = now() where id = ? and status in ('queued', 'running')`,
    values: [error, verificationReason, id],
  };
}

export function recordVerification(ownerId: string, id: string, reason: string | null): SqlStatement {
  return {
    text: `update snapshot set verification_reason = ?, verified_at = case when ?::text is null then now() else verified_at end, updated_at = now() where owner_id = ? and id = ? returning ${SNAPSHOT_COLUMNS}`,
    values: [reason, reason, ownerId, id],
  };
}

/** A restore that has not finished may still read the archive (a paused or queued one too). */
const RESTORE_UNFINISHED = `select 1 from migration_job j where j.source_snapshot_id = snapshot.id and j.status not in ('completed', 'failed', 'cancelled')`;

/** Deletes a snapshot that is neither being taken nor being restored. */
export function deleteSnapshot(ownerId: string, id: string): SqlStatement {
  return { text: `delete from snapshot where owner_id = ? and id = ? and status not in ('queued', 'running') and not exists (${RESTORE_UNFINISHED}) returning id, archive_path`, values: [ownerId, id] };
}

/** The unfinished restore of a snapshot, if any (why a delete was refused). */
export function selectUnfinishedRestore(id: string): SqlStatement {
  return { text: `select j.id from migration_job j where j.source_snapshot_id = ? and j.status not in ('completed', 'failed', 'cancelled') limit 1`, values: [id] };
}

/**
 * Running snapshots whose worker stopped heartbeating (a crash, a SIGKILL): failed, so that nobody
 * waits on them and their temporary file may go.
 */
export function failStaleSnapshots(staleSeconds: number): SqlStatement {
  return {
    text: `update snapshot set status = 'failed', error = 'The engine stopped while this snapshot was being taken; nothing of it was kept. Take it again.', completed_at = now(), updated_at = now()
           where status = 'running' and updated_at < now() - make_interval(secs => ?) returning id`,
    values: [staleSeconds],
  };
}

/** What reconciliation needs to know of the files: every archive a row names, and which rows still run. */
export function selectArchiveFacts(): SqlStatement {
  return { text: 'select id, status, archive_path from snapshot', values: [] };
}

/** Rows whose archive file reconciliation did not find: shown as missing (their downloads are refused). */
export function markArchivesMissing(ids: readonly string[]): SqlStatement {
  return { text: `update snapshot set verification_reason = 'archive_missing', updated_at = now() where id in (select (jsonb_array_elements_text(?::jsonb))::uuid) and archive_path is not null returning id`, values: [JSON.stringify(ids)] };
}

/**
 * The automatic profile of an owner's account for one origin, made on first use with its default
 * retention; later uses replace only its selection (what the next automatic snapshot takes), so a
 * retention the owner changed stays.
 */
export function upsertAutomaticProfile(ownerId: string, accountId: string, origin: string, name: string, selection: unknown, retention: unknown): SqlStatement {
  return {
    text: `insert into snapshot_profile (owner_id, name, selection, retention, automatic_origin, automatic_account_id) values (?, ?, ?::jsonb, ?::jsonb, ?, ?)
           on conflict (owner_id, automatic_account_id, automatic_origin) do update set selection = excluded.selection, updated_at = now()
           returning ${PROFILE_COLUMNS}`,
    values: [ownerId, name, json(selection), json(retention), origin, accountId],
  };
}
