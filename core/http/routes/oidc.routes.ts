import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { OwnerSessionService } from '../../services/owner/owner-session.service.ts';
import type { SignInThrottle } from '../../services/sign-in/index.ts';
import { OidcSignInError, type OidcSignIn, type SignedIn } from '../../services/users/index.ts';
import { AppError, problemResponse } from '../errors/index.ts';
import { SESSION_COOKIE } from '../owner/owner-gate.ts';
import { signInAttempt, throttledSignIn } from '../owner/sign-in-guard.ts';

/** Binds a sign-in to the browser that began it. Lax: the provider's redirect back is a cross-site navigation. */
export const OIDC_ATTEMPT_COOKIE = 'opl_oidc_attempt';
const ATTEMPT_COOKIE_PATH = '/api/auth/oidc';

export interface OidcRoutesOptions {
  /** Null when no OpenID provider is configured: the routes then answer 404 with the reason. */
  oidc: OidcSignIn | null;
  sessions: OwnerSessionService;
  throttle: SignInThrottle;
  publicBaseUrl: string | undefined;
  secureCookie: boolean;
}

function notConfigured(): AppError {
  return new AppError('not_found', 'This instance has no OpenID provider configured (OPL_OIDC_ISSUER), so there is no user sign-in here.');
}

function toAppError(error: OidcSignInError): AppError {
  return new AppError(error.code, error.message);
}

export const oidcRoutes: FastifyPluginAsyncZod<OidcRoutesOptions> = async (app, { oidc, sessions, throttle, publicBaseUrl, secureCookie }) => {
  app.get(
    '/api/auth/oidc/login',
    {
      schema: {
        tags: ['session'],
        summary: 'Starts a sign-in at the OpenID provider (hosted mode); redirects the browser there',
        description: 'Sets a short-lived HttpOnly cookie that binds the attempt to this browser; the provider sends the browser back to `/api/auth/oidc/callback`.',
        response: {
          302: z.null().describe('Redirect to the OpenID provider'),
          404: problemResponse('No OpenID provider is configured'),
          502: problemResponse('The OpenID provider cannot be reached (`oidc_provider_unavailable`)'),
        },
      },
    },
    async (_request, reply) => {
      if (!oidc) throw notConfigured();
      let started: Awaited<ReturnType<OidcSignIn['begin']>>;
      try {
        started = await oidc.begin();
      } catch (error) {
        throw error instanceof OidcSignInError ? toAppError(error) : error;
      }
      void reply.setCookie(OIDC_ATTEMPT_COOKIE, started.browserToken, { path: ATTEMPT_COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure: secureCookie, maxAge: started.maxAgeSeconds });
      return reply.redirect(started.url, 302);
    },
  );

  app.get(
    '/api/auth/oidc/callback',
    {
      schema: {
        tags: ['session'],
        summary: 'Where the OpenID provider sends the browser back; signs the user in and redirects to the app',
        description:
          'Checks the attempt (`state`, bound to this browser, used once), exchanges the code with its PKCE verifier, validates the ID token (signature, issuer, audience, expiry, nonce) and the allowed domains and groups, then sets the HttpOnly session cookie. Failed callbacks are throttled like failed sign-ins (429 `sign_in_locked`).',
        querystring: z.record(z.string(), z.string()),
        response: {
          302: z.null().describe('Signed in; redirect to the app'),
          400: problemResponse('Unknown, used, expired or foreign sign-in attempt (`oidc_attempt_invalid`)'),
          401: problemResponse('The provider refused, or its answer failed validation (`oidc_sign_in_failed`)'),
          403: problemResponse('The account may not sign in here: e-mail domain or group (`oidc_user_not_allowed`)'),
          404: problemResponse('No OpenID provider is configured'),
          429: problemResponse('Too many failed sign-ins (`sign_in_locked`, with `locked_until` and Retry-After)'),
          502: problemResponse('The OpenID provider cannot be reached (`oidc_provider_unavailable`)'),
        },
      },
      // The query holds the authorization code: never log the URL's query.
      logLevel: 'info',
    },
    async (request, reply) => {
      if (!oidc || !publicBaseUrl) throw notConfigured();
      const callbackUrl = new URL(request.url, `${publicBaseUrl}/`);
      const browserToken = request.cookies[OIDC_ATTEMPT_COOKIE];
      let user: SignedIn | null = null;
      let failure: OidcSignInError | null = null;
      const signedIn = await throttledSignIn(request, throttle, signInAttempt(request, 'oidc', 'callback'), async () => {
        try {
          user = await oidc.complete(callbackUrl, browserToken);
          return true;
        } catch (error) {
          if (!(error instanceof OidcSignInError)) throw error;
          failure = error;
          return false;
        }
      });
      void reply.clearCookie(OIDC_ATTEMPT_COOKIE, { path: ATTEMPT_COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure: secureCookie });
      if (!signedIn.right || user === null) throw toAppError(failure ?? new OidcSignInError('oidc_sign_in_failed', 'The sign-in failed.'));
      const { user: signedInUser, idToken } = user as SignedIn;
      const { token } = await sessions.create(signedInUser.id, (tokenHash) => oidc.sealIdToken(tokenHash, idToken));
      void reply.setCookie(SESSION_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'strict', secure: secureCookie, maxAge: sessions.ttlSeconds });
      signedIn.remember(reply, secureCookie);
      return reply.redirect('/', 302);
    },
  );
};
