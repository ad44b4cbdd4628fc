import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LIBRARY_PAGE_DEFAULT, LIBRARY_PAGE_MAX, LibraryUnsupportedError, type LibraryReadService } from '../../services/library/index.ts';
import { AppError, problemResponse } from '../errors/index.ts';
import { requireOwner } from '../owner/owner-gate.ts';
import { providerProblem } from './provider-problems.ts';

/**
 * `/api/library`: a connected account's saved albums and followed artists, one provider page per
 * request (`next_cursor` asks for the next one), for choosing them in the migration wizard.
 */

export type LibraryApi = Pick<LibraryReadService, 'albums' | 'artists'>;

const providerUris = z.record(z.string(), z.string());

const albumSchema = z
  .looseObject({
    id: z.string().nullable(),
    title: z.string(),
    artists: z.array(z.string()),
    release_year: z.number().int().nullable(),
    track_count: z.number().int().nullable(),
    artwork_uri: z.string().nullable(),
    provider_uris: providerUris,
    source_item_id: z.string().nullable(),
    added_at: z.string().nullable(),
  })
  .meta({ id: 'LibraryAlbum' });

const artistSchema = z
  .looseObject({
    id: z.string().nullable(),
    name: z.string(),
    artwork_uri: z.string().nullable(),
    provider_uris: providerUris,
    source_item_id: z.string().nullable(),
    added_at: z.string().nullable(),
  })
  .meta({ id: 'LibraryArtist' });

const query = z.object({
  account_id: z.uuid(),
  cursor: z.string().min(1).max(4_000).optional(),
  limit: z.coerce.number().int().min(1).max(LIBRARY_PAGE_MAX).default(LIBRARY_PAGE_DEFAULT),
});

const page = <T extends z.ZodType>(item: T) => z.object({ account_id: z.string(), provider: z.string(), next_cursor: z.string().nullable(), items: z.array(item) });

const errors = {
  404: problemResponse('No such account'),
  409: problemResponse('The account needs reconnecting (`action.type` = reconnect_account)'),
  422: problemResponse("The account's service has no such library (`provider_unsupported`)"),
  429: problemResponse('The provider asks to slow down (Retry-After)'),
  502: problemResponse('The provider failed or could not be reached'),
};

function libraryProblem(error: unknown): unknown {
  if (error instanceof LibraryUnsupportedError) return new AppError('provider_unsupported', error.message);
  return providerProblem(error);
}

export const libraryRoutes: FastifyPluginAsyncZod<{ library: LibraryApi }> = async (app, { library }) => {
  app.get(
    '/api/library/albums',
    {
      schema: {
        tags: ['library'],
        summary: "One page of a connected account's saved albums (when its service keeps them)",
        querystring: query,
        response: { 200: page(albumSchema), ...errors },
      },
    },
    async (request) => {
      const owner = requireOwner(request, 'read saved albums');
      try {
        return await library.albums(owner.id, request.query.account_id, request.query.cursor ?? null, request.query.limit);
      } catch (error) {
        throw libraryProblem(error);
      }
    },
  );

  app.get(
    '/api/library/artists',
    {
      schema: {
        tags: ['library'],
        summary: "One page of a connected account's followed artists (when its service keeps them)",
        querystring: query,
        response: { 200: page(artistSchema), ...errors },
      },
    },
    async (request) => {
      const owner = requireOwner(request, 'read followed artists');
      try {
        return await library.artists(owner.id, request.query.account_id, request.query.cursor ?? null, request.query.limit);
      } catch (error) {
        throw libraryProblem(error);
      }
    },
  );
};
