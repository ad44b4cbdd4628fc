import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MIGRATION_STATES, OVERVIEW_RECENT_JOBS, RESOLVE_SEARCH_LIMIT, WorkspaceError, type WorkspaceService } from '../../services/library/index.ts';
import { AppError, problemResponse } from '../errors/index.ts';
import { requireOwner } from '../owner/owner-gate.ts';
import { providerProblem } from './provider-problems.ts';

/**
 * `/api/library` workspace: every connected account's playlists grouped into "same playlist"
 * groups, coverage and migration status (from the database only: no provider call), the refresh
 * that reads one account again, the user's join and split, the diff of two members, and the Home
 * overview (accounts and their health, jobs, sync rules needing attention, reviews waiting).
 */

export type WorkspaceApi = Pick<WorkspaceService, 'workspace' | 'overview' | 'refresh' | 'join' | 'split' | 'diff' | 'resolve'>;

/** A member: `<account id>/<playlist id>` (`liked` for the liked collection). */
const memberKey = z.string().regex(/^[0-9a-f-]{36}\/.{1,500}$/, 'a member is "<account id>/<playlist id>"');

export const migrationStatusSchema = z
  .object({
    state: z.enum(MIGRATION_STATES),
    migrated: z.number().int(),
    total: z.number().int(),
    exact: z.boolean(),
    target_account_id: z.string(),
    sync_rule: z.object({ id: z.string(), status: z.string() }).nullable(),
  })
  .meta({ id: 'MigrationStatus' });

const memberSchema = z
  .object({
    key: z.string(),
    account_id: z.string(),
    provider: z.string(),
    account_name: z.string().nullable(),
    playlist_id: z.string(),
    name: z.string(),
    kind: z.string(),
    track_count: z.number().int().nullable(),
    tracks_read: z.boolean(),
    holds: z.number().int(),
    missing: z.number().int(),
    unknown: z.number().int(),
    status: migrationStatusSchema.nullable(),
  })
  .meta({ id: 'WorkspaceMember' });

const workspaceSchema = z
  .object({
    accounts: z.array(
      z.object({ account_id: z.string(), provider: z.string(), display_name: z.string().nullable(), status: z.string(), fetched_at: z.string().nullable(), playlists: z.number().int(), tracks_read: z.number().int() }),
    ),
    imports: z
      .array(z.object({ import_id: z.string(), kind: z.string(), label: z.string().nullable(), created_at: z.string(), playlists: z.number().int() }))
      .meta({ description: 'The recent imports whose playlists are members (their `provider` is `import`, their `account_id` the import id); grouped by ISRC only, never searched here (a diff against an account also uses the matches `POST /api/library/diff/resolve` remembered for the import)' }),
    target: z.object({ provider: z.string(), account_id: z.string() }).nullable(),
    groups: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        songs: z.number().int(),
        members: z.array(memberSchema),
        reasons: z.array(z.object({ kind: z.string(), members: z.tuple([z.string(), z.string()]), detail: z.string(), job_id: z.string().nullable() })),
      }),
    ),
  })
  .meta({ id: 'LibraryWorkspace' });

const diffTrack = z.object({ position: z.number().int(), title: z.string(), artist: z.string(), album: z.string().nullable(), isrc: z.string().nullable(), track_id: z.string().nullable(), uri: z.string().nullable() });
const diffSide = z.object({ key: z.string(), name: z.string(), provider: z.string(), track_count: z.number().int() });
const pair = z.object({ a: diffTrack, b: diffTrack });
const diffSchema = z
  .object({
    a: diffSide,
    b: diffSide,
    only_a: z.array(diffTrack),
    only_b: z.array(diffTrack),
    both: z.array(pair),
    moved: z.array(pair),
    not_compared: z.object({ a: z.array(diffTrack), b: z.array(diffTrack) }),
    searches_needed: z.number().int().meta({ description: 'At most how many provider searches resolving the songs not compared yet takes' }),
  })
  .meta({ id: 'LibraryDiff' });

const resolveSchema = z
  .object({
    searches: z.number().int().meta({ description: 'Searches sent to the providers' }),
    resolved: z.number().int(),
    unmatched: z.number().int(),
    remaining: z.number().int().meta({ description: `Songs not looked at: past ${RESOLVE_SEARCH_LIMIT} searches, or after a stop` }),
    stopped: z.object({ error: z.string(), retry_after_s: z.number().nullable() }).nullable(),
    diff: diffSchema,
  })
  .meta({ id: 'LibraryDiffResolution' });

const overviewSchema = z
  .object({
    accounts: z.array(
      z.object({
        account_id: z.string(),
        provider: z.string(),
        provider_display_name: z.string(),
        display_name: z.string().nullable(),
        status: z.string(),
        health: z.enum(['ok', 'reconnect', 'not_read']),
        demo: z.boolean(),
        fetched_at: z.string().nullable(),
        playlists: z.number().int().nullable(),
        tracks_read: z.number().int(),
      }),
    ),
    jobs: z.object({
      active: z.number().int(),
      recent: z
        .array(
          z.object({
            id: z.string(),
            name: z.string().nullable(),
            status: z.string(),
            outcome: z.string(),
            origin: z.string(),
            source_kind: z.string(),
            source_provider: z.string(),
            target_provider: z.string(),
            created_at: z.string(),
            completed_at: z.string().nullable(),
          }),
        )
        .max(OVERVIEW_RECENT_JOBS),
    }),
    sync_rules: z.object({
      total: z.number().int(),
      needing_attention: z.array(
        z.object({
          id: z.string(),
          name: z.string(),
          status: z.string(),
          pause_code: z.string().nullable(),
          pause_reason: z.string().nullable(),
          consecutive_failures: z.number().int(),
          source_provider: z.string(),
          target_provider: z.string(),
        }),
      ),
    }),
    reviews: z.object({
      items: z.number().int(),
      jobs: z.array(z.object({ job_id: z.string(), name: z.string().nullable(), origin: z.string(), source_provider: z.string(), target_provider: z.string(), created_at: z.string(), items: z.number().int() })),
    }),
  })
  .meta({ id: 'HomeOverview' });

const refreshSchema = z.object({
  account_id: z.string(),
  provider: z.string(),
  playlists: z.number().int(),
  read: z.number().int(),
  unchanged: z.number().int(),
  failed: z.array(z.object({ playlist_id: z.string(), name: z.string(), error: z.string() })),
  fetched_at: z.string(),
});

const targetQuery = z
  .object({ target_provider: z.string().min(1).max(100).optional(), target_account_id: z.uuid().optional() })
  .refine((query) => (query.target_provider === undefined) === (query.target_account_id === undefined), 'target_provider and target_account_id come together');

const membersBody = (min: number) => z.object({ members: z.array(memberKey).min(min).max(100) });

function workspaceProblem(error: unknown): unknown {
  if (error instanceof WorkspaceError) {
    if (error.code === 'not_found') return new AppError('not_found', error.message);
    if (error.code === 'not_read') return new AppError('conflict', error.message, { extensions: { action: { type: 'refresh_account' } } });
    return new AppError('unprocessable_content', error.message);
  }
  return providerProblem(error);
}

export const libraryWorkspaceRoutes: FastifyPluginAsyncZod<{ workspace: WorkspaceApi }> = async (app, { workspace }) => {
  app.get(
    '/api/library/workspace',
    {
      schema: {
        tags: ['library'],
        summary: "Every connected account's playlists grouped into same-playlist groups, with reasons, coverage and (given a target account) migration status; from caches, no provider call",
        querystring: targetQuery,
        response: { 200: workspaceSchema, 404: problemResponse('No such target account'), 422: problemResponse('The target account is not of target_provider') },
      },
    },
    async (request) => {
      const owner = requireOwner(request, 'read the library workspace');
      const { target_provider: provider, target_account_id: accountId } = request.query;
      try {
        return await workspace.workspace(owner.id, provider && accountId ? { provider, accountId } : null);
      } catch (error) {
        throw workspaceProblem(error);
      }
    },
  );

  app.get(
    '/api/library/overview',
    {
      schema: {
        tags: ['library'],
        summary: 'The Home overview: connected accounts and their health, recent and running jobs, sync rules needing attention, reviews waiting; a few aggregates, no provider call',
        response: { 200: overviewSchema },
      },
    },
    async (request) => workspace.overview(requireOwner(request, 'read the library overview').id),
  );

  app.post(
    '/api/library/accounts/:account_id/refresh',
    {
      schema: {
        tags: ['library'],
        summary: "Reads one account's playlist list again, and the playlists that changed since they were cached (all with full=true)",
        params: z.object({ account_id: z.uuid() }),
        body: z.object({ full: z.boolean().default(false) }).default({ full: false }),
        response: {
          200: refreshSchema,
          404: problemResponse('No such account'),
          409: problemResponse('The account needs reconnecting (`action.type` = reconnect_account)'),
          429: problemResponse('The provider asks to slow down (Retry-After)'),
          502: problemResponse('The provider failed or could not be reached'),
        },
      },
    },
    async (request) => {
      const owner = requireOwner(request, 'refresh the library workspace');
      try {
        return await workspace.refresh(owner.id, request.params.account_id, request.body?.full ?? false);
      } catch (error) {
        throw workspaceProblem(error);
      }
    },
  );

  for (const [action, summary, min] of [
    ['join', "Joins the groups of the given members into one (stored; nothing changes on the providers)", 2],
    ['split', 'Takes the given members out of their group, for good (stored; nothing changes on the providers)', 1],
  ] as const) {
    app.post(
      `/api/library/groups/${action}`,
      {
        schema: {
          tags: ['library'],
          summary,
          body: membersBody(min),
          response: { 200: workspaceSchema, 404: problemResponse('A member is not in the workspace'), 422: problemResponse('Nothing to join or split') },
        },
      },
      async (request) => {
        const owner = requireOwner(request, `${action} library groups`);
        try {
          return await workspace[action](owner.id, request.body.members);
        } catch (error) {
          throw workspaceProblem(error);
        }
      },
    );
  }

  app.get(
    '/api/library/diff',
    {
      schema: {
        tags: ['library'],
        summary: 'Songs only in member a, only in b, in both, in another order, and not compared yet (unknown identity); from caches, no provider call',
        querystring: z.object({ a: memberKey, b: memberKey }),
        response: { 200: diffSchema, 404: problemResponse('A member is not in the workspace'), 409: problemResponse('A member\'s songs were not read yet (`action.type` = refresh_account)') },
      },
    },
    async (request) => {
      const owner = requireOwner(request, 'compare library playlists');
      try {
        return await workspace.diff(owner.id, request.query.a, request.query.b);
      } catch (error) {
        throw workspaceProblem(error);
      }
    },
  );

  app.post(
    '/api/library/diff/resolve',
    {
      schema: {
        tags: ['library'],
        summary: `Resolves the songs a diff could not compare by matching each on the other member's account (an import's songs on the account it is compared with, each match remembered for the import): provider searches (at most the diff's searches_needed, ${RESOLVE_SEARCH_LIMIT} a request); answers how many it made and the new diff`,
        body: z.object({ a: memberKey, b: memberKey }),
        response: {
          200: resolveSchema,
          404: problemResponse('A member is not in the workspace'),
          409: problemResponse("A member's songs were not read yet (`action.type` = refresh_account), or an account needs reconnecting"),
          422: problemResponse('Both members are imports: neither can be searched'),
        },
      },
    },
    async (request) => {
      const owner = requireOwner(request, 'resolve songs not compared yet');
      try {
        return await workspace.resolve(owner.id, request.body.a, request.body.b);
      } catch (error) {
        throw workspaceProblem(error);
      }
    },
  );
};
