import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { PlaylistReadService } from '../../services/playlists/playlist-read.service.ts';
import { problemResponse } from '../errors/index.ts';
import { requireOwner } from '../owner/owner-gate.ts';
import { providerProblem } from './provider-problems.ts';

/** `/api/playlists`: read a connected account's playlists (cached; `refresh=true` reads again). */

export type PlaylistsApi = Pick<PlaylistReadService, 'list' | 'read'>;

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

const playlistSummarySchema = z.looseObject(summaryShape).meta({ id: 'PlaylistSummary' });
const playlistSchema = z.looseObject({ ...summaryShape, tracks: z.array(trackSchema) }).meta({ id: 'ProviderPlaylist' });

const query = z.object({
  account_id: z.uuid(),
  refresh: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((value) => value === 'true' || value === '1'),
});

const providerErrors = {
  404: problemResponse('No such account or playlist'),
  409: problemResponse('The account needs reconnecting (`action.type` = reconnect_account)'),
  429: problemResponse('The provider asks to slow down (Retry-After)'),
  502: problemResponse('The provider failed or could not be reached'),
};

export const playlistRoutes: FastifyPluginAsyncZod<{ playlists: PlaylistsApi }> = async (app, { playlists }) => {
  app.get(
    '/api/playlists',
    {
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
      const owner = requireOwner(request, 'read playlists');
      try {
        return await playlists.list(owner.id, request.query.account_id, request.query.refresh);
      } catch (error) {
        throw providerProblem(error);
      }
    },
  );

  app.get(
    '/api/playlists/:playlist_id',
    {
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
      const owner = requireOwner(request, 'read playlists');
      try {
        return await playlists.read(owner.id, request.query.account_id, request.params.playlist_id, request.query.refresh);
      } catch (error) {
        throw providerProblem(error);
      }
    },
  );
};
