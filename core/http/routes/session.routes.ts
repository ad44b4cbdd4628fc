import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { OwnerPolicy } from '../../services/owner/owner.ts';
import type { OwnerSessionService } from '../../services/owner/owner-session.service.ts';
import { AppError, problemResponse } from '../errors/index.ts';
import { SESSION_COOKIE } from '../owner/owner-gate.ts';
import { signInAttempt, throttledSignIn } from '../owner/sign-in-guard.ts';
import type { SignInThrottle } from '../../services/sign-in/index.ts';

const meSchema = z
  .object({
    owner_id: z.string().nullable().describe('The owner this session acts for; null in hosted mode until user authentication exists'),
    deployment_mode: z.enum(['self_host', 'hosted']),
    session: z.object({
      required: z.boolean().describe('True when the owner-session gate is on (OPL_PUBLIC_BASE_URL is set)'),
      authenticated: z.boolean(),
    }),
  })
  .meta({ id: 'CurrentOwner' });

export interface SessionRoutesOptions {
  policy: OwnerPolicy;
  sessions: OwnerSessionService;
  throttle: SignInThrottle;
  secureCookie: boolean;
}

export const sessionRoutes: FastifyPluginAsyncZod<SessionRoutesOptions> = async (app, { policy, sessions, throttle, secureCookie }) => {
  app.get(
    '/api/me',
    {
      schema: {
        tags: ['session'],
        summary: 'Who the current request acts for, and whether the owner-session gate is on',
        response: { 200: meSchema, 401: problemResponse('No owner session (session gate on)') },
      },
    },
    async (request) => ({
      owner_id: request.owner?.kind === 'local' ? request.owner.id : null,
      deployment_mode: policy.deploymentMode,
      session: { required: policy.sessionGate, authenticated: policy.sessionGate && request.owner !== null },
    }),
  );

  app.post(
    '/api/session',
    {
      schema: {
        tags: ['session'],
        summary: 'Log in with the owner secret; sets an HttpOnly session cookie',
        description:
          'Failed attempts are throttled per client address and for the owner account: after 5 failures from one address in 15 minutes each attempt waits longer before it is checked (0.5 s, doubling, up to 10 s); the 11th starts a lockout (1 minute, doubling with each lockout in a row, at most 15 minutes) answered with 429 `sign_in_locked`, `locked_until` and Retry-After. The account locks after 50 failures from anywhere. A success clears the counts and sets an `opl_device` cookie: attempts from a device that signed in before are counted on that device alone, so nobody else can lock it out.',
        body: z.object({ secret: z.string().min(1).max(1024) }).strict(),
        response: {
          204: z.null().describe('Logged in'),
          401: problemResponse('Wrong owner secret'),
          404: problemResponse('The session gate is off on this instance'),
          429: problemResponse('Too many failed attempts (`sign_in_locked`, with `locked_until` and Retry-After)'),
        },
      },
      // Never log the body: it holds the owner secret.
      logLevel: 'info',
    },
    async (request, reply) => {
      if (!policy.sessionGate) {
        throw new AppError('not_found', 'The owner-session gate is off on this instance (OPL_PUBLIC_BASE_URL is not set), so there is nothing to log in to.');
      }
      const secret = request.body.secret;
      const signedIn = await throttledSignIn(request, throttle, signInAttempt(request, 'owner_secret', 'owner'), () => sessions.verifySecret(secret));
      if (!signedIn.right) throw new AppError('invalid_owner_secret', 'The owner secret is not correct.');
      const { token } = await sessions.create();
      void reply.setCookie(SESSION_COOKIE, token, {
        path: '/',
        httpOnly: true,
        sameSite: 'strict',
        secure: secureCookie,
        maxAge: sessions.ttlSeconds,
      });
      signedIn.remember(reply, secureCookie);
      return reply.status(204).send(null);
    },
  );

  app.delete(
    '/api/session',
    {
      schema: {
        tags: ['session'],
        summary: 'Log out: revokes the session and clears its cookie',
        response: { 204: z.null().describe('Logged out') },
      },
    },
    async (request, reply) => {
      await sessions.revoke(request.cookies[SESSION_COOKIE]);
      void reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'strict', secure: secureCookie });
      return reply.status(204).send(null);
    },
  );
};
