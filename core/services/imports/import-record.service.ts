import { randomUUID } from 'node:crypto';
import type { Playlist } from '@opl/plugin-sdk';
import {
  claimImportRecord,
  deleteExpiredImportRecords,
  deleteImportRecordOfJob,
  deleteUnqueuedImportRecord,
  insertImportRecord,
  retainImportRecord,
  selectImportRecord,
  selectImportRecordState,
  selectOpenImportRecords,
  type SqlStatement,
} from './import-record.sql.ts';
import { compactPlaylists, expandPlaylists } from './stored-playlists.ts';

export type SqlExecutor = (statement: SqlStatement) => Promise<Record<string, unknown>[]>;

export type ImportKind = 'file' | 'text' | 'url';
export type ImportState = 'previewed' | 'queued' | 'retained';

/** One line-level problem found while reading an import. */
export interface ImportIssue {
  line: number | null;
  column: number | null;
  code: string;
  message: string;
  severity: 'error' | 'warning';
}

export interface ImportRecordSummary {
  id: string;
  ownerId: string;
  kind: ImportKind;
  name: string | null;
  format: string | null;
  state: ImportState;
  jobId: string | null;
  expiresAt: Date;
  graceUntil: Date | null;
  createdAt: Date;
}

export interface ImportRecordContents extends ImportRecordSummary {
  playlists: Playlist[];
  issues: ImportIssue[];
}

/** A record in an owner's list: its summary and how much it holds. */
export interface ImportRecordListEntry extends ImportRecordSummary {
  playlistCount: number;
  trackCount: number;
}

export interface NewImportRecord {
  ownerId: string;
  kind: ImportKind;
  name: string | null;
  format: string | null;
  playlists: readonly Playlist[];
  issues: readonly ImportIssue[];
}

/** Why an import record cannot be used; the HTTP layer maps each onto its status. */
export class ImportRecordError extends Error {
  readonly reason: 'not_found' | 'expired' | 'queued';
  constructor(reason: 'not_found' | 'expired' | 'queued', message: string) {
    super(message);
    this.name = 'ImportRecordError';
    this.reason = reason;
  }
}

/** The stored playlists would be larger than the caller allows (`create`'s `maxStoredChars`); nothing was stored. */
export class ImportRecordTooLargeError extends Error {
  /** Characters of the stored playlists' JSON; null when it is too long to be one string at all. */
  readonly storedChars: number | null;
  readonly maxStoredChars: number;
  constructor(storedChars: number | null, maxStoredChars: number) {
    super(`the import record would hold ${storedChars ?? 'more than a string can'} characters of playlists; at most ${maxStoredChars} are kept`);
    this.name = 'ImportRecordTooLargeError';
    this.storedChars = storedChars;
    this.maxStoredChars = maxStoredChars;
  }
}

export interface CreateImportRecordOptions {
  /** Longest JSON of the stored (compact) playlists, in characters; larger throws `ImportRecordTooLargeError`. */
  maxStoredChars?: number;
}

/** How many issues a record keeps; more are summarised by the count. */
export const MAX_STORED_ISSUES = 200;

function toDate(value: unknown): Date {
  return value instanceof Date ? value : new Date(String(value));
}

function summaryOf(row: Record<string, unknown>): ImportRecordSummary {
  return {
    id: String(row.id),
    ownerId: String(row.owner_id),
    kind: row.kind as ImportKind,
    name: (row.source_label as string | null) ?? null,
    format: (row.format as string | null) ?? null,
    state: row.state as ImportState,
    jobId: (row.job_id as string | null) ?? null,
    expiresAt: toDate(row.expires_at),
    graceUntil: row.grace_until === null || row.grace_until === undefined ? null : toDate(row.grace_until),
    createdAt: toDate(row.created_at),
  };
}

function jsonArray<T>(value: unknown): T[] {
  if (typeof value === 'string') return JSON.parse(value) as T[];
  return Array.isArray(value) ? (value as T[]) : [];
}

/**
 * Import records: the private, expiring, normalised result of a file, text or URL preview. They
 * hold only Playlist/Track JSON and bounded issues — never the uploaded bytes. Every read and
 * write is scoped by owner, so another owner's record is indistinguishable from a missing one.
 */
export class ImportRecordService {
  readonly #execute: SqlExecutor;
  readonly #ttlMs: number;

  constructor(options: { execute: SqlExecutor; ttlHours: number }) {
    this.#execute = options.execute;
    this.#ttlMs = options.ttlHours * 3_600_000;
  }

  async create(record: NewImportRecord, options: CreateImportRecordOptions = {}): Promise<ImportRecordContents> {
    const issues = record.issues.slice(0, MAX_STORED_ISSUES);
    const { maxStoredChars } = options;
    let playlistsJson: string;
    try {
      playlistsJson = JSON.stringify(compactPlaylists(record.playlists));
    } catch (error) {
      // Longer than a V8 string can be (about 536 million characters).
      if (maxStoredChars !== undefined && error instanceof RangeError) throw new ImportRecordTooLargeError(null, maxStoredChars);
      throw error;
    }
    if (maxStoredChars !== undefined && playlistsJson.length > maxStoredChars) throw new ImportRecordTooLargeError(playlistsJson.length, maxStoredChars);
    const rows = await this.#execute(
      insertImportRecord({
        id: randomUUID(),
        ownerId: record.ownerId,
        kind: record.kind,
        sourceLabel: record.name,
        format: record.format,
        playlistsJson,
        playlistCount: record.playlists.length,
        trackCount: record.playlists.reduce((sum, playlist) => sum + playlist.tracks.length, 0),
        issues,
        expiresAt: new Date(Date.now() + this.#ttlMs),
      }),
    );
    return { ...summaryOf(rows[0]!), playlists: [...record.playlists], issues };
  }

  /** The record with its contents. Throws `not_found` (absent or another owner's) or `expired`. */
  async get(ownerId: string, id: string): Promise<ImportRecordContents> {
    const rows = await this.#execute(selectImportRecord(ownerId, id));
    const row = rows[0];
    if (!row) throw new ImportRecordError('not_found', `No import ${id} exists for this owner.`);
    if (row.expired === true && row.state !== 'queued') {
      throw new ImportRecordError('expired', `Import ${id} expired at ${toDate(row.expires_at).toISOString()}; preview the source again.`);
    }
    return { ...summaryOf(row), playlists: expandPlaylists(jsonArray<unknown>(row.playlists)), issues: jsonArray<ImportIssue>(row.issues) };
  }

  /** The owner's records a migration can still start from (newest first, at most `limit`). */
  async list(ownerId: string, limit = 100): Promise<ImportRecordListEntry[]> {
    const rows = await this.#execute(selectOpenImportRecords(ownerId, limit));
    return rows.map((row) => ({ ...summaryOf(row), playlistCount: Number(row.playlist_count), trackCount: Number(row.track_count) }));
  }

  /** Deletes a record. Throws `not_found`, or `queued` while a migration holds it. */
  async delete(ownerId: string, id: string): Promise<void> {
    if ((await this.#execute(deleteUnqueuedImportRecord(ownerId, id))).length > 0) return;
    const state = (await this.#execute(selectImportRecordState(ownerId, id)))[0];
    if (!state) throw new ImportRecordError('not_found', `No import ${id} exists for this owner.`);
    throw new ImportRecordError('queued', `Import ${id} is queued as the source of a migration; it is removed when that migration succeeds.`);
  }

  /** Atomically queues a live record as the source of a migration job. */
  async claimForJob(ownerId: string, id: string, jobId: string): Promise<void> {
    if ((await this.#execute(claimImportRecord(ownerId, id, jobId))).length > 0) return;
    const state = (await this.#execute(selectImportRecordState(ownerId, id)))[0];
    if (!state) throw new ImportRecordError('not_found', `No import ${id} exists for this owner.`);
    if (state.state === 'queued') throw new ImportRecordError('queued', `Import ${id} is already queued as the source of a migration.`);
    throw new ImportRecordError('expired', `Import ${id} has expired; preview the source again.`);
  }

  /** The job finished well: its source record goes. */
  async completeJob(jobId: string): Promise<void> {
    await this.#execute(deleteImportRecordOfJob(jobId));
  }

  /** The job failed: its record stays (no longer queued) for `graceHours`, then cleanup takes it. */
  async releaseFailedJob(jobId: string, graceHours: number): Promise<void> {
    await this.#execute(retainImportRecord(jobId, new Date(Date.now() + graceHours * 3_600_000)));
  }

  /** Deletes up to `batchSize` expired, unqueued records; returns how many went. */
  async purgeExpired(batchSize: number): Promise<number> {
    return (await this.#execute(deleteExpiredImportRecords(batchSize))).length;
  }
}
