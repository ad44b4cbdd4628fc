import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ImportRecordError } from '../../services/imports/index.ts';
import {
  createMigrationSchema,
  csvReport,
  cursorRows,
  eventsAfter,
  itemFilterSchema,
  jsonReport,
  MigrationError,
  pagingSchema,
  type MigrationEngine,
} from '../../services/migrations/index.ts';
import { AppError, PROBLEM_CONTENT_TYPE, problemResponse, problemSchema } from '../errors/index.ts';
import { requireActor } from '../owner/owner-gate.ts';
import { OpenEventStreams, streamRowEvents } from '../row-event-stream.ts';
import { providerProblem } from './provider-problems.ts';

/**
 * `/api/migrations`: preflight and start migrations, follow them live (server-sent events), review
 * low-confidence matches, resume or cancel, and read the history: items with filters, aggregate
 * statistics and streamed reports.
 */

export type MigrationsApi = Pick<MigrationEngine, 'service' | 'progress' | 'store' | 'connectionString'> & { reportBatchSize: number };

const countsSchema = z.object({ total: z.number(), pending: z.number(), matched: z.number(), needs_review: z.number(), written: z.number(), skipped: z.number(), failed: z.number() }).meta({ id: 'StatusCounts' });

export const jobViewSchema = z
  .looseObject({
    id: z.string(),
    label: z.string(),
    status: z.enum(['queued', 'running', 'awaiting_review', 'paused', 'completed', 'failed', 'cancelled']).describe('Persisted worker status; `paused` waits for a reconnect (`error_code` auth_expired) or a quota reset (`resume_at`)'),
    outcome: z.enum(['pending', 'running', 'completed', 'partial', 'failed']),
    phase: z.string(),
    source_kind: z.string(),
    origin: z.enum(['user', 'sync']).describe('`sync`: a run of a sync rule made this job (`sync_run_id`)'),
    sync_run_id: z.string().nullable(),
    source_provider: z.string(),
    source_account_id: z.string(),
    target_provider: z.string(),
    target_account_id: z.string(),
    strictness: z.string(),
    collections: z.array(z.object({ id: z.string(), name: z.string(), kind: z.string(), target_playlist_id: z.string().nullable() })),
    warnings: z.array(z.unknown()),
    acknowledged_warnings: z.array(z.unknown()),
    error: z.string().nullable(),
    error_code: z.string().nullable(),
    resume_at: z.string().nullable(),
    created_at: z.string(),
    started_at: z.string().nullable(),
    completed_at: z.string().nullable(),
    detail_expires_at: z.string().nullable(),
    detail_available: z.boolean(),
    total: z.number(),
    done: z.number(),
    failed: z.number(),
    counts: countsSchema,
    entity_counts: z.record(z.string(), countsSchema),
  })
  .meta({ id: 'MigrationJob' });

const itemViewSchema = z
  .looseObject({
    id: z.string(),
    entity_type: z.enum(['track', 'album', 'artist']),
    status: z.enum(['pending', 'matched', 'needs_review', 'written', 'skipped', 'failed']),
    source_playlist_id: z.string().nullable(),
    source_playlist_name: z.string().nullable(),
    target_playlist_id: z.string().nullable(),
    position: z.number().nullable(),
    title: z.string(),
    artist: z.string(),
    album: z.string().nullable(),
    confidence: z.number().nullable(),
    reason: z.string().nullable(),
    target_uri: z.string().nullable(),
    candidates: z.array(z.unknown()).describe('Ranked target candidates (uri, title, artist, score, reason) for review'),
  })
  .meta({ id: 'MigrationItem' });

/**
 * A preflight warning. Its fields besides `code` and `message` are the parameters the message was
 * written from, and they are strings as in the reference API (its MigrationWarningsView types a
 * warning as an object of strings): numbers come as decimal strings (`"seconds": "3"`).
 */
const templateParameter = (what: string) => z.string().optional().describe(`${what}. A message parameter, so a string (a number is written in decimal, e.g. "120")`);
export const migrationWarningSchema = z
  .object({
    code: z.string().describe('too_many_playlists, too_many_tracks, daily_target_limit, jobs_too_close, same_name_different_songs, quota_limited or links_for_another_service'),
    message: z.string().describe('The warning in words, its parameters filled in'),
    count: templateParameter('too_many_playlists, too_many_tracks, daily_target_limit, links_for_another_service: how many playlists or tracks'),
    limit: templateParameter('too_many_playlists, too_many_tracks, daily_target_limit, jobs_too_close: the safe default exceeded (per job, per day, or seconds between jobs)'),
    seconds: templateParameter('jobs_too_close: whole seconds since the previous migration started'),
    playlist: z.string().optional().describe('same_name_different_songs: the playlist name'),
    target_playlist_id: z.string().optional().describe('same_name_different_songs: the existing target playlist'),
    fit_today: templateParameter("quota_limited: about how many more songs the provider's daily quota allows today"),
    resets_at: z.string().optional().describe('quota_limited: when the quota resets (ISO 8601), when the provider says'),
    providers: z.string().optional().describe('links_for_another_service: the services the links name, comma-separated without spaces (the target cannot be searched for songs that are only such links)'),
  })
  .catchall(z.string())
  .meta({
    id: 'MigrationWarning',
    description:
      'A preflight warning to acknowledge. Every field is a string, as in the reference API (an object of strings): besides `code` and `message`, the fields are the parameters the message was written from, so numbers come as decimal strings (`"seconds": "3"`, `"limit": "120"`).',
  });
const summarySchema = z.object({ playlists: z.number(), tracks: z.number(), saved_albums: z.number(), followed_artists: z.number(), unsupported: z.number() });

/** The 409 of a start refused by the preflight: problem+json with the summary and the warnings to acknowledge. */
const migrationWarningsProblemSchema = problemSchema
  .extend({
    summary: summarySchema.optional().describe('`migration_warnings`: what the migration would move'),
    warnings: z.array(migrationWarningSchema).optional().describe('`migration_warnings`: the warnings to acknowledge (resend with `acknowledge_warnings: true`)'),
  })
  .meta({ id: 'MigrationWarningsProblem' });

/** A 409 response whose `migration_warnings` body is described field by field. */
export function migrationWarningsResponse(description: string) {
  return { description, content: { [PROBLEM_CONTENT_TYPE]: { schema: migrationWarningsProblemSchema } } };
}
const preflightSchema = z
  .object({
    code: z.enum(['migration_warnings', 'ok']),
    message: z.string(),
    summary: summarySchema,
    warnings: z.array(migrationWarningSchema),
    collections: z.array(z.object({ id: z.string(), name: z.string(), kind: z.string(), tracks: z.number(), selected_tracks: z.number() })),
  })
  .meta({ id: 'MigrationPreflight' });

const jobParams = z.object({ job_id: z.uuid() });
const reviewBody = z.object({ action: z.enum(['approve', 'skip']), target_uri: z.string().min(1).max(2_000).nullable().optional() }).strict();
const batchReviewBody = z.object({ action: z.enum(['approve', 'skip']), item_ids: z.array(z.uuid()).max(10_000).default([]) }).strict();
const reportQuery = itemFilterSchema.extend({ format: z.enum(['csv', 'json']).default('csv'), scope: z.enum(['all', 'problems']).default('all') });

export function toAppError(error: unknown): unknown {
  if (error instanceof MigrationError) {
    if (error.code === 'migration_warnings') return new AppError('migration_warnings', error.message, { extensions: error.extensions });
    return new AppError(error.code, error.message, { extensions: error.extensions });
  }
  if (error instanceof ImportRecordError) {
    if (error.reason === 'not_found') return new AppError('not_found', error.message);
    if (error.reason === 'expired') return new AppError('gone', error.message);
    return new AppError('conflict', error.message);
  }
  return providerProblem(error);
}

async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toAppError(error);
  }
}

export const migrationRoutes: FastifyPluginAsyncZod<{ migrations: MigrationsApi }> = async (app, { migrations }) => {
  const { service } = migrations;
  // Hijacked event streams are not fastify's to end: close them when the server closes, or
  // shutdown would wait for every open browser tab.
  const openStreams = new OpenEventStreams();
  app.addHook('preClose', async () => openStreams.endAll());

  app.post(
    '/api/migrations/preflight',
    {
      config: { shareRecipients: true },
      schema: {
        tags: ['migrations'],
        summary: 'What a migration would do: selection summary and warnings, without starting it',
        body: createMigrationSchema,
        response: { 200: preflightSchema, 404: problemResponse('No such account or import'), 422: problemResponse('unsupported_target_type or invalid_selection') },
      },
    },
    async (request) => guarded(() => service.preflight(requireActor(request, 'plan migrations').id, request.body)),
  );

  app.post(
    '/api/migrations',
    {
      config: { shareRecipients: true },
      schema: {
        tags: ['migrations'],
        summary: 'Start a migration (source account or import → target account)',
        description:
          'Runs the preflight first. Exceeding the safe defaults (1 playlist, 50 selected tracks per job, 250 target tracks per day, 120 s between jobs), a same-name target playlist with completely different songs, a provider quota too small for today, or selected songs that are only links to another service (nothing to search the target by) answer 409 `migration_warnings` with `summary` and `warnings`; resubmit with `acknowledge_warnings: true` to start anyway (the acknowledged warnings are stored with the job). A target that cannot receive a selected entity type answers 422 `unsupported_target_type`. Hosted instances without user authentication answer 403.',
        body: createMigrationSchema,
        response: {
          202: jobViewSchema,
          404: problemResponse('No such account or import'),
          409: migrationWarningsResponse('migration_warnings: `summary` and `warnings` (MigrationWarning: string parameters) to acknowledge; or the import is already queued (`conflict`)'),
          410: problemResponse('The import expired'),
          422: problemResponse('unsupported_target_type (`unsupported`) or invalid_selection'),
        },
      },
    },
    async (request, reply) => {
      const owner = requireActor(request, 'start migrations');
      const job = await guarded(() => service.create(owner.id, request.body));
      return reply.status(202).header('location', `/api/migrations/${job.id}`).send(job);
    },
  );

  app.get(
    '/api/migrations',
    {
      config: { shareRecipients: true },
      schema: {
        tags: ['migrations'],
        summary: 'Migration history, newest first',
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(200).default(50), offset: z.coerce.number().int().min(0).default(0) }),
        response: { 200: z.array(jobViewSchema) },
      },
    },
    async (request) => guarded(() => service.list(requireActor(request, 'read migrations').id, request.query.limit, request.query.offset)),
  );

  app.get(
    '/api/migrations/stats',
    {
      config: { shareRecipients: true },
      schema: {
        tags: ['migrations'],
        summary: 'Aggregate statistics over all migrations (optionally of one source or target provider)',
        querystring: z.object({ source_provider: z.string().max(40).optional(), target_provider: z.string().max(40).optional() }),
        response: { 200: z.looseObject({ total_migrations: z.number(), counts: countsSchema, entity_counts: z.record(z.string(), countsSchema), outcomes: z.record(z.string(), z.number()) }) },
      },
    },
    async (request) => guarded(() => service.aggregateStats(requireActor(request, 'read migrations').id, request.query.source_provider ?? null, request.query.target_provider ?? null)),
  );

  app.get(
    '/api/migrations/:job_id',
    { config: { shareRecipients: true }, schema: { tags: ['migrations'], summary: 'One migration with its counts', params: jobParams, response: { 200: jobViewSchema, 404: problemResponse('No such migration for this owner') } } },
    async (request) => guarded(() => service.get(requireActor(request, 'read migrations').id, request.params.job_id)),
  );

  app.get(
    '/api/migrations/:job_id/stats',
    {
      config: { shareRecipients: true },
      schema: {
        tags: ['migrations'],
        summary: 'Per-collection counts of one migration',
        params: jobParams,
        response: { 200: z.object({ job: jobViewSchema, collections: z.array(z.unknown()) }), 404: problemResponse('No such migration for this owner') },
      },
    },
    async (request) =>
      guarded(async () => {
        const owner = requireActor(request, 'read migrations');
        return { job: await service.get(owner.id, request.params.job_id), collections: await service.collectionStats(owner.id, request.params.job_id) };
      }),
  );

  app.get(
    '/api/migrations/:job_id/items',
    {
      config: { shareRecipients: true },
      schema: {
        tags: ['migrations'],
        summary: 'The ledger rows of a migration, ordered by type, collection or entity name, position',
        description: 'Without `limit` and `offset` the whole array returns; with them, `X-Total-Count` carries the matching total (`limit` ≤ 500). 410 after the item-detail deadline.',
        params: jobParams,
        querystring: itemFilterSchema.extend(pagingSchema.shape),
        response: { 200: z.array(itemViewSchema), 404: problemResponse('No such migration for this owner'), 410: problemResponse('Item detail expired (the summary remains)') },
      },
    },
    async (request, reply) => {
      const owner = requireActor(request, 'read migrations');
      const { limit, offset, ...filter } = request.query;
      const paging = { ...(limit !== undefined ? { limit } : {}), ...(offset !== undefined ? { offset } : {}) };
      const { items, total } = await guarded(() => service.items(owner.id, request.params.job_id, filter, paging));
      return reply.header('x-total-count', String(total)).send(items);
    },
  );

  app.post(
    '/api/migrations/:job_id/items/:item_id/review',
    {
      config: { shareRecipients: true },
      schema: {
        tags: ['migrations'],
        summary: 'Review one item: approve the suggestion, approve another candidate (`target_uri`, a correction), or skip',
        params: jobParams.extend({ item_id: z.uuid() }),
        body: reviewBody,
        response: { 200: itemViewSchema, 404: problemResponse('No such migration or item'), 409: problemResponse('The item is not waiting for review'), 422: problemResponse('The chosen target is not valid for the target provider') },
      },
    },
    async (request) => guarded(() => service.review(requireActor(request, 'review migrations').id, request.params.job_id, request.params.item_id, { action: request.body.action, target_uri: request.body.target_uri ?? null })),
  );

  app.get(
    '/api/migrations/:job_id/items/:item_id/search',
    {
      config: { shareRecipients: true },
      schema: {
        tags: ['migrations'],
        summary: "Search the target for an item waiting for review (a correction when no candidate is right); approve a result with its `uri` as `target_uri`",
        params: jobParams.extend({ item_id: z.uuid() }),
        querystring: z.object({ q: z.string().trim().min(1).max(300) }),
        response: {
          200: z.object({
            results: z.array(z.object({ id: z.string().nullable(), uri: z.string().nullable(), title: z.string(), artist: z.string(), album: z.string().nullable(), duration_s: z.number().nullable() })),
          }),
          404: problemResponse('No such migration or item'),
          409: problemResponse('The item is not waiting for review, or the target account needs reconnecting'),
          429: problemResponse('The provider asks to slow down'),
          502: problemResponse('The provider failed or could not be reached'),
        },
      },
    },
    async (request) => ({ results: await guarded(() => service.searchTarget(requireActor(request, 'review migrations').id, request.params.job_id, request.params.item_id, request.query.q)) }),
  );

  app.post(
    '/api/migrations/:job_id/items/review',
    {
      config: { shareRecipients: true },
      schema: {
        tags: ['migrations'],
        summary: 'Batch review: approve or skip the listed items (all items waiting for review when `item_ids` is empty)',
        params: jobParams,
        body: batchReviewBody,
        response: { 200: z.array(itemViewSchema), 404: problemResponse('No such migration or item') },
      },
    },
    async (request) => guarded(() => service.reviewMany(requireActor(request, 'review migrations').id, request.params.job_id, request.body.action, request.body.item_ids)),
  );

  app.post(
    '/api/migrations/:job_id/resume',
    { config: { shareRecipients: true }, schema: { tags: ['migrations'], summary: 'Resume a paused migration (after reconnecting the account)', params: jobParams, response: { 200: jobViewSchema, 404: problemResponse('No such migration'), 409: problemResponse('Not paused') } } },
    async (request) => guarded(() => service.resume(requireActor(request, 'resume migrations').id, request.params.job_id)),
  );

  app.post(
    '/api/migrations/:job_id/cancel',
    { config: { shareRecipients: true }, schema: { tags: ['migrations'], summary: 'Cancel a migration that has not finished (what was written stays)', params: jobParams, response: { 200: jobViewSchema, 404: problemResponse('No such migration'), 409: problemResponse('Already finished') } } },
    async (request) => guarded(() => service.cancel(requireActor(request, 'cancel migrations').id, request.params.job_id)),
  );

  app.get(
    '/api/migrations/:job_id/events',
    {
      config: { shareRecipients: true },
      schema: {
        tags: ['migrations'],
        summary: 'Live progress as server-sent events (`job` and `item` events); resume with Last-Event-ID',
        description: 'Each event is a persisted row change: `id` is its progress number, `event` is `job` (the job with counts) or `item` (one item). A client reconnecting with `Last-Event-ID: N` (or `?after=N`) receives every change after N. Comments (`: ping`) keep the connection alive.',
        params: jobParams,
        querystring: z.object({ after: z.coerce.number().int().min(0).optional() }),
        headers: z.looseObject({ 'last-event-id': z.string().regex(/^\d{1,18}$/).optional() }),
        response: { 200: z.string().describe('text/event-stream'), 404: problemResponse('No such migration for this owner') },
      },
    },
    async (request, reply) => {
      const owner = requireActor(request, 'follow migrations');
      await guarded(() => service.job(owner.id, request.params.job_id));
      const jobId = request.params.job_id;
      const after = Number(request.headers['last-event-id'] ?? request.query.after ?? 0);
      await streamRowEvents(
        request,
        reply,
        { eventsAfter: (last) => eventsAfter(migrations.store.execute, jobId, last), subscribe: (wake) => migrations.progress.subscribe(jobId, wake), batchSize: 500 },
        after,
        openStreams,
      );
    },
  );

  app.get(
    '/api/migrations/:job_id/report',
    {
      config: { shareRecipients: true },
      schema: {
        tags: ['migrations'],
        summary: 'The migration report (version 2), streamed as CSV or JSON; accepts every item filter',
        description: `CSV: UTF-8 with BOM, every field quoted, formula-looking text prefixed with an apostrophe, structured fields as compact JSON. JSON: an object with report, job and filter metadata and an \`items\` array. \`scope=problems\` keeps needs_review, skipped and failed items. Streamed from a database cursor in OPL_MIGRATION_REPORT_BATCH_SIZE batches; never stored.`,
        params: jobParams,
        querystring: reportQuery,
        response: { 200: z.any().describe('text/csv or application/json'), 404: problemResponse('No such migration for this owner'), 410: problemResponse('Item detail expired') },
      },
    },
    async (request, reply) => {
      const owner = requireActor(request, 'download reports');
      const job = await guarded(() => service.detailedJob(owner.id, request.params.job_id));
      const { format, scope, ...rest } = request.query;
      const filter = { ...rest, ...(scope === 'problems' ? { problem_only: true } : {}) };
      const rows = cursorRows(migrations.connectionString, job.id, filter, migrations.reportBatchSize);
      const body = format === 'csv' ? csvReport(job, rows) : jsonReport(job, { ...filter, scope }, rows);
      const name = `migration-${job.id}-report.${format}`;
      return reply
        .header('content-type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(body));
    },
  );
};

/** For building the server without a database (the OpenAPI generator): every call refuses. */
export function unavailableMigrations(): MigrationsApi {
  const refuse = () => Promise.reject(new Error('migrations are not wired in this server'));
  const refusing = <T extends object>() => new Proxy({} as T, { get: () => refuse });
  return { service: refusing(), progress: refusing(), store: refusing(), connectionString: '', reportBatchSize: 1 };
}
