import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { GENERATION_EVENT_BATCH, GeneratorError, ModelError, type GeneratorService } from '../../services/generator/index.ts';
import { AppError, problemResponse } from '../errors/index.ts';
import { requireOwner } from '../owner/owner-gate.ts';
import { OpenEventStreams, streamRowEvents } from '../row-event-stream.ts';
import { toAppError } from './migrations.routes.ts';
import {
  addBody,
  configSchema,
  confirmation,
  confirmBody,
  createSchema,
  draftSchema,
  draftSummarySchema,
  groundingOfBody,
  itemBody,
  itemParams,
  regenerateBody,
  renameBody,
  reorderBody,
  replaceBody,
  searchBody,
  searchResult,
  waitQuery,
} from './generator-schemas.ts';

/**
 * `/api/generator`: playlist drafts proposed by the configured language model and resolved to
 * real tracks of a connected account. Drafts are private to their owner. The prompt of a request
 * is used for that request only: never stored, logged or echoed in an error.
 */

export type GeneratorApi = Pick<
  GeneratorService,
  'config' | 'preferences' | 'createDraft' | 'startDraft' | 'regenerate' | 'cancel' | 'eventsAfter' | 'follow' | 'draft' | 'drafts' | 'deleteDraft' | 'rename' | 'updateItem' | 'replaceItem' | 'confirm' | 'search' | 'addFromSearch' | 'reorder'
>;

const draftParams = z.object({ draft_id: z.uuid() });

function generatorProblem(error: unknown): unknown {
  if (error instanceof GeneratorError) {
    switch (error.code) {
      case 'generator_unavailable':
        return new AppError('generator_unavailable', error.message, { extensions: { action: { type: 'configure_generator' } } });
      case 'draft_not_found':
        return new AppError('not_found', error.message);
      case 'provider_unsupported':
        return new AppError('provider_unsupported', error.message);
      case 'nothing_resolved':
        return new AppError('unprocessable_content', error.message);
      case 'library_empty':
        return new AppError('unprocessable_content', error.message, { extensions: { reason: 'library_empty' } });
      case 'draft_not_editable':
        return new AppError('conflict', error.message);
    }
  }
  if (error instanceof ModelError) {
    switch (error.code) {
      case 'model_timeout':
        return new AppError('model_timeout', error.message);
      case 'model_rate_limited':
        return new AppError('model_rate_limited', error.message, error.retryAfterS !== null ? { headers: { 'retry-after': String(error.retryAfterS) } } : {});
      case 'model_cancelled':
        return new AppError('conflict', error.message);
      default:
        return new AppError('model_failed', error.message, { extensions: { reason: error.code } });
    }
  }
  return toAppError(error);
}

export const generatorRoutes: FastifyPluginAsyncZod<{ generator: GeneratorApi }> = async (app, { generator }) => {
  const openStreams = new OpenEventStreams();
  app.addHook('preClose', async () => openStreams.endAll());
  app.get(
    '/api/generator/config',
    { schema: { tags: ['generator'], summary: 'Whether a model is configured, which, and the request limits', response: { 200: configSchema } } },
    async (request) => {
      requireOwner(request, 'use the generator');
      return generator.config();
    },
  );

  app.post(
    '/api/generator/drafts',
    {
      schema: {
        tags: ['generator'],
        summary: 'Generate a draft: the model proposes songs, each is resolved on the target account (the prompt is never stored)',
        querystring: waitQuery,
        body: createSchema,
        response: {
          201: draftSchema,
          202: draftSchema.describe('`wait=false`: the draft as it starts (`generating`); follow GET …/events'),
          404: problemResponse('No such account'),
          409: problemResponse('The target account needs reconnecting'),
          422: problemResponse('The target cannot be searched (`provider_unsupported`), or library-grounded mode found no song of yours to offer (`reason: library_empty`)'),
          429: problemResponse('The model server or the provider asks to slow down (Retry-After)'),
          502: problemResponse('The model failed or answered unusably twice (`model_failed`), or the provider failed'),
          503: problemResponse('No model is configured (`generator_unavailable`, with how to configure one)'),
          504: problemResponse('The model did not answer in time (`model_timeout`)'),
        },
      },
    },
    async (request, reply) => {
      const owner = requireOwner(request, 'generate a playlist');
      try {
        if (!request.query.wait) {
          // The work outlives this request: POST …/cancel stops it; its end is recorded on the draft.
          const { draft } = await generator.startDraft(owner.id, { ...request.body, grounding: groundingOfBody(request.body) }, await generator.preferences(owner.id, request.body.use_preferences));
          return await reply.code(202).send(draft);
        }
        // The client going away ends the work: the model call and the searches stop.
        const cancel = new AbortController();
        request.raw.on('close', () => {
          if (!reply.sent) cancel.abort();
        });
        const draft = await generator.createDraft(owner.id, { ...request.body, grounding: groundingOfBody(request.body) }, await generator.preferences(owner.id, request.body.use_preferences), cancel.signal);
        return await reply.code(201).send(draft);
      } catch (error) {
        throw generatorProblem(error);
      }
    },
  );

  app.get(
    '/api/generator/drafts/:draft_id/events',
    {
      schema: {
        tags: ['generator'],
        summary: 'Live generation progress as server-sent events (`draft` and `item` events); resume with Last-Event-ID',
        description:
          'Each event is a persisted row change: `id` is its progress number, `event` is `item` (one item as it is now: pending, then resolved, unresolved or removed) or `draft` (the draft without its items, with `item_order`, the ids of its items in order). A client reconnecting with `Last-Event-ID: N` (or `?after=N`) receives every change after N. Never holds the prompt.',
        params: draftParams,
        querystring: z.object({ after: z.coerce.number().int().min(0).optional() }),
        headers: z.looseObject({ 'last-event-id': z.string().regex(/^\d{1,18}$/).optional() }),
        response: { 200: z.string().describe('text/event-stream'), 404: problemResponse('No such draft for this owner') },
      },
    },
    async (request, reply) => {
      const owner = requireOwner(request, 'follow a generation');
      const draftId = request.params.draft_id;
      try {
        await generator.draft(owner.id, draftId);
      } catch (error) {
        throw generatorProblem(error);
      }
      const after = Number(request.headers['last-event-id'] ?? request.query.after ?? 0);
      await streamRowEvents(
        request,
        reply,
        { eventsAfter: (last) => generator.eventsAfter(owner.id, draftId, last), subscribe: (wake) => generator.follow(draftId, wake), batchSize: GENERATION_EVENT_BATCH },
        after,
        openStreams,
      );
    },
  );

  app.post(
    '/api/generator/drafts/:draft_id/cancel',
    {
      schema: {
        tags: ['generator'],
        summary: 'Stop a running generation (the model call or the searches); songs not searched yet stay as unresolved, "not searched"',
        params: draftParams,
        response: { 200: draftSchema, 404: problemResponse('No such draft'), 409: problemResponse('No generation runs for this draft') },
      },
    },
    async (request) => {
      const owner = requireOwner(request, 'cancel a generation');
      try {
        return await generator.cancel(owner.id, request.params.draft_id);
      } catch (error) {
        throw generatorProblem(error);
      }
    },
  );

  app.post(
    '/api/generator/drafts/:draft_id/regenerate',
    {
      schema: {
        tags: ['generator'],
        summary: 'Ask the model again: every song, or only the open slots (unresolved or removed songs), with the same controls unless new ones are given',
        params: draftParams,
        querystring: waitQuery,
        body: regenerateBody,
        response: {
          200: draftSchema.describe('`wait=true`: the draft once generated again'),
          202: draftSchema.describe('`wait=false`: the draft as it starts (`generating`); follow GET …/events'),
          404: problemResponse('No such draft'),
          409: problemResponse('A generation runs, the draft is confirmed, or it has no open slot'),
          422: problemResponse('Library-grounded mode found no song of yours to offer (`reason: library_empty`)'),
          429: problemResponse('The model server asks to slow down (Retry-After)'),
          502: problemResponse('The model failed (`model_failed`)'),
          503: problemResponse('No model is configured (`generator_unavailable`)'),
          504: problemResponse('The model did not answer in time (`model_timeout`)'),
        },
      },
    },
    async (request, reply) => {
      const owner = requireOwner(request, 'generate a draft again');
      try {
        const { draft, done } = await generator.regenerate(owner.id, request.params.draft_id, { ...request.body, grounding: groundingOfBody(request.body) }, await generator.preferences(owner.id, request.body.use_preferences));
        if (!request.query.wait) return await reply.code(202).send(draft);
        const outcome = await done;
        if (outcome.error !== null && (await generator.draft(owner.id, draft.id)).items.length === 0) throw outcome.error;
        return await reply.code(200).send(await generator.draft(owner.id, draft.id));
      } catch (error) {
        throw generatorProblem(error);
      }
    },
  );

  app.post(
    '/api/generator/drafts/:draft_id/items/:item_id/replace',
    {
      schema: {
        tags: ['generator'],
        summary: "Replace an item's track with one of its candidates, or with a search result (`text`: the search runs again and must return it)",
        params: itemParams,
        body: replaceBody,
        response: { 200: draftSchema, 404: problemResponse('No such draft or item'), 409: problemResponse('Not a candidate or result, already in the draft, or the draft is no longer editable') },
      },
    },
    async (request) => {
      const owner = requireOwner(request, 'edit a generated draft');
      try {
        return await generator.replaceItem(owner.id, request.params.draft_id, request.params.item_id, request.body);
      } catch (error) {
        throw generatorProblem(error);
      }
    },
  );

  app.get(
    '/api/generator/drafts',
    { schema: { tags: ['generator'], summary: "The owner's drafts, newest first (expired ones are gone)", response: { 200: z.object({ drafts: z.array(draftSummarySchema) }) } } },
    async (request) => {
      const owner = requireOwner(request, 'list generated drafts');
      return { drafts: await generator.drafts(owner.id) };
    },
  );

  app.get(
    '/api/generator/drafts/:draft_id',
    { schema: { tags: ['generator'], summary: 'One draft with its items in order', params: draftParams, response: { 200: draftSchema, 404: problemResponse('No such draft (or not yours, or expired)') } } },
    async (request) => {
      const owner = requireOwner(request, 'read a generated draft');
      try {
        return await generator.draft(owner.id, request.params.draft_id);
      } catch (error) {
        throw generatorProblem(error);
      }
    },
  );

  app.patch(
    '/api/generator/drafts/:draft_id',
    { schema: { tags: ['generator'], summary: 'Rename a draft', params: draftParams, body: renameBody, response: { 200: draftSchema, 404: problemResponse('No such draft'), 409: problemResponse('The draft is confirmed or discarded') } } },
    async (request) => {
      const owner = requireOwner(request, 'rename a generated draft');
      try {
        return await generator.rename(owner.id, request.params.draft_id, request.body.name);
      } catch (error) {
        throw generatorProblem(error);
      }
    },
  );

  app.patch(
    '/api/generator/drafts/:draft_id/items/:item_id',
    {
      schema: {
        tags: ['generator'],
        summary: 'Approve or unapprove, remove or restore one item of a draft',
        params: itemParams,
        body: itemBody,
        response: { 200: draftSchema, 404: problemResponse('No such draft or item'), 409: problemResponse('Not approvable (unresolved or removed), or the draft is no longer editable') },
      },
    },
    async (request) => {
      const owner = requireOwner(request, 'edit a generated draft');
      try {
        return await generator.updateItem(owner.id, request.params.draft_id, request.params.item_id, request.body);
      } catch (error) {
        throw generatorProblem(error);
      }
    },
  );

  app.post(
    '/api/generator/drafts/:draft_id/search',
    {
      schema: {
        tags: ['generator'],
        summary: "Search the draft's target by free text, for a song to add",
        params: draftParams,
        body: searchBody,
        response: { 200: z.object({ results: z.array(searchResult) }), 404: problemResponse('No such draft'), 409: problemResponse('The draft is confirmed or discarded') },
      },
    },
    async (request) => {
      const owner = requireOwner(request, 'search for a generated draft');
      try {
        return { results: await generator.search(owner.id, request.params.draft_id, request.body.text) };
      } catch (error) {
        throw generatorProblem(error);
      }
    },
  );

  app.post(
    '/api/generator/drafts/:draft_id/items',
    {
      schema: {
        tags: ['generator'],
        summary: 'Add a song found by a search (the search runs again; the URI must be among its results)',
        params: draftParams,
        body: addBody,
        response: { 200: draftSchema, 404: problemResponse('No such draft'), 409: problemResponse('Not among the results, already in the draft, or the draft is no longer editable') },
      },
    },
    async (request) => {
      const owner = requireOwner(request, 'add to a generated draft');
      try {
        return await generator.addFromSearch(owner.id, request.params.draft_id, request.body.text, request.body.target_uri);
      } catch (error) {
        throw generatorProblem(error);
      }
    },
  );

  app.post(
    '/api/generator/drafts/:draft_id/reorder',
    {
      schema: {
        tags: ['generator'],
        summary: "Put the draft's items in a new order (every item id exactly once)",
        params: draftParams,
        body: reorderBody,
        response: { 200: draftSchema, 404: problemResponse('No such draft'), 409: problemResponse('Not a permutation of the items, or the draft is no longer editable') },
      },
    },
    async (request) => {
      const owner = requireOwner(request, 'reorder a generated draft');
      try {
        return await generator.reorder(owner.id, request.params.draft_id, request.body.item_ids);
      } catch (error) {
        throw generatorProblem(error);
      }
    },
  );

  app.post(
    '/api/generator/drafts/:draft_id/confirm',
    {
      schema: {
        tags: ['generator'],
        summary: "Write the draft's approved tracks to its target: an ordinary migration job (`source_kind` generated). Confirming again answers the same job (200).",
        params: draftParams,
        body: confirmBody,
        response: {
          200: confirmation,
          201: confirmation,
          404: problemResponse('No such draft'),
          409: problemResponse('Warnings to acknowledge (`migration_warnings`), or the target needs reconnecting'),
          422: problemResponse('Nothing approved (`invalid_selection`)'),
        },
      },
    },
    async (request, reply) => {
      const owner = requireOwner(request, 'confirm a generated draft');
      try {
        const result = await generator.confirm(owner.id, request.params.draft_id, request.body.acknowledge_warnings);
        return await reply.code(result.created ? 201 : 200).send(result);
      } catch (error) {
        throw generatorProblem(error);
      }
    },
  );

  app.delete(
    '/api/generator/drafts/:draft_id',
    { schema: { tags: ['generator'], summary: 'Discard a draft (not a confirmed one: it is its migration’s source)', params: draftParams, response: { 204: z.null(), 404: problemResponse('No such draft'), 409: problemResponse('The draft is confirmed') } } },
    async (request, reply) => {
      const owner = requireOwner(request, 'discard a generated draft');
      try {
        await generator.deleteDraft(owner.id, request.params.draft_id);
      } catch (error) {
        throw generatorProblem(error);
      }
      return reply.code(204).send(null);
    },
  );
};
