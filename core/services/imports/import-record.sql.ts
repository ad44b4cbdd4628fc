/** SQL of the import-record store, as pure functions so each statement can be read and tested alone. */
export interface SqlStatement {
  text: string;
  values: unknown[];
}

export interface NewImportRecordRow {
  id: string;
  ownerId: string;
  kind: 'file' | 'text' | 'url';
  sourceLabel: string | null;
  format: string | null;
  /** The playlists as stored (compactPlaylists), as JSON text: the caller has measured it. */
  playlistsJson: string;
  playlistCount: number;
  trackCount: number;
  issues: unknown[];
  expiresAt: Date;
}

const COLUMNS = 'id, owner_id, kind, source_label, format, state, job_id, expires_at, grace_until, created_at, updated_at';

export function insertImportRecord(row: NewImportRecordRow): SqlStatement {
  return {
    text:
      'insert into import_record (id, owner_id, kind, source_label, format, playlists, playlist_count, track_count, issues, state, expires_at, created_at, updated_at) ' +
      `values (?, ?, ?, ?, ?, ?::json, ?, ?, ?::jsonb, 'previewed', ?, now(), now()) returning ${COLUMNS}`,
    values: [row.id, row.ownerId, row.kind, row.sourceLabel, row.format, row.playlistsJson, row.playlistCount, row.trackCount, JSON.stringify(row.issues), row.expiresAt],
  };
}

/** One record of one owner, with its contents; another owner's record reads as absent. */
export function selectImportRecord(ownerId: string, id: string): SqlStatement {
  return {
    text: `select ${COLUMNS}, playlists, issues, expires_at <= now() as expired from import_record where id = ? and owner_id = ?`,
    values: [id, ownerId],
  };
}

/**
 * An owner's records a migration can still use (not expired, not held by a queued migration),
 * newest first, with their playlist and track counts but without the contents themselves.
 */
export function selectOpenImportRecords(ownerId: string, limit: number): SqlStatement {
  return {
    text:
      `select ${COLUMNS}, playlist_count, track_count ` +
      "from import_record where owner_id = ? and state <> 'queued' and expires_at > now() order by created_at desc, id limit ?",
    values: [ownerId, limit],
  };
}

/** The state of one record of one owner, without its (possibly large) contents. */
export function selectImportRecordState(ownerId: string, id: string): SqlStatement {
  return { text: 'select state, expires_at <= now() as expired from import_record where id = ? and owner_id = ?', values: [id, ownerId] };
}

/** Deletes a record unless a migration has queued it; returns the id when it went. */
export function deleteUnqueuedImportRecord(ownerId: string, id: string): SqlStatement {
  return {
    text: "delete from import_record where id = ? and owner_id = ? and state <> 'queued' returning id",
    values: [id, ownerId],
  };
}

/**
 * Atomically claims a live, unclaimed record for a migration job: the one statement a migration
 * runs, so two jobs can never queue the same record. Returns the id when the claim succeeded.
 */
export function claimImportRecord(ownerId: string, id: string, jobId: string): SqlStatement {
  return {
    text:
      "update import_record set state = 'queued', job_id = ?, grace_until = null, updated_at = now() " +
      "where id = ? and owner_id = ? and state <> 'queued' and expires_at > now() returning id",
    values: [jobId, id, ownerId],
  };
}

/** A failed job releases its record and keeps it for a grace period before cleanup. */
export function retainImportRecord(jobId: string, graceUntil: Date): SqlStatement {
  return {
    text: "update import_record set state = 'retained', grace_until = ?, expires_at = greatest(expires_at, ?), updated_at = now() where job_id = ? returning id",
    values: [graceUntil, graceUntil, jobId],
  };
}

/** A successful job deletes the record it read. */
export function deleteImportRecordOfJob(jobId: string): SqlStatement {
  return { text: 'delete from import_record where job_id = ? returning id', values: [jobId] };
}

/**
 * Up to `limit` expired records that no job holds. A queued record belongs to its running job,
 * which deletes or retains it; cleanup never pulls it from under the worker.
 */
export function deleteExpiredImportRecords(limit: number): SqlStatement {
  return {
    text:
      'delete from import_record where id in (' +
      "select id from import_record where expires_at <= now() and state <> 'queued' order by expires_at limit ? for update skip locked" +
      ') returning id',
    values: [limit],
  };
}
