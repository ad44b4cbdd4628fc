import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { importCollectionIds, type ImportRecordContents } from '../../services/imports/index.ts';
import type { ShareRecipientService } from '../../services/shares/index.ts';
import { AppError, problemResponse } from '../errors/index.ts';
import { SHARE_SESSION_COOKIE } from '../owner/owner-gate.ts';
import { toAppError } from './imports.routes.ts';

/**
 * The share recipient's way in (spec Authentication 9): `POST /api/public/shares/{token}/recipient`
 * ("Copy to my account") makes the caller a recipient of that share — a share session cookie and
 * their own copy of the shared playlist as an import record — and `DELETE /api/public/share-session`
 * leaves. Under the share session the recipient connects their own provider account and migrates
 * the copy through the ordinary routes that declare `config.shareRecipients`.
 */

export interface ShareRecipientRoutesOptions {
  recipients: Pick<ShareRecipientService, 'join' | 'leave' | 'ttlSeconds'>;
  /** Reads this engine's share link into an import record of `ownerId` (the import preview of a share URL). */
  copyShare: (ownerId: string, shareUrl: string, requestOrigin: string) => Promise<ImportRecordContents>;
  publicBaseUrl: string | undefined;
  secureCookie: boolean;
}

const recipientSchema = z
  .object({
    share_id: z.string(),
    share_name: z.string(),
    expires_at: z.string().describe('When the share session ends (sooner when the share is revoked or expires)'),
    import_id: z.string().describe('The recipient\'s own copy of the shared playlist: migrate it with `POST /api/migrations` (`source_provider` `import`)'),
    collection_ids: z.array(z.string()).describe('The copy\'s playlist ids, for the migration\'s selection'),
  })
  .meta({ id: 'ShareRecipient' });

export const shareRecipientRoutes: FastifyPluginAsyncZod<ShareRecipientRoutesOptions> = async (app, { recipients, copyShare, publicBaseUrl, secureCookie }) => {
  app.post(
    '/api/public/shares/:token/recipient',
    {
      schema: {
        tags: ['shares'],
        summary: 'Become a recipient of a share: a share session cookie and your own copy of the playlist, to migrate into your own account',
        description:
          'Sets an HttpOnly, SameSite=Strict `opl_share_session` cookie (Secure on https) bound to this one share; only its hash is stored. Under it only the routes for connecting your own provider account, reading your copy and migrating it answer; they never reach the data of the person who shared. A caller already holding a session of this share keeps it (and gets a new copy). Revoking or expiring the share ends the session for new work (410 `share_ended`). The body must be a JSON object (`{}`), so no cross-site form can make a browser join.',
        params: z.object({ token: z.string().min(1).max(200).describe('The share token') }),
        body: z.object({}).strict(),
        response: {
          201: recipientSchema,
          403: problemResponse('The request came from another origin'),
          404: problemResponse('No such share: unknown, revoked or expired'),
          429: problemResponse('A per-user limit of the recipient is reached (hosted mode)'),
        },
      },
    },
    async (request, reply) => {
      const origin = publicBaseUrl ? new URL(publicBaseUrl).origin : `${request.protocol}://${request.host}`;
      if (request.headers.origin !== undefined && request.headers.origin !== origin) {
        throw new AppError('cross_origin_request', `Only pages of ${origin} may open a share session.`);
      }
      const joined = await recipients.join(request.params.token, request.cookies[SHARE_SESSION_COOKIE]);
      if (!joined) throw new AppError('not_found', 'No shared playlist answers to this link: it was revoked, has expired, or the link is mistyped.');
      let copy: ImportRecordContents;
      try {
        copy = await copyShare(joined.recipient.ownerId, `${origin}/share/${encodeURIComponent(request.params.token)}`, origin);
      } catch (error) {
        throw toAppError(error);
      }
      if (joined.sessionToken) {
        void reply.setCookie(SHARE_SESSION_COOKIE, joined.sessionToken, { path: '/', httpOnly: true, sameSite: 'strict', secure: secureCookie, maxAge: recipients.ttlSeconds });
      }
      void reply.header('cache-control', 'no-store');
      return reply.status(201).send({
        share_id: joined.recipient.shareId,
        share_name: joined.recipient.shareName,
        expires_at: joined.recipient.expiresAt.toISOString(),
        import_id: copy.id,
        collection_ids: importCollectionIds(copy.playlists),
      });
    },
  );

  app.delete(
    '/api/public/share-session',
    {
      schema: {
        tags: ['shares'],
        summary: 'Leave a share: ends the share session and clears its cookie (what was made under it stays with the recipient\'s accounts)',
        response: { 204: z.null().describe('Left') },
      },
    },
    async (request, reply) => {
      await recipients.leave(request.cookies[SHARE_SESSION_COOKIE]);
      void reply.clearCookie(SHARE_SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'strict', secure: secureCookie });
      return reply.status(204).send(null);
    },
  );
};
