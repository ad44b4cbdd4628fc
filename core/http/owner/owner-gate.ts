import type { FastifyInstance, FastifyRequest } from 'fastify';
import { resolveOwner, type Owner, type OwnerPolicy } from '../../services/owner/owner.ts';
import type { OwnerSessionService } from '../../services/owner/owner-session.service.ts';
import { AppError } from '../errors/index.ts';

export const SESSION_COOKIE = 'opl_session';

declare module 'fastify' {
  interface FastifyRequest {
    /** Resolved once per request by the owner gate; null only on public routes behind the gate. */
    owner: Owner | null;
  }
}

/** Routes under `/api` that answer without a session: logging in, and public share reads. */
/** A provider's redirect back after sign-in: a cross-site navigation, which never carries the SameSite=Strict session cookie. */
const AUTH_CALLBACK = /^\/api\/auth\/[a-z][a-z0-9_]{1,39}\/callback$/;

function isPublicApiRoute(method: string, path: string): boolean {
  if (path === '/api/session' && (method === 'POST' || method === 'DELETE')) return true;
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
  app.addHook('onRequest', async (request) => {
    const path = request.url.split('?')[0] ?? '/';
    const token = request.cookies[SESSION_COOKIE];
    const hasValidSession = policy.sessionGate ? await sessions.isValid(token) : false;
    request.owner = resolveOwner(policy, hasValidSession);
    // The interchange API (`/open-playlists/…`) is as private as `/api`.
    if (!policy.sessionGate || !(path.startsWith('/api/') || path.startsWith('/open-playlists/'))) return;
    if (allowedOrigin && !['GET', 'HEAD', 'OPTIONS'].includes(request.method)) {
      const origin = request.headers.origin;
      if (origin !== undefined && origin !== allowedOrigin) {
        throw new AppError('cross_origin_request', `Requests that change state must come from ${allowedOrigin}.`);
      }
    }
    if (request.owner === null && !isPublicApiRoute(request.method, path)) {
      throw new AppError('session_required', 'This instance is protected by an owner session. Log in with the owner secret (POST /api/session) and retry.');
    }
  });
}

/**
 * The owner a state-changing private route acts for. Hosted mode has no user authentication yet,
 * so routes that create migrations (and other owner data) refuse clearly instead of guessing.
 */
export function requireOwner(request: FastifyRequest, action: string): Extract<Owner, { kind: 'local' }> {
  const owner = request.owner;
  if (owner?.kind === 'local') return owner;
  if (owner?.kind === 'anonymous') {
    throw new AppError(
      'authentication_not_configured',
      `This hosted instance has no user authentication configured, so it cannot ${action}. Ask the administrator to configure user authentication, or run the engine in self_host mode.`,
    );
  }
  throw new AppError('session_required', 'Log in with the owner secret (POST /api/session) and retry.');
}
