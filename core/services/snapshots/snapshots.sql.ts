import type { SqlStatement } from '../../storage/sql/executors.ts';

/**
 * SQL of snapshot profiles and snapshots: pure functions returning `{text, values}`. Every
 * statement names the owner, so another owner's id finds nothing.
 */

export const PROFILE_COLUMNS = 'id, owner_id, name, selection, library_id, created_at, updated_at';
export const SNAPSHOT_COLUMNS = `id, owner_id, profile_id, library_id, status, origin, archive_path, archive_sha256, archive_bytes, schema_version,
  counts, progress, manifest, error, verification_reason, verified_at, started_at, completed_at, created_at, updated_at`;

export function insertProfile(ownerId: string, name: string, selection: unknown): SqlStatement {
  return { text: `insert into snapshot_profile (owner_id, name, selection) values (?, ?, ?::jsonb) returning ${PROFILE_COLUMNS}`, values: [ownerId, name, JSON.stringify(selection)] };
}

export function updateProfile(ownerId: string, id: string, name: string, selection: unknown): SqlStatement {
  return {
    text: `update snapshot_profile set name = ?, selection = ?::jsonb, updated_at = now() where owner_id = ? and id = ? returning ${PROFILE_COLUMNS}`,
    values: [name, JSON.stringify(selection), ownerId, id],
  };
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

export function insertUploadedSnapshot(row: { id: string; ownerId: string; libraryId: string; status: 'completed' | 'partial'; archivePath: string; sha256: string; bytes: number; manifest: unknown; counts: unknown }): SqlStatement {
  return {
    text: `insert into snapshot (id, owner_id, library_id, status, origin, archive_path, archive_sha256, archive_bytes, schema_version, counts, manifest, verified_at, started_at, completed_at)
           values (?, ?, ?, ?, 'uploaded', ?, ?, ?, 1, ?::jsonb, ?::jsonb, now(), now(), now()) on conflict (id) do nothing returning ${SNAPSHOT_COLUMNS}`,
    values: [row.id, row.ownerId, row.libraryId, row.status, row.archivePath, row.sha256, row.bytes, JSON.stringify(row.counts), JSON.stringify(row.manifest)],
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

export function deleteSnapshot(ownerId: string, id: string): SqlStatement {
  return { text: "delete from snapshot where owner_id = ? and id = ? and status not in ('queued', 'running') returning id, archive_path", values: [ownerId, id] };
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
