import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createJobRequestSchema, duplicatesRequestSchema, OrganizerError, preflightRequestSchema, type OrganizerService } from '../../services/organizer/index.ts';
import { AppError, problemResponse } from '../errors/index.ts';
import { requireOwner } from '../owner/owner-gate.ts';
import { providerProblem } from './provider-problems.ts';

/**
 * `/api/organizer`: playlist maintenance (remove from library, permanent delete, remove songs).
 * Every job needs a fresh preflight of the same owner and, where the preflight names one, the
 * exact typed phrase; the backend enforces every rule whatever the client sends.
 */

export type OrganizerApi = Pick<OrganizerService, 'playlists' | 'duplicates' | 'preflight' | 'createJob' | 'job' | 'jobs' | 'retry' | 'undo'>;

const actionSchema = z.enum(['unfollow_playlist', 'delete_playlist', 'remove_tracks']);
const availabilitySchema = z.object({ available: z.boolean(), reason: z.string().nullable(), note: z.string().nullable() });
const relationSchema = z.enum(['owned', 'collaborative', 'followed', 'liked_collection', 'unknown']);

const playlistsSchema = z
  .object({
    account_id: z.string(),
    provider: z.string(),
    provider_actions: z
      .object({ unfollow_playlist: availabilitySchema, delete_playlist: availabilitySchema, remove_tracks: availabilitySchema })
      .describe('What the provider offers at all (its manifest): an action unavailable here is unavailable for every playlist, for this reason.'),
    playlists: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        kind: z.string(),
        relation: relationSchema,
        owner_name: z.string().nullable(),
        track_count: z.number().int().nullable(),
        actions: z.object({ unfollow_playlist: availabilitySchema, delete_playlist: availabilitySchema, remove_tracks: availabilitySchema }),
      }),
    ),
  })
  .meta({ id: 'OrganizerPlaylists' });

const removalSchema = z.object({ position: z.number().int(), uri: z.string(), entry_id: z.string().nullable(), title: z.string(), artist: z.string() });
const warningSchema = z.object({ code: z.string(), message: z.string(), positions: z.array(z.number().int()) });
const preflightSchema = z
  .object({
    token: z.uuid(),
    expires_at: z.string(),
    provider: z.string(),
    account_id: z.string(),
    action: actionSchema,
    confirmation_phrase: z.string().nullable(),
    playlists: z.array(
      z.object({
        playlist_id: z.string(),
        name: z.string(),
        relation: relationSchema,
        action: actionSchema,
        effect: z.string(),
        ownership: z.object({ check: z.string(), evidence: z.string() }).nullable(),
        snapshot_id: z.string().nullable(),
        track_count: z.number().int().nullable(),
        removals: z.array(removalSchema).nullable(),
        warnings: z.array(warningSchema),
      }),
    ),
  })
  .meta({ id: 'OrganizerPreflight' });

const jobActionSchema = z.enum(['unfollow_playlist', 'delete_playlist', 'remove_tracks', 'restore_tracks']);
const itemSchema = z.object({
  id: z.uuid(),
  playlist_id: z.string(),
  playlist_name: z.string().nullable(),
  action: jobActionSchema,
  status: z.string(),
  retryable: z.boolean(),
  attempts: z.number().int(),
  error_code: z.string().nullable(),
  error: z.string().nullable(),
  notes: z.array(z.string()),
  removed_entries: z.array(z.object({ position: z.number().int(), uri: z.string(), title: z.string(), artist: z.string() })).nullable(),
  completed_at: z.string().nullable(),
});
const jobSchema = z
  .object({
    id: z.uuid(),
    provider: z.string(),
    account_id: z.string(),
    action: jobActionSchema,
    undo_of: z.uuid().nullable(),
    restore_order: z.enum(['positions', 'appended']).nullable(),
    status: z.string(),
    counts: z.object({ items: z.number().int(), succeeded: z.number().int(), failed: z.number().int(), pending: z.number().int(), retryable: z.number().int() }),
    reconnect_required: z.boolean().describe('Some item failed because the connection must be renewed: reconnect the account, then retry.'),
    created_at: z.string(),
    started_at: z.string().nullable(),
    completed_at: z.string().nullable(),
    items: z.array(itemSchema),
  })
  .meta({ id: 'OrganizerJob' });

const duplicateEntrySchema = z.object({ position: z.number().int(), uri: z.string().nullable(), entry_id: z.string().nullable(), title: z.string(), artist: z.string() });
const pairPlaylistSchema = z.object({ id: z.string(), name: z.string(), track_count: z.number().int() });
const duplicatesSchema = z
  .discriminatedUnion('scope', [
    z.object({
      scope: z.literal('playlists'),
      account_id: z.string(),
      scanned: z.number().int(),
      read: z.number().int(),
      pairs: z.array(z.object({ playlists: z.tuple([pairPlaylistSchema, pairPlaylistSchema]), normalized_name: z.string(), overlap: z.number(), shared_songs: z.number().int(), evidence: z.array(z.string()) })),
      skipped: z.array(z.object({ id: z.string(), name: z.string(), reason: z.string() })),
    }),
    z.object({
      scope: z.literal('entries'),
      account_id: z.string(),
      playlist_id: z.string(),
      name: z.string(),
      snapshot_id: z.string().nullable(),
      keep: z.enum(['first', 'last']),
      groups: z.array(z.object({ original: duplicateEntrySchema, duplicates: z.array(duplicateEntrySchema.extend({ matched_by: z.string(), why: z.string() })) })),
      proposed_removals: z.array(duplicateEntrySchema),
    }),
  ])
  .meta({ id: 'OrganizerDuplicates' });

const jobParams = z.object({ job_id: z.uuid() });

function organizerProblem(error: unknown): unknown {
  if (error instanceof OrganizerError) {
    return new AppError(error.code, error.message, { extensions: error.extensions });
  }
  return providerProblem(error);
}

async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw organizerProblem(error);
  }
}

export const organizerRoutes: FastifyPluginAsyncZod<{ organizer: OrganizerApi }> = async (app, { organizer }) => {
  await app.register(organizerUndoRoutes, { organizer });
  app.get(
    '/api/organizer/playlists',
    {
      schema: {
        tags: ['organizer'],
        summary: "The account's playlists with their ownership, kind, and per action whether it is available and why not",
        querystring: z.object({ account_id: z.uuid(), refresh: z.enum(['true', 'false', '1', '0']).optional().transform((value) => value === 'true' || value === '1') }),
        response: { 200: playlistsSchema, 404: problemResponse('No such account'), 409: problemResponse('The account needs reconnecting') },
      },
    },
    async (request) => {
      const owner = requireOwner(request, 'list playlists for the organizer');
      return guarded(() => organizer.playlists(owner.id, request.query.account_id, request.query.refresh));
    },
  );

  app.post(
    '/api/organizer/preflight',
    {
      schema: {
        tags: ['organizer'],
        summary: 'What an organizer job would do, resolved with live reads; its token (with an expiry) is required to start the job',
        body: preflightRequestSchema,
        response: {
          200: preflightSchema,
          404: problemResponse('No such account'),
          409: problemResponse('The account needs reconnecting'),
          422: problemResponse('Unsupported organizer selection (`organizer_unsupported`, with a reason per playlist)'),
        },
      },
    },
    async (request) => {
      const owner = requireOwner(request, 'preflight an organizer job');
      return guarded(() => organizer.preflight(owner.id, request.body));
    },
  );

  app.post(
    '/api/organizer/duplicates',
    {
      schema: {
        tags: ['organizer'],
        summary: 'Read-only duplicate scan: candidate playlist pairs (same normalized name, compatible owner, ≥ 50% overlap) or repeated entries of one playlist',
        body: duplicatesRequestSchema,
        response: { 200: duplicatesSchema, 404: problemResponse('No such account or playlist'), 409: problemResponse('The account needs reconnecting') },
      },
    },
    async (request) => {
      const owner = requireOwner(request, 'scan for duplicates');
      return guarded(() => organizer.duplicates(owner.id, request.body));
    },
  );

  app.get(
    '/api/organizer/jobs',
    { schema: { tags: ['organizer'], summary: "The owner's organizer jobs, newest first", response: { 200: z.object({ jobs: z.array(jobSchema) }) } } },
    async (request) => {
      const owner = requireOwner(request, 'list organizer jobs');
      return { jobs: await organizer.jobs(owner.id) };
    },
  );

  app.post(
    '/api/organizer/jobs',
    {
      schema: {
        tags: ['organizer'],
        summary: 'Start an organizer job from a preflight token and the typed confirmation phrase',
        body: createJobRequestSchema,
        response: {
          202: jobSchema,
          404: problemResponse('No such preflight for this user'),
          409: problemResponse('The preflight expired, was used, or the playlist changed since (`organizer_preflight_stale`)'),
          422: problemResponse('Wrong phrase (`organizer_confirmation_mismatch`) or another selection than the preflight (`organizer_selection_mismatch`)'),
        },
      },
    },
    async (request, reply) => {
      const owner = requireOwner(request, 'start an organizer job');
      const job = await guarded(() => organizer.createJob(owner.id, request.body));
      return reply.code(202).send(job);
    },
  );

  app.get(
    '/api/organizer/jobs/:job_id',
    { schema: { tags: ['organizer'], summary: 'One organizer job with its items', params: jobParams, response: { 200: jobSchema, 404: problemResponse('No such job (or not yours)') } } },
    async (request) => {
      const owner = requireOwner(request, 'read an organizer job');
      return guarded(() => organizer.job(owner.id, request.params.job_id));
    },
  );

  app.post(
    '/api/organizer/jobs/:job_id/retry',
    {
      schema: {
        tags: ['organizer'],
        summary: 'Run the failed, retryable items again (successful items never rerun)',
        params: jobParams,
        response: { 202: jobSchema, 404: problemResponse('No such job'), 409: problemResponse('Still running, nothing retryable, or the account must be reconnected first (`action: reconnect`)') },
      },
    },
    async (request, reply) => {
      const owner = requireOwner(request, 'retry an organizer job');
      const job = await guarded(() => organizer.retry(owner.id, request.params.job_id));
      return reply.code(202).send(job);
    },
  );
};

/** The undo of a song removal (its own plugin so the main one stays readable). */
const organizerUndoRoutes: FastifyPluginAsyncZod<{ organizer: OrganizerApi }> = async (app, { organizer }) => {
  app.post(
    '/api/organizer/jobs/:job_id/undo',
    {
      schema: {
        tags: ['organizer'],
        summary: 'Undo a finished song removal: a new job puts the removed entries back at their positions, or at the end where the provider can only append (each item says so)',
        params: jobParams,
        response: {
          202: jobSchema,
          404: problemResponse('No such job'),
          409: problemResponse('Not a finished song removal, or the playlist changed since (`organizer_preflight_stale`)'),
          422: problemResponse('The provider cannot add songs at all (`organizer_unsupported`)'),
        },
      },
    },
    async (request, reply) => {
      const owner = requireOwner(request, 'undo an organizer job');
      const job = await guarded(() => organizer.undo(owner.id, request.params.job_id));
      return reply.code(202).send(job);
    },
  );
};
