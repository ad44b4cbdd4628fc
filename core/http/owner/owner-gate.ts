import type { FastifyInstance, FastifyRequest } from 'fastify';
import { recipientOwner, resolveOwner, type Owner, type OwnerPolicy } from '../../services/owner/owner.ts';
import type { LiveSession, OwnerSessionService } from '../../services/owner/owner-session.service.ts';
import type { ShareRecipientService } from '../../services/shares/index.ts';
import { AppError } from '../errors/index.ts';

export const SESSION_COOKIE = 'opl_session';
/** A share recipient's session (spec Authentication 9): bound to one share, never to the owner. */
export const SHARE_SESSION_COOKIE = 'opl_share_session';

declare module 'fastify' {
  interface FastifyRequest {
    /** Resolved once per request by the owner gate; null only on public routes behind the gate. */
    owner: Owner | null;
    /** The live session the request's cookie names (when the session gate is on), for listing and signing out. */
    liveSession: LiveSession | null;
  }
  interface FastifyContextConfig {
    /**
     * The route serves share recipients too (connecting their own account, copying the shared
     * playlist, following their job); every other private route answers them 404, before it reads
     * anything, as if nothing were there.
     */
    shareRecipients?: boolean;
  }
}

/** Routes under `/api` that answer without a session: logging in, and public share reads. */
/** A provider's (or the OpenID provider's) redirect back after sign-in: a cross-site navigation, which never carries the SameSite=Strict session cookie. */
const AUTH_CALLBACK = /^\/api\/auth\/[a-z][a-z0-9_]{1,39}\/callback$/;

function isPublicApiRoute(method: string, path: string): boolean {
  if (path === '/api/session' && (method === 'POST' || method === 'DELETE')) return true;
  if (path === '/api/auth/oidc/login' && method === 'GET') return true;
  // The callback acts for the owner who began the attempt; its unguessable `state` names it.
  if (method === 'GET' && AUTH_CALLBACK.test(path)) return true;
  return path.startsWith('/api/public/');
}

/**
 * The server-side owner dependency. Every request gets `request.owner`; with the session gate on
 * (`OPL_PUBLIC_BASE_URL` set), every private `/api` route needs a valid owner session cookie, and
 * state-changing requests from another origin are refused (the cookie is SameSite=Strict too).
 */
export function registerOwnerGate(app: FastifyInstance, policy: OwnerPolicy, sessions: OwnerSessionService, recipients: Pick<ShareRecipientService, 'resolve'>, publicBaseUrl: string | undefined): void {
  const allowedOrigin = publicBaseUrl ? new URL(publicBaseUrl).origin : undefined;
  app.decorateRequest('owner', null);
  app.decorateRequest('liveSession', null);
  app.addHook('onRequest', async (request) => {
    const path = request.url.split('?')[0] ?? '/';
    const token = request.cookies[SESSION_COOKIE];
    const session = policy.sessionGate ? await sessions.resolve(token) : null;
    request.liveSession = session;
    request.owner = resolveOwner(policy, session);
    // A signed-in owner or user stays themself; without such a session a share session makes the
    // request the recipient's — also on an ungated self-host instance, whose owner it never is.
    const shareSession = request.cookies[SHARE_SESSION_COOKIE];
    if (shareSession && (session === null || request.owner === null)) {
      const recipient = await recipients.resolve(shareSession);
      if (recipient) request.owner = recipientOwner(recipient);
    }
    const isPrivate = path.startsWith('/api/') || path.startsWith('/open-playlists/');
    if (request.owner?.kind === 'recipient' && isPrivate && !isPublicApiRoute(request.method, path)) admitRecipient(request.routeOptions.config.shareRecipients === true);
    // The interchange API (`/open-playlists/…`) is as private as `/api`.
    if (!policy.sessionGate || !isPrivate) return;
    if (allowedOrigin && !['GET', 'HEAD', 'OPTIONS'].includes(request.method)) {
      const origin = request.headers.origin;
      if (origin !== undefined && origin !== allowedOrigin) {
        throw new AppError('cross_origin_request', `Requests that change state must come from ${allowedOrigin}.`);
      }
    }
    if (request.owner === null && !isPublicApiRoute(request.method, path)) throw sessionRequired(policy);
  });
}

/**
 * A recipient reaches only the routes made for them (whether their share still answers is checked
 * by `requireActor`, so that `/api/me` can still say it ended).
 */
function admitRecipient(routeServesRecipients: boolean): void {
  if (!routeServesRecipients) throw notForRecipients();
}

function notForRecipients(): AppError {
  return new AppError('not_found', 'Nothing here for a share session: it can connect your own provider account and copy the shared playlist into it. Sign in to this instance for anything else.');
}

function shareEnded(): AppError {
  return new AppError('share_ended', 'The playlist share this session belongs to was revoked or has expired, so nothing more can be done under it. Ask the person who shared it for a new link.');
}

/** How to get a session here: the owner secret (self-host) or the OpenID provider (hosted). */
function sessionRequired(policy: OwnerPolicy): AppError {
  if (policy.userSignIn) {
    return new AppError('session_required', 'Sign in first: open GET /api/auth/oidc/login in the browser, then retry.', { extensions: { sign_in: { method: 'oidc', url: '/api/auth/oidc/login' } } });
  }
  return new AppError('session_required', 'This instance is protected by an owner session. Log in with the owner secret (POST /api/session) and retry.', { extensions: { sign_in: { method: 'owner_secret', url: '/api/session' } } });
}

/**
 * The owner a private route acts for: the local owner, or hosted mode's signed-in user. Hosted
 * mode without user authentication refuses clearly instead of guessing.
 */
export function requireOwner(request: FastifyRequest, action: string): Extract<Owner, { kind: 'local' | 'user' }> {
  const owner = request.owner;
  if (owner?.kind === 'local' || owner?.kind === 'user') return owner;
  if (owner?.kind === 'recipient') throw notForRecipients();
  if (owner?.kind === 'anonymous') {
    throw new AppError(
      'authentication_not_configured',
      `This hosted instance has no user authentication configured, so it cannot ${action}. Ask the administrator to configure user authentication, or run the engine in self_host mode.`,
    );
  }
  throw new AppError('session_required', 'Sign in and retry.');
}

/**
 * The owner a route that serves share recipients acts for (`config.shareRecipients`): the owner or
 * user as `requireOwner` says, or the recipient — whose id scopes everything to what they made.
 */
export function requireActor(request: FastifyRequest, action: string): Extract<Owner, { kind: 'local' | 'user' | 'recipient' }> {
  const owner = request.owner;
  if (owner?.kind === 'recipient') {
    if (request.routeOptions.config.shareRecipients !== true) throw notForRecipients();
    if (!owner.shareLive) throw shareEnded();
    return owner;
  }
  return requireOwner(request, action);
}
