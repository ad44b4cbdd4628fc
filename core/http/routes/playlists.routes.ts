import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { WorkspaceError, type WorkspaceService } from '../../services/library/index.ts';
import type { PlaylistReadService } from '../../services/playlists/playlist-read.service.ts';
import { AppError, problemResponse } from '../errors/index.ts';
import { migrationStatusSchema } from './library-workspace.routes.ts';
import { requireActor } from '../owner/owner-gate.ts';
import { providerProblem } from './provider-problems.ts';

/**
 * `/api/playlists`: read a connected account's playlists (cached; `refresh=true` reads again). With
 * a target context (`target_provider` and `target_account_id`) each playlist carries its
 * `migration_status` there (the Library workspace's status, from the ledger: no provider call).
 */

export type PlaylistsApi = Pick<PlaylistReadService, 'list' | 'read'>;
export type PlaylistStatusApi = Pick<WorkspaceService, 'statusesOf'>;

const trackSchema = z.looseObject({
  title: z.string(),
  artist: z.string(),
  album: z.string().nullable(),
  duration_s: z.number().nullable(),
  isrc: z.string().nullable(),
  explicit: z.boolean().nullable(),
  media_type: z.string(),
  is_migratable: z.boolean(),
  unsupported_reason: z.string().nullable(),
  position: z.number().int().nullable(),
});

const summaryShape = {
  id: z.string().nullable(),
  name: z.string(),
  description: z.string().nullable(),
  track_count: z.number().int().nullable(),
  owner_name: z.string().nullable(),
  is_owned: z.boolean().nullable(),
  is_followed: z.boolean().nullable(),
  collaborative: z.boolean().nullable(),
  snapshot_id: z.string().nullable(),
  kind: z.string(),
  artwork_uri: z.string().nullable(),
};

const statusSchema = migrationStatusSchema.nullable().optional();
const playlistSummarySchema = z.looseObject({ ...summaryShape, migration_status: statusSchema }).meta({ id: 'PlaylistSummary' });
const playlistSchema = z.looseObject({ ...summaryShape, migration_status: statusSchema, tracks: z.array(trackSchema) }).meta({ id: 'ProviderPlaylist' });

const query = z
  .object({
    account_id: z.uuid(),
    refresh: z
      .enum(['true', 'false', '1', '0'])
      .optional()
      .transform((value) => value === 'true' || value === '1'),
    target_provider: z.string().min(1).max(100).optional(),
    target_account_id: z.uuid().optional(),
  })
  .refine((value) => (value.target_provider === undefined) === (value.target_account_id === undefined), 'target_provider and target_account_id come together');

function statusProblem(error: unknown): unknown {
  if (error instanceof WorkspaceError) return new AppError(error.code === 'not_found' ? 'not_found' : 'unprocessable_content', error.message);
  return providerProblem(error);
}

const providerErrors = {
  404: problemResponse('No such account or playlist'),
  409: problemResponse('The account needs reconnecting (`action.type` = reconnect_account)'),
  429: problemResponse('The provider asks to slow down (Retry-After)'),
  502: problemResponse('The provider failed or could not be reached'),
};

export const playlistRoutes: FastifyPluginAsyncZod<{ playlists: PlaylistsApi; statuses: PlaylistStatusApi }> = async (app, { playlists, statuses }) => {
  app.get(
    '/api/playlists',
    {
      config: { shareRecipients: true },
      schema: {
        tags: ['playlists'],
        summary: "A connected account's playlists (liked songs first when the provider has them); cached until refresh=true",
        querystring: query,
        response: {
          200: z.object({ account_id: z.string(), provider: z.string(), cached: z.boolean(), fetched_at: z.string(), playlists: z.array(playlistSummarySchema) }),
          ...providerErrors,
        },
      },
    },
    async (request) => {
      const owner = requireActor(request, 'read playlists');
      const { account_id: accountId, target_provider: provider, target_account_id: targetAccountId } = request.query;
      try {
        const view = await playlists.list(owner.id, accountId, request.query.refresh);
        if (!provider || !targetAccountId) return view;
        const ids = view.playlists.flatMap((playlist) => (playlist.id ? [playlist.id] : []));
        const found = await statuses.statusesOf(owner.id, accountId, ids, { provider, accountId: targetAccountId });
        return { ...view, playlists: view.playlists.map((playlist) => ({ ...playlist, migration_status: (playlist.id && found.get(playlist.id)) || null })) };
      } catch (error) {
        throw statusProblem(error);
      }
    },
  );

  app.get(
    '/api/playlists/:playlist_id',
    {
      config: { shareRecipients: true },
      schema: {
        tags: ['playlists'],
        summary: 'One playlist with its tracks (`liked` for the liked songs); cached per snapshot id until refresh=true',
        params: z.object({ playlist_id: z.string().min(1).max(500) }),
        querystring: query,
        response: {
          200: z.object({ account_id: z.string(), provider: z.string(), cached: z.boolean(), fetched_at: z.string(), playlist: playlistSchema }),
          ...providerErrors,
        },
      },
    },
    async (request) => {
      const owner = requireActor(request, 'read playlists');
      const { account_id: accountId, target_provider: provider, target_account_id: targetAccountId } = request.query;
      try {
        const view = await playlists.read(owner.id, accountId, request.params.playlist_id, request.query.refresh);
        if (!provider || !targetAccountId) return view;
        const found = await statuses.statusesOf(owner.id, accountId, [request.params.playlist_id], { provider, accountId: targetAccountId });
        return { ...view, playlist: { ...view.playlist, migration_status: found.get(request.params.playlist_id) ?? null } };
      } catch (error) {
        throw statusProblem(error);
      }
    },
  );
};
