import pg from 'pg';
import { filterWhere, ITEM_ORDER, type ItemFilter } from './item-filters.ts';
import { ITEM_COLUMNS } from './migration-jobs.sql.ts';
import { itemView, type JobRow } from './migration-views.ts';

/**
 * The migration report (schema version 2): one row per ledger item with the job's facts repeated,
 * streamed straight from a database cursor in batches — never built in memory, never stored.
 * CSV: UTF-8 with a byte-order mark, every field quoted, formula-looking text defused with an
 * apostrophe, structured fields as compact JSON. JSON: one object with report, job and filter
 * metadata and an `items` array, written as it is read.
 */

export const REPORT_VERSION = 2;

export const REPORT_FIELDS = [
  'report_version', 'job_id', 'job_status', 'job_outcome', 'job_error', 'job_warnings', 'job_created_at', 'job_started_at', 'job_completed_at',
  'detail_expires_at', 'source_provider', 'source_account_id', 'target_provider', 'target_account_id', 'item_id', 'entity_type', 'source_entity_id',
  'source_entity_name', 'target_entity_id', 'source_playlist_id', 'source_playlist_name', 'target_playlist_id', 'position', 'title', 'artist', 'album',
  'duration_s', 'release_year', 'explicit', 'isrc', 'source_track_id', 'source_item_id', 'source_uri', 'source_metadata', 'target_uri', 'target_id',
  'confidence', 'status', 'reason', 'review_action', 'review_original_status', 'review_original_reason', 'reviewed_at', 'item_created_at', 'item_updated_at',
] as const;

export type ReportRow = Record<(typeof REPORT_FIELDS)[number], unknown>;

export function reportRow(job: JobRow, row: Record<string, unknown>): ReportRow {
  const item = itemView(row);
  const metadata = item.source_metadata;
  return {
    report_version: REPORT_VERSION,
    job_id: job.id,
    job_status: job.status,
    job_outcome: job.outcome,
    job_error: job.error,
    job_warnings: job.acknowledgedWarnings,
    job_created_at: job.createdAt,
    job_started_at: job.startedAt,
    job_completed_at: job.completedAt,
    detail_expires_at: job.detailExpiresAt,
    source_provider: job.sourceProvider,
    source_account_id: job.sourceAccountId,
    target_provider: job.targetProvider,
    target_account_id: job.targetAccountId,
    item_id: item.id,
    entity_type: item.entity_type,
    source_entity_id: item.source_entity_id ?? (item.entity_type === 'track' ? ((metadata['id']) ?? null) : null),
    source_entity_name: item.source_entity_name,
    target_entity_id: item.target_entity_id,
    source_playlist_id: item.entity_type === 'track' ? item.source_playlist_id : null,
    source_playlist_name: item.entity_type === 'track' ? item.source_playlist_name : null,
    target_playlist_id: item.entity_type === 'track' ? item.target_playlist_id : null,
    position: item.position,
    title: item.title,
    artist: item.artist,
    album: item.entity_type === 'track' ? item.album : null,
    duration_s: item.duration_s,
    release_year: item.release_year,
    explicit: item.explicit,
    isrc: item.isrc,
    source_track_id: item.entity_type === 'track' ? item.source_track_id : null,
    source_item_id: item.source_item_id,
    source_uri: item.source_uri,
    source_metadata: metadata,
    target_uri: item.target_uri,
    target_id: item.target_id,
    confidence: item.confidence,
    status: item.status,
    reason: item.reason,
    review_action: item.review_action,
    review_original_status: item.review_original_status,
    review_original_reason: item.review_original_reason,
    reviewed_at: item.reviewed_at,
    item_created_at: item.created_at,
    item_updated_at: item.updated_at,
  };
}

const FORMULA_START = /^[=+\-@]/;

/** One CSV field: always quoted, quotes doubled, formula-looking text prefixed with an apostrophe. */
export function csvField(value: unknown): string {
  let text = value === null || value === undefined ? '' : typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

export function csvLine(values: readonly unknown[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/** `?` placeholders to PostgreSQL's `$n` (the statements here have no `?` inside literals). */
function numbered(text: string): string {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}

/** The job's items matching the filter, in report order, from a server-side cursor in batches. */
export async function* cursorRows(connectionString: string, jobId: string, filter: ItemFilter, batchSize: number): AsyncGenerator<Record<string, unknown>> {
  const client = new pg.Client({ connectionString, application_name: 'opl-report' });
  await client.connect();
  try {
    await client.query('begin transaction isolation level repeatable read read only');
    const where = filterWhere(jobId, filter);
    await client.query(numbered(`declare report_rows no scroll cursor for select ${ITEM_COLUMNS} from job_item where ${where.text} order by ${ITEM_ORDER}`), where.values);
    for (;;) {
      const { rows } = await client.query<Record<string, unknown>>(`fetch forward ${Math.max(1, Math.floor(batchSize))} from report_rows`);
      if (rows.length === 0) break;
      for (const row of rows) yield row;
    }
    await client.query('commit');
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function* csvReport(job: JobRow, rows: AsyncIterable<Record<string, unknown>>): AsyncGenerator<string> {
  yield `\uFEFF${csvLine(REPORT_FIELDS)}`;
  for await (const row of rows) {
    const report = reportRow(job, row);
    yield csvLine(REPORT_FIELDS.map((field) => report[field]));
  }
}

export async function* jsonReport(job: JobRow, filter: ItemFilter & { scope: string }, rows: AsyncIterable<Record<string, unknown>>): AsyncGenerator<string> {
  const head = {
    report_version: REPORT_VERSION,
    generated_at: new Date().toISOString(),
    job: { id: job.id, status: job.status, outcome: job.outcome, error: job.error, warnings: job.acknowledgedWarnings, created_at: job.createdAt, started_at: job.startedAt, completed_at: job.completedAt, detail_expires_at: job.detailExpiresAt, source_provider: job.sourceProvider, source_account_id: job.sourceAccountId, target_provider: job.targetProvider, target_account_id: job.targetAccountId },
    filters: filter,
  };
  const text = JSON.stringify(head);
  yield `${text.slice(0, -1)},"items":[`;
  let first = true;
  for await (const row of rows) {
    yield `${first ? '' : ','}${JSON.stringify(reportRow(job, row))}`;
    first = false;
  }
  yield ']}';
}
