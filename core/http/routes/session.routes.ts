import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Owner, OwnerPolicy } from '../../services/owner/owner.ts';
import type { OwnerSessionService } from '../../services/owner/owner-session.service.ts';
import { AppError, problemResponse } from '../errors/index.ts';
import { SESSION_COOKIE } from '../owner/owner-gate.ts';
import { signInAttempt, throttledSignIn } from '../owner/sign-in-guard.ts';
import type { SignInThrottle } from '../../services/sign-in/index.ts';
import type { SealedIdToken, User } from '../../services/users/index.ts';
import { requireOwner } from '../owner/owner-gate.ts';

const userSchema = z
  .object({
    id: z.string().describe('The user id; it owns everything this user creates'),
    email: z.string().nullable(),
    display_name: z.string().nullable(),
    is_admin: z.boolean().describe('Member of an admin group (OPL_OIDC_ADMIN_GROUPS)'),
  })
  .meta({ id: 'SignedInUser' });

const sessionSummarySchema = z
  .object({
    id: z.string(),
    created_at: z.string(),
    last_seen_at: z.string(),
    expires_at: z.string(),
    current: z.boolean().describe('The session of this request'),
  })
  .meta({ id: 'SessionSummary' });

const toUser = (user: User) => ({ id: user.id, email: user.email, display_name: user.displayName, is_admin: user.isAdmin });

const meSchema = z
  .object({
    owner_id: z.string().nullable().describe('The owner this session acts for; null in hosted mode without user authentication'),
    deployment_mode: z.enum(['self_host', 'hosted']),
    session: z.object({
      required: z.boolean().describe('True when private routes need a session (self-host with OPL_PUBLIC_BASE_URL, hosted with an OpenID provider)'),
      authenticated: z.boolean(),
      sign_in: z.enum(['owner_secret', 'oidc', 'none']).describe('How to get a session: the owner secret (POST /api/session), the OpenID provider (GET /api/auth/oidc/login), or nothing to sign in to'),
    }),
    user: userSchema.nullable().describe('Hosted mode: the signed-in user'),
    recipient: z
      .object({
        share_id: z.string(),
        share_name: z.string(),
        status: z.enum(['active', 'ended']).describe('`ended`: the share was revoked or expired, so nothing new can start under this session'),
      })
      .nullable()
      .describe('A share session: the request acts for a recipient of this share (their own accounts and copies only)'),
  })
  .meta({ id: 'CurrentOwner' });

export interface SessionRoutesOptions {
  policy: OwnerPolicy;
  sessions: OwnerSessionService;
  throttle: SignInThrottle;
  secureCookie: boolean;
  /** Hosted mode with an OpenID provider: reads the signed-in user. */
  users: { user(id: string): Promise<User | null>; endSessionUrl(sessionTokenHash: string, sealed: SealedIdToken | null): Promise<string | null> } | null;
}

export const sessionRoutes: FastifyPluginAsyncZod<SessionRoutesOptions> = async (app, { policy, sessions, throttle, secureCookie, users }) => {
  const signIn: 'oidc' | 'owner_secret' | 'none' = policy.userSignIn ? 'oidc' : policy.sessionGate ? 'owner_secret' : 'none';
  const userOf = async (owner: Owner | null) => (owner?.kind === 'user' && users ? await users.user(owner.id) : null);

  app.get(
    '/api/me',
    {
      config: { shareRecipients: true },
      schema: {
        tags: ['session'],
        summary: 'Who the current request acts for, and whether the owner-session gate is on',
        response: { 200: meSchema, 401: problemResponse('No owner session (session gate on)') },
      },
    },
    async (request) => {
      const owner = request.owner;
      const user = await userOf(owner);
      return {
        owner_id: owner?.kind === 'local' || owner?.kind === 'user' || owner?.kind === 'recipient' ? owner.id : null,
        deployment_mode: policy.deploymentMode,
        session: { required: policy.sessionGate, authenticated: policy.sessionGate && (owner?.kind === 'local' || owner?.kind === 'user'), sign_in: signIn },
        user: user ? toUser(user) : null,
        recipient: owner?.kind === 'recipient' ? { share_id: owner.shareId, share_name: owner.shareName, status: owner.shareLive ? ('active' as const) : ('ended' as const) } : null,
      };
    },
  );

  app.get(
    '/api/session',
    {
      schema: {
        tags: ['session'],
        summary: 'The current session and its user',
        response: {
          200: z.object({ session: sessionSummarySchema.omit({ current: true }), user: userSchema.nullable() }).meta({ id: 'CurrentSession' }),
          401: problemResponse('No session'),
          404: problemResponse('Sessions are off on this instance'),
        },
      },
    },
    async (request) => {
      const session = request.liveSession;
      if (!policy.sessionGate) throw new AppError('not_found', 'This instance has no sessions (nothing to sign in to).');
      if (!session || request.owner === null) throw new AppError('session_required', 'There is no session: sign in first.');
      const [summary] = (await sessions.list(session.userId)).filter((entry) => entry.id === session.id);
      if (!summary) throw new AppError('session_required', 'The session ended: sign in again.');
      const user = await userOf(request.owner);
      return { session: { id: summary.id, created_at: summary.createdAt.toISOString(), last_seen_at: summary.lastSeenAt.toISOString(), expires_at: summary.expiresAt.toISOString() }, user: user ? toUser(user) : null };
    },
  );

  app.get(
    '/api/sessions',
    {
      schema: {
        tags: ['session'],
        summary: 'The live sessions of the signed-in user (or of the owner), most recently used first',
        response: { 200: z.object({ sessions: z.array(sessionSummarySchema) }), 401: problemResponse('No session'), 404: problemResponse('Sessions are off on this instance') },
      },
    },
    async (request) => {
      if (!policy.sessionGate) throw new AppError('not_found', 'This instance has no sessions (nothing to sign in to).');
      const owner = requireOwner(request, 'list sessions');
      const list = await sessions.list(owner.kind === 'user' ? owner.id : null);
      return {
        sessions: list.map((entry) => ({ id: entry.id, created_at: entry.createdAt.toISOString(), last_seen_at: entry.lastSeenAt.toISOString(), expires_at: entry.expiresAt.toISOString(), current: entry.id === request.liveSession?.id })),
      };
    },
  );

  app.delete(
    '/api/sessions/:session_id',
    {
      schema: {
        tags: ['session'],
        summary: 'Revokes one of the signed-in user\'s sessions (sign out elsewhere)',
        params: z.object({ session_id: z.string().max(64) }),
        response: { 204: z.null().describe('Revoked'), 401: problemResponse('No session'), 404: problemResponse('No such session of this user') },
      },
    },
    async (request, reply) => {
      const owner = requireOwner(request, 'revoke sessions');
      if (!policy.sessionGate || !(await sessions.revokeById(request.params.session_id, owner.kind === 'user' ? owner.id : null))) {
        throw new AppError('not_found', 'No session with this id belongs to you.');
      }
      return reply.status(204).send(null);
    },
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
      if (policy.deploymentMode === 'hosted') {
        throw new AppError('not_found', 'A hosted instance has no owner secret: users sign in through the OpenID provider (GET /api/auth/oidc/login).');
      }
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
        description:
          'Hosted mode, when the OpenID provider advertises an `end_session_endpoint`: after our session ended, answers 200 with `end_session_url`, where the browser goes so the provider ends its session too (with `id_token_hint` and `post_logout_redirect_uri`, the instance’s start page).',
        response: {
          200: z.object({ end_session_url: z.string().url().describe('The provider’s end-session URL to send the browser to') }).describe('Logged out here; the provider’s session ends at `end_session_url`'),
          204: z.null().describe('Logged out'),
        },
      },
    },
    async (request, reply) => {
      const ended = await sessions.revoke(request.cookies[SESSION_COOKIE]);
      void reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'strict', secure: secureCookie });
      const endSessionUrl = ended && users ? await users.endSessionUrl(ended.tokenHash, ended.idToken) : null;
      if (endSessionUrl !== null) return reply.status(200).send({ end_session_url: endSessionUrl });
      return reply.status(204).send(null);
    },
  );
};
