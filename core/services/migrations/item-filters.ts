import { z } from 'zod';
import { ENTITY_TYPES, ITEM_STATUSES } from '../../storage/entities/values.ts';
import { ITEM_COLUMNS, type SqlStatement } from './migration-jobs.sql.ts';

/**
 * The filters of `GET /api/migrations/{id}/items` and of the report: one parser and one SQL
 * builder, so both always select the same rows in the same order (type, collection or entity
 * name, position).
 */

const repeatable = <T extends z.ZodType>(item: T) => z.union([item, z.array(item)]).transform((value) => (Array.isArray(value) ? value : [value]) as z.output<T>[]);
const confidence = z.coerce.number().min(0).max(1);
const bool = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

export const itemFilterSchema = z.object({
  source_playlist_id: z.string().min(1).max(500).optional(),
  entity_type: repeatable(z.enum(ENTITY_TYPES)).optional(),
  status: repeatable(z.enum(ITEM_STATUSES)).optional(),
  min_confidence: confidence.optional(),
  max_confidence: confidence.optional(),
  reason: z.string().min(1).max(500).optional(),
  title: z.string().min(1).max(500).optional(),
  artist: z.string().min(1).max(500).optional(),
  problem_only: bool.optional(),
});

export const pagingSchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).optional(),
  offset: z.coerce.number().int().min(0).max(10_000_000).optional(),
});

export type ItemFilter = z.output<typeof itemFilterSchema>;

export const PROBLEM_STATUSES = ['needs_review', 'skipped', 'failed'] as const;

/** `%`, `_` and `\` match themselves: the filters are literal substrings. */
function literal(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function filterWhere(jobId: string, filter: ItemFilter): SqlStatement {
  const clauses = ['job_id = ?'];
  const values: unknown[] = [jobId];
  if (filter.source_playlist_id !== undefined) {
    clauses.push('source_playlist_id = ?');
    values.push(filter.source_playlist_id);
  }
  if (filter.entity_type?.length) {
    clauses.push('entity_type in (select jsonb_array_elements_text(?::jsonb))');
    values.push(JSON.stringify(filter.entity_type));
  }
  if (filter.status?.length) {
    clauses.push('status in (select jsonb_array_elements_text(?::jsonb))');
    values.push(JSON.stringify(filter.status));
  }
  if (filter.problem_only) {
    clauses.push('status in (select jsonb_array_elements_text(?::jsonb))');
    values.push(JSON.stringify(PROBLEM_STATUSES));
  }
  if (filter.min_confidence !== undefined) {
    clauses.push('confidence >= ?');
    values.push(filter.min_confidence);
  }
  if (filter.max_confidence !== undefined) {
    clauses.push('confidence <= ?');
    values.push(filter.max_confidence);
  }
  for (const column of ['reason', 'title', 'artist'] as const) {
    const text = filter[column];
    if (text === undefined) continue;
    clauses.push(`${column} ilike ? escape '\\'`);
    values.push(literal(text));
  }
  return { text: clauses.join(' and '), values };
}

/** Type (tracks, albums, artists), then collection or entity name, then position. */
export const ITEM_ORDER = `case entity_type when 'track' then 0 when 'album' then 1 else 2 end,
  coalesce(source_playlist_name, source_entity_name, title), source_playlist_id nulls first, position nulls last, id`;

export function selectFilteredItems(jobId: string, filter: ItemFilter, paging: { limit?: number; offset?: number }): SqlStatement {
  const where = filterWhere(jobId, filter);
  const page = paging.limit !== undefined || paging.offset !== undefined ? ` limit ${paging.limit ?? 500} offset ${paging.offset ?? 0}` : '';
  return { text: `select ${ITEM_COLUMNS} from job_item where ${where.text} order by ${ITEM_ORDER}${page}`, values: where.values };
}

export function countFilteredItems(jobId: string, filter: ItemFilter): SqlStatement {
  const where = filterWhere(jobId, filter);
  return { text: `select count(*)::int as n from job_item where ${where.text}`, values: where.values };
}
