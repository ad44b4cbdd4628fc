import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createRuleSchema, scheduleSchema, SYNC_EVENT_BATCH, syncEventsAfter, SyncError, updateRuleSchema, type SyncEngine } from '../../services/sync/index.ts';
import { AppError, problemResponse } from '../errors/index.ts';
import { requireOwner } from '../owner/owner-gate.ts';
import { OpenEventStreams, streamRowEvents } from '../row-event-stream.ts';
import { toAppError } from './migrations.routes.ts';

/**
 * `/api/syncs`: one-way scheduled sync rules made from a finished migration, their runs, and a
 * server-sent event stream of rule and run changes. Each run's writes are an ordinary migration
 * job (`origin` sync): its items, review, report and progress stream are the migration routes'.
 */

export type SyncApi = Pick<SyncEngine, 'rules' | 'execute' | 'events'>;

const endpointSchema = z.object({ provider: z.string(), account_id: z.string(), playlist_id: z.string() });
const runSchema = z
  .object({
    id: z.string(),
    rule_id: z.string(),
    status: z.enum(['queued', 'running', 'review_required', 'approval_required', 'completed', 'failed', 'cancelled']),
    trigger: z.string().describe('`schedule` or `manual`'),
    attempt: z.number().int(),
    scheduled_for: z.string(),
    migration_job_id: z.string().nullable().describe('The run\'s migration job (its items, review and report live under /api/migrations)'),
    stats: z
      .record(z.string(), z.unknown())
      .describe('`unchanged`, `added`, `provider_reads`; after the job: `written`, `skipped`, `failed`; mirror: `mirror` (`pending`, `awaiting_approval`, `done`), `removed`, `moved`, `replaced`, `planned_removals`, `preview`, `kept_shared`, `kept_unmatched`, `unmatched`, `foreign_entries`'),
    error_code: z.string().nullable(),
    error: z.string().nullable(),
    started_at: z.string().nullable(),
    completed_at: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'SyncRun' });
const ruleSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    origin_job_id: z.string(),
    collection_kind: z.enum(['PLAYLIST', 'LIKED_TRACKS']),
    source: endpointSchema,
    target: endpointSchema,
    mode: z.enum(['add_only', 'mirror']),
    mirror: z.object({ max_removals: z.number().int(), removes_foreign: z.boolean() }).describe('Mirror guard rails: removals allowed per run without approval; whether entries the rule did not write may be removed or moved'),
    status: z.enum(['active', 'paused', 'review_required', 'approval_required']),
    pause_code: z.string().nullable().describe('`user`, `auth_expired_source`, `auth_expired_target`, `source_deleted`, `target_deleted`, `repeated_failures`'),
    pause_reason: z.string().nullable(),
    action: z
      .union([z.object({ type: z.literal('reconnect'), account_id: z.string(), provider: z.string() }), z.object({ type: z.literal('resume') }), z.object({ type: z.literal('approve'), run_id: z.string() })])
      .nullable()
      .describe('What the rule needs from you next: reconnect or resume a paused rule, or approve the removals of a mirror run'),
    schedule: scheduleSchema,
    next_run_at: z.string().nullable(),
    last_run_at: z.string().nullable(),
    consecutive_failures: z.number().int(),
    active_run: runSchema.nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'SyncRule' });

const namedSchema = z.object({ uri: z.string(), title: z.string() });
const previewSchema = z
  .object({
    rule_id: z.string(),
    mode: z.enum(['add_only', 'mirror']),
    can_mirror: z.boolean(),
    mirror_unavailable_reason: z.string().nullable(),
    add: z.array(z.object({ title: z.string() })).describe('Source entries the next run matches and adds (first 50)'),
    add_count: z.number().int(),
    remove: z.array(namedSchema).describe('Entries the rule wrote whose songs left the source (first 50)'),
    remove_count: z.number().int(),
    move: z.array(namedSchema.extend({ from: z.number().int(), to: z.number().int() })).describe('Single-entry moves, in order (first 50)'),
    move_count: z.number().int(),
    unmatched: z.array(z.object({ title: z.string() })).describe('Source entries without a match: they never cause a removal'),
    unmatched_count: z.number().int(),
    kept_shared: z.array(namedSchema).describe('Songs not removed because you also added them yourself (a removal takes every copy)'),
    kept_unmatched: z.array(namedSchema).describe('Songs not removed because an unmatched source entry may be them'),
    foreign_entries: z.number().int().describe('Target entries the rule did not write: never removed or moved'),
    removal_cap: z.number().int(),
    needs_approval: z.boolean(),
  })
  .meta({ id: 'SyncMirrorPreview' });

const ruleParams = z.object({ rule_id: z.uuid() });
const runParams = z.object({ rule_id: z.uuid(), run_id: z.uuid() });

function syncProblem(error: unknown): unknown {
  if (error instanceof SyncError) {
    switch (error.code) {
      case 'not_found':
        return new AppError('not_found', error.message);
      case 'invalid_origin':
        return new AppError('unprocessable_content', error.message);
      case 'mirror_unavailable':
        return new AppError('provider_unsupported', error.message, { extensions: error.extensions });
      case 'sync_rule_cycle':
        return new AppError('sync_rule_cycle', error.message, { extensions: error.extensions });
      case 'sync_rule_duplicate':
      case 'sync_state_conflict':
        return new AppError('conflict', error.message, { extensions: error.extensions });
    }
  }
  return toAppError(error);
}

async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw syncProblem(error);
  }
}

export const syncRoutes: FastifyPluginAsyncZod<{ sync: SyncApi }> = async (app, { sync }) => {
  const { rules } = sync;
  const openStreams = new OpenEventStreams();
  app.addHook('preClose', async () => openStreams.endAll());

  app.get('/api/syncs', { schema: { tags: ['syncs'], summary: 'The owner\'s sync rules, with state, next and last run and the run in progress', response: { 200: z.array(ruleSchema) } } }, async (request) =>
    guarded(() => rules.list(requireOwner(request, 'list sync rules').id)),
  );

  app.post(
    '/api/syncs',
    {
      schema: {
        tags: ['syncs'],
        summary: 'Keep a finished migration\'s target in sync with its source (add-only; mirror only where the target can remove and reorder)',
        body: createRuleSchema,
        response: {
          201: ruleSchema,
          404: problemResponse('No such migration'),
          409: problemResponse('An inverse rule or a longer loop through other rules (`sync_rule_cycle`), or the same rule exists (`conflict`)'),
          422: problemResponse('The migration is not one completed whole playlist (`unprocessable_content`), or mirror is not possible there (`provider_unsupported`, with the reason)'),
        },
      },
    },
    async (request, reply) => reply.code(201).send(await guarded(() => rules.create(requireOwner(request, 'create sync rules').id, request.body))),
  );

  app.get(
    '/api/syncs/events',
    {
      schema: {
        tags: ['syncs'],
        summary: 'Rule and run changes as server-sent events (`rule`, `run`, `rule_deleted`); resume with Last-Event-ID',
        description: 'Each event is a persisted change of one of the owner\'s rules or runs: `id` is its number, `event` is `rule` (the rule with its active run), `run`, or `rule_deleted` (`{"id": …}`; kept for a week). Reconnecting with `Last-Event-ID: N` (or `?after=N`) delivers every change after N. A run\'s item-level progress is its migration job\'s event stream.',
        querystring: z.object({ after: z.coerce.number().int().min(0).optional() }),
        headers: z.looseObject({ 'last-event-id': z.string().regex(/^\d{1,18}$/).optional() }),
        response: { 200: z.string().describe('text/event-stream') },
      },
    },
    async (request, reply) => {
      const owner = requireOwner(request, 'follow sync rules');
      const after = Number(request.headers['last-event-id'] ?? request.query.after ?? 0);
      await streamRowEvents(
        request,
        reply,
        { eventsAfter: (last) => syncEventsAfter(sync.execute, owner.id, last), subscribe: (wake) => sync.events.subscribe(owner.id, wake), batchSize: SYNC_EVENT_BATCH },
        after,
        openStreams,
      );
    },
  );

  app.get('/api/syncs/:rule_id', { schema: { tags: ['syncs'], summary: 'One sync rule', params: ruleParams, response: { 200: ruleSchema, 404: problemResponse('No such rule') } } }, async (request) =>
    guarded(() => rules.get(requireOwner(request, 'read sync rules').id, request.params.rule_id)),
  );

  app.patch(
    '/api/syncs/:rule_id',
    { schema: { tags: ['syncs'], summary: 'Change a rule\'s mode or schedule', params: ruleParams, body: updateRuleSchema, response: { 200: ruleSchema, 404: problemResponse('No such rule'), 422: problemResponse('Mirror is not possible there (`provider_unsupported`)') } } },
    async (request) => guarded(() => rules.update(requireOwner(request, 'change sync rules').id, request.params.rule_id, request.body)),
  );

  app.delete(
    '/api/syncs/:rule_id',
    { schema: { tags: ['syncs'], summary: 'Remove a rule (its target playlist and past runs\' migrations stay)', params: ruleParams, response: { 204: z.null(), 404: problemResponse('No such rule') } } },
    async (request, reply) => {
      await guarded(() => rules.delete(requireOwner(request, 'remove sync rules').id, request.params.rule_id));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/syncs/:rule_id/pause',
    { schema: { tags: ['syncs'], summary: 'Stop scheduling the rule (a queued run that has not started is cancelled)', params: ruleParams, response: { 200: ruleSchema, 404: problemResponse('No such rule'), 409: problemResponse('Paused already') } } },
    async (request) => guarded(() => rules.pause(requireOwner(request, 'pause sync rules').id, request.params.rule_id)),
  );

  app.post(
    '/api/syncs/:rule_id/resume',
    { schema: { tags: ['syncs'], summary: 'Schedule a paused rule again (it runs at the next evaluation; a run paused for a reconnect continues)', params: ruleParams, response: { 200: ruleSchema, 404: problemResponse('No such rule'), 409: problemResponse('Not paused') } } },
    async (request) => guarded(() => rules.resume(requireOwner(request, 'resume sync rules').id, request.params.rule_id)),
  );

  app.post(
    '/api/syncs/:rule_id/run',
    { schema: { tags: ['syncs'], summary: 'Run the rule now', params: ruleParams, response: { 202: runSchema, 404: problemResponse('No such rule'), 409: problemResponse('Paused, waiting for review, or a run is queued or running already') } } },
    async (request, reply) => reply.code(202).send(await guarded(() => rules.runNow(requireOwner(request, 'run sync rules').id, request.params.rule_id))),
  );

  app.get(
    '/api/syncs/:rule_id/runs',
    {
      schema: {
        tags: ['syncs'],
        summary: 'The rule\'s runs, newest first',
        params: ruleParams,
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(200).default(50), offset: z.coerce.number().int().min(0).default(0) }),
        response: { 200: z.array(runSchema), 404: problemResponse('No such rule') },
      },
    },
    async (request) => guarded(() => rules.runs(requireOwner(request, 'read sync runs').id, request.params.rule_id, request.query.limit, request.query.offset)),
  );

  app.get(
    '/api/syncs/:rule_id/preview',
    {
      schema: {
        tags: ['syncs'],
        summary: 'What a mirror run of this rule would add, remove and move now (reads both playlists, writes nothing)',
        params: ruleParams,
        response: { 200: previewSchema, 404: problemResponse('No such rule') },
      },
    },
    async (request) => guarded(() => rules.preview(requireOwner(request, 'preview sync rules').id, request.params.rule_id)),
  );

  app.post(
    '/api/syncs/:rule_id/runs/:run_id/approve',
    {
      schema: {
        tags: ['syncs'],
        summary: 'Let a mirror run that waits for approval make the removals it showed (202; it continues in the background)',
        params: runParams,
        response: { 202: runSchema, 404: problemResponse('No such run'), 409: problemResponse('The run is not waiting for approval') },
      },
    },
    async (request, reply) => reply.code(202).send(await guarded(() => rules.approve(requireOwner(request, 'approve sync runs').id, request.params.rule_id, request.params.run_id))),
  );

  app.get('/api/syncs/:rule_id/runs/:run_id', { schema: { tags: ['syncs'], summary: 'One run of a rule', params: runParams, response: { 200: runSchema, 404: problemResponse('No such run') } } }, async (request) =>
    guarded(() => rules.run(requireOwner(request, 'read sync runs').id, request.params.rule_id, request.params.run_id)),
  );
};

/** Where no database exists (the OpenAPI generator): every sync route answers 503. */
export function unavailableSync(): SyncApi {
  const fail = async (): Promise<never> => {
    throw new AppError('service_unavailable', 'Sync is not wired in this server.');
  };
  return {
    rules: { list: fail, create: fail, get: fail, update: fail, pause: fail, resume: fail, delete: fail, runNow: fail, runs: fail, run: fail, approve: fail, preview: fail } as unknown as SyncApi['rules'],
    execute: fail,
    events: { subscribe: fail } as unknown as SyncApi['events'],
  };
}
