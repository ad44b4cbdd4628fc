import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { demoChangeSchema, DemoEditError, type DemoEditService } from '../../services/demo/demo-edits.service.ts';
import { AppError, problemResponse } from '../errors/index.ts';
import { requireOwner } from '../owner/owner-gate.ts';
import { providerProblem } from './provider-problems.ts';

/**
 * `/api/demo`: what only demo mode (`OPL_DEMO=1`) offers. Outside demo mode every route here
 * answers 404, as if it did not exist.
 */

export type DemoApi = Pick<DemoEditService, 'change'>;

const demoChangeOutcomeSchema = z
  .object({
    account_id: z.string(),
    provider: z.string(),
    playlist_id: z.string(),
    change: z.enum(['add', 'remove', 'move']),
    title: z.string(),
    artist: z.string(),
    from: z.number().int().nullable().describe('0-based position before the change (`remove`, `move`)'),
    to: z.number().int().nullable().describe('0-based position after the change (`add`, `move`)'),
    track_count: z.number().int(),
    version_before: z.string().nullable().describe('The provider\'s version marker (snapshot id, modification time, checksum); null where it has none'),
    version_after: z.string().nullable(),
  })
  .meta({ id: 'DemoPlaylistChange' });

export const demoRoutes: FastifyPluginAsyncZod<{ demo: DemoApi | null }> = async (app, { demo }) => {
  app.post(
    '/api/demo/playlists/change',
    {
      schema: {
        tags: ['demo'],
        summary: 'Demo mode only: add, remove or move one song of a demo playlist, as its provider would, so a sync run has something to do',
        body: demoChangeSchema,
        response: {
          200: demoChangeOutcomeSchema,
          404: problemResponse('Demo mode is off, or no such demo account or playlist of the owner'),
          409: problemResponse('Nothing to change (`conflict`): no song to remove or move, or none left to add'),
        },
      },
    },
    async (request) => {
      const owner = requireOwner(request, 'change demo playlists');
      if (!demo) throw new AppError('not_found', 'Demo mode is off: demo playlists exist only with OPL_DEMO=1.');
      try {
        return await demo.change(owner.id, request.body);
      } catch (error) {
        if (error instanceof DemoEditError) throw new AppError(error.code === 'not_found' ? 'not_found' : 'conflict', error.message);
        throw providerProblem(error);
      }
    },
  );
};
