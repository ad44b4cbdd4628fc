import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { playlistSchema as modelPlaylistSchema } from '@opl/plugin-sdk/schemas';
import { z } from 'zod';
import { ImportRecordError, MAX_COLLECTION_ID_LENGTH } from '../../services/imports/index.ts';
import { renderSharePage, SHARE_PAGE_CSP, ShareError, ShareTooLargeError, type ShareService, type ShareSummary } from '../../services/shares/index.ts';
import { AppError, problemResponse } from '../errors/index.ts';
import { requireOwner } from '../owner/owner-gate.ts';
import { providerProblem } from './provider-problems.ts';

/**
 * `/api/shares` (the owner's shares: create, list, revoke), `GET /api/public/shares/{token}` (the
 * public snapshot JSON, no session) and `GET /share/{token}` (the public page). Public reads are
 * scoped by the token alone; an unknown, revoked or expired token is one and the same 404.
 */

export type SharesApi = Pick<ShareService, 'create' | 'list' | 'revoke' | 'publicSnapshot' | 'limits'>;

const MAX_EXPIRY_HOURS = 24 * 365;
const snapshotSchema = z
  .object({
    $schema: z.string(),
    schema_version: z.literal(1),
    source_provider: z.string().nullable(),
    playlists: z.array(z.looseObject({ name: z.string(), tracks: z.array(z.looseObject({ title: z.string(), artist: z.string() })) }).describe('Universal Playlist models')),
    warnings: z.array(z.unknown()),
  })
  .describe('An Open Playlist bundle v1 with one playlist; Content-Type application/vnd.open-playlist+json')
  .meta({ id: 'ShareSnapshot' });

const tokenParams = z.object({ token: z.string().min(1).max(200).describe('The share token') });

const shareSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    track_count: z.number().int(),
    source_provider: z.string().nullable().describe('`import` for an import record, else the provider'),
    status: z.enum(['active', 'revoked', 'expired']),
    created_at: z.string(),
    expires_at: z.string().nullable(),
    revoked_at: z.string().nullable(),
  })
  .meta({ id: 'Share' });

const createdShareSchema = shareSchema
  .extend({
    token: z.string().describe('Shown once: only a hash is stored'),
    url: z.string().describe('The public page, `{base}/share/{token}`; also importable through `POST /api/imports/url-preview`'),
    json_url: z.string().describe('The public snapshot JSON, `{base}/api/public/shares/{token}`'),
  })
  .meta({ id: 'CreatedShare' });

function shareView(share: ShareSummary): z.input<typeof shareSchema> {
  return {
    id: share.id,
    name: share.name,
    track_count: share.trackCount,
    source_provider: share.sourceProvider,
    status: share.status,
    created_at: share.createdAt.toISOString(),
    expires_at: share.expiresAt?.toISOString() ?? null,
    revoked_at: share.revokedAt?.toISOString() ?? null,
  };
}

function shareProblem(error: unknown): unknown {
  if (error instanceof ShareError) return new AppError('not_found', error.message);
  if (error instanceof ShareTooLargeError) return new AppError('unprocessable_content', error.message, { extensions: error.extensions });
  if (error instanceof ImportRecordError) return error.reason === 'expired' ? new AppError('gone', error.message) : new AppError('not_found', error.message);
  return providerProblem(error);
}

export const shareRoutes: FastifyPluginAsyncZod<{ shares: SharesApi; publicBaseUrl: string | undefined }> = async (app, { shares, publicBaseUrl }) => {
  const baseUrl = (request: FastifyRequest) => publicBaseUrl ?? `${request.protocol}://${request.host}`;

  app.post(
    '/api/shares',
    {
      schema: {
        tags: ['shares'],
        summary: 'Share one playlist of an import record or of a connected account as a public, read-only snapshot',
        description: `The snapshot is an Open Playlist bundle with the playlist and its tracks, without account data (owner, entry ids, added dates, provider metadata); at most OPL_SHARE_MAX_TRACKS tracks and OPL_SHARE_MAX_BYTES bytes. The token is returned once.`,
        body: z
          .object({
            source_provider: z.string().min(1).max(40).describe('`import` for an import record, else the provider of a connected account'),
            source_account_id: z.string().min(1).max(100).describe('The import record id, or the connected account id'),
            playlist_id: z.string().min(1).max(MAX_COLLECTION_ID_LENGTH).describe("The playlist's id (an import's playlist: its entry in `collection_ids` of `GET /api/imports/{id}`)"),
            expires_in_hours: z.number().int().min(1).max(MAX_EXPIRY_HOURS).optional().describe('Stop answering after this many hours; default: until revoked'),
          })
          .strict(),
        response: {
          201: createdShareSchema,
          400: problemResponse('Invalid body'),
          404: problemResponse('No such import, account or playlist for this owner'),
          409: problemResponse('The account needs reconnecting'),
          410: problemResponse('The import expired'),
          422: problemResponse('The playlist is larger than a share may be (`max_tracks`, `max_bytes`)'),
          429: problemResponse('The provider asks to slow down (Retry-After)'),
          502: problemResponse('The provider failed'),
        },
      },
    },
    async (request, reply) => {
      const owner = requireOwner(request, 'share playlists');
      const body = request.body;
      try {
        const { share, token } = await shares.create(owner.id, {
          sourceProvider: body.source_provider,
          sourceAccountId: body.source_account_id,
          playlistId: body.playlist_id,
          expiresInHours: body.expires_in_hours ?? null,
        });
        const base = baseUrl(request);
        return await reply.status(201).send({ ...shareView(share), token, url: `${base}/share/${token}`, json_url: `${base}/api/public/shares/${token}` });
      } catch (error) {
        throw shareProblem(error);
      }
    },
  );

  app.get(
    '/api/shares',
    {
      schema: {
        tags: ['shares'],
        summary: "The owner's shares, newest first (tokens are not stored, so links are shown only when a share is created)",
        response: { 200: z.object({ shares: z.array(shareSchema) }) },
      },
    },
    async (request) => {
      const owner = requireOwner(request, 'list shares');
      return { shares: (await shares.list(owner.id)).map(shareView) };
    },
  );

  app.delete(
    '/api/shares/:share',
    {
      schema: {
        tags: ['shares'],
        summary: 'Revoke a share (by its id or its token); its links answer 404 from then on',
        params: z.object({ share: z.string().min(1).max(200).describe('Share id or token') }),
        response: { 204: z.null().describe('Revoked'), 404: problemResponse('No such share for this owner') },
      },
    },
    async (request, reply) => {
      const owner = requireOwner(request, 'revoke shares');
      try {
        await shares.revoke(owner.id, request.params.share);
      } catch (error) {
        throw shareProblem(error);
      }
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/public/shares/:token',
    {
      schema: {
        tags: ['shares'],
        summary: 'The public snapshot of a share: an Open Playlist bundle v1 (no session needed)',
        params: tokenParams,
        response: {
          200: snapshotSchema,
          404: problemResponse('No such share: unknown, revoked or expired'),
        },
      },
    },
    async (request, reply) => {
      const snapshot = await shares.publicSnapshot(request.params.token);
      if (!snapshot) throw new AppError('not_found', 'No shared playlist answers to this link: it was revoked, has expired, or the link is mistyped.');
      // Revocation must take effect at once: nothing may keep a copy.
      void reply.header('cache-control', 'no-store').header('x-robots-tag', 'noindex').header('access-control-allow-origin', '*');
      return reply.type('application/vnd.open-playlist+json').send(snapshotSchema.parse(snapshot));
    },
  );

  app.get(
    '/share/:token',
    { schema: { hide: true, params: tokenParams } },
    async (request, reply) => {
      void reply.header('content-security-policy', SHARE_PAGE_CSP).header('cache-control', 'no-store').header('x-robots-tag', 'noindex');
      const snapshot = await shares.publicSnapshot(request.params.token);
      const parsed = snapshot ? modelPlaylistSchema.safeParse((snapshot.playlists as unknown[] | undefined)?.[0]) : null;
      if (!parsed?.success) {
        return reply
          .status(404)
          .type('text/html; charset=utf-8')
          .send(
            `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Share not found</title></head><body><main><h1>This shared playlist is not available</h1><p>The share was revoked, has expired, or the link is mistyped. Ask the person who shared it for a new link.</p></main></body></html>`,
          );
      }
      const base = baseUrl(request);
      const token = encodeURIComponent(request.params.token);
      const html = renderSharePage(parsed.data, { page: `${base}/share/${token}`, json: `/api/public/shares/${token}`, copy: `/#/copy/${token}` });
      return reply.type('text/html; charset=utf-8').send(html);
    },
  );
};

/** For building the server without a database (the OpenAPI generator): every call refuses. */
export function unavailableShares(limits: SharesApi['limits']): SharesApi {
  const refuse = async (): Promise<never> => {
    throw new Error('shares are not wired in this server');
  };
  return { create: refuse, list: refuse, revoke: refuse, publicSnapshot: refuse, limits };
}
