import type { FastifyInstance, FastifyRequest } from 'fastify';
import { resolveOwner, type Owner, type OwnerPolicy } from '../../services/owner/owner.ts';
import type { LiveSession, OwnerSessionService } from '../../services/owner/owner-session.service.ts';
import { AppError } from '../errors/index.ts';

export const SESSION_COOKIE = 'opl_session';

declare module 'fastify' {
  interface FastifyRequest {
    /** Resolved once per request by the owner gate; null only on public routes behind the gate. */
    owner: Owner | null;
    /** The live session the request's cookie names (when the session gate is on), for listing and signing out. */
    liveSession: LiveSession | null;
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
export function registerOwnerGate(app: FastifyInstance, policy: OwnerPolicy, sessions: OwnerSessionService, publicBaseUrl: string | undefined): void {
  const allowedOrigin = publicBaseUrl ? new URL(publicBaseUrl).origin : undefined;
  app.decorateRequest('owner', null);
  app.decorateRequest('liveSession', null);
  app.addHook('onRequest', async (request) => {
    const path = request.url.split('?')[0] ?? '/';
    const token = request.cookies[SESSION_COOKIE];
    const session = policy.sessionGate ? await sessions.resolve(token) : null;
    request.liveSession = session;
    request.owner = resolveOwner(policy, session);
    // The interchange API (`/open-playlists/…`) is as private as `/api`.
    if (!policy.sessionGate || !(path.startsWith('/api/') || path.startsWith('/open-playlists/'))) return;
    if (allowedOrigin && !['GET', 'HEAD', 'OPTIONS'].includes(request.method)) {
      const origin = request.headers.origin;
      if (origin !== undefined && origin !== allowedOrigin) {
        throw new AppError('cross_origin_request', `Requests that change state must come from ${allowedOrigin}.`);
      }
    }
    if (request.owner === null && !isPublicApiRoute(request.method, path)) throw sessionRequired(policy);
  });
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
  if (owner?.kind === 'anonymous') {
    throw new AppError(
      'authentication_not_configured',
      `This hosted instance has no user authentication configured, so it cannot ${action}. Ask the administrator to configure user authentication, or run the engine in self_host mode.`,
    );
  }
  throw new AppError('session_required', 'Sign in and retry.');
}
