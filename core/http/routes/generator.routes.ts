import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { generationSpecSchema, GeneratorError, ModelError, type GeneratorService } from '../../services/generator/index.ts';
import { AppError, problemResponse } from '../errors/index.ts';
import { requireOwner } from '../owner/owner-gate.ts';
import { jobViewSchema, toAppError } from './migrations.routes.ts';

/**
 * `/api/generator`: playlist drafts proposed by the configured language model and resolved to
 * real tracks of a connected account. Drafts are private to their owner. The prompt of a request
 * is used for that request only: never stored, logged or echoed in an error.
 */

export type GeneratorApi = Pick<GeneratorService, 'config' | 'createDraft' | 'draft' | 'drafts' | 'deleteDraft' | 'rename' | 'updateItem' | 'confirm' | 'search' | 'addFromSearch' | 'reorder'>;

const limitsSchema = z.object({ max_prompt_chars: z.number().int(), max_output_chars: z.number().int(), max_tracks: z.number().int() });
const configSchema = z
  .object({ available: z.boolean(), backend: z.literal('openai_compatible'), model: z.string(), demo: z.boolean(), message: z.string(), limits: limitsSchema })
  .meta({ id: 'GeneratorConfig' });

const intentSchema = z.object({ title: z.string(), artist: z.string(), album: z.string().nullable(), release_year: z.number().int().nullable(), reason: z.string().nullable() });
const itemSchema = z
  .object({
    id: z.uuid(),
    position: z.number().int(),
    status: z.enum(['resolved', 'unresolved', 'removed']),
    approved: z.boolean(),
    target_uri: z.string().nullable(),
    title: z.string(),
    artist: z.string(),
    album: z.string().nullable(),
    duration_s: z.number().int().nullable(),
    isrc: z.string().nullable(),
    explicit: z.boolean().nullable(),
    confidence: z.number().nullable(),
    reason: z.string().nullable(),
    intent: intentSchema.nullable(),
  })
  .meta({ id: 'GenerationDraftItem' });

const draftFields = {
  id: z.uuid(),
  name: z.string(),
  status: z.string(),
  target_provider: z.string(),
  target_account_id: z.string(),
  controls: z.record(z.string(), z.unknown()),
  generation: z.record(z.string(), z.unknown()),
  migration_job_id: z.string().nullable(),
  expires_at: z.string(),
  created_at: z.string(),
  counts: z.object({ resolved: z.number().int(), unresolved: z.number().int(), approved: z.number().int(), duration_s: z.number() }),
};
const draftSchema = z.object({ ...draftFields, items: z.array(itemSchema) }).meta({ id: 'GenerationDraft' });
const draftSummarySchema = z.object(draftFields).meta({ id: 'GenerationDraftSummary' });

const createSchema = z
  .object({ target_provider: z.string().min(1).max(100), target_account_id: z.uuid(), generation: generationSpecSchema })
  .strict()
  .meta({ id: 'CreateGenerationDraft' });

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

const renameBody = z.object({ name: z.string().trim().min(1).max(200) }).strict();
const itemBody = z
  .object({ approved: z.boolean().optional(), removed: z.boolean().optional() })
  .strict()
  .refine((body) => body.approved !== undefined || body.removed !== undefined, 'say what to change: approved and/or removed');
const itemParams = z.object({ draft_id: z.uuid(), item_id: z.uuid() });
const searchBody = z.object({ text: z.string().trim().min(1).max(500) }).strict();
const searchResult = z.object({ uri: z.string(), title: z.string(), artist: z.string(), album: z.string().nullable(), duration_s: z.number().nullable(), explicit: z.boolean().nullable() }).meta({ id: 'GeneratorSearchResult' });
const addBody = z.object({ text: z.string().trim().min(1).max(500), target_uri: z.string().min(1).max(2_000) }).strict();
const reorderBody = z.object({ item_ids: z.array(z.uuid()).min(1).max(1_000) }).strict();
const confirmBody = z.object({ acknowledge_warnings: z.boolean().default(false) }).strict().meta({ id: 'ConfirmGenerationDraft' });
const confirmation = z.object({ created: z.boolean(), job: jobViewSchema }).meta({ id: 'GenerationConfirmation' });

export const generatorRoutes: FastifyPluginAsyncZod<{ generator: GeneratorApi }> = async (app, { generator }) => {
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
        body: createSchema,
        response: {
          201: draftSchema,
          404: problemResponse('No such account'),
          409: problemResponse('The target account needs reconnecting'),
          422: problemResponse('The target cannot be searched (`provider_unsupported`)'),
          429: problemResponse('The model server or the provider asks to slow down (Retry-After)'),
          502: problemResponse('The model failed or answered unusably twice (`model_failed`), or the provider failed'),
          503: problemResponse('No model is configured (`generator_unavailable`, with how to configure one)'),
          504: problemResponse('The model did not answer in time (`model_timeout`)'),
        },
      },
    },
    async (request, reply) => {
      const owner = requireOwner(request, 'generate a playlist');
      // The client going away ends the work: the model call and the searches stop.
      const cancel = new AbortController();
      request.raw.on('close', () => {
        if (!reply.sent) cancel.abort();
      });
      try {
        const draft = await generator.createDraft(owner.id, request.body, null, cancel.signal);
        return await reply.code(201).send(draft);
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
