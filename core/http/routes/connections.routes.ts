import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { CAPABILITIES } from '@opl/plugin-sdk';
import type { ConnectionService } from '../../services/connections/connection.service.ts';
import { isAppError, problemResponse } from '../errors/index.ts';
import { requireActor } from '../owner/owner-gate.ts';
import { providerProblem } from './provider-problems.ts';

/**
 * `/api/auth`: connect provider accounts (begin → challenge → complete or callback), list them,
 * label, test, reconnect and disconnect. No response ever contains a token: account views carry
 * only the non-secret facts of a credential.
 */

export type ConnectionsApi = Pick<ConnectionService, 'list' | 'get' | 'begin' | 'complete' | 'setLabel' | 'disconnect' | 'call'>;

const AUTH_KINDS = ['OAUTH_PKCE', 'OAUTH_DEVICE', 'HEADER_PASTE', 'DEVELOPER_USER_TOKEN', 'LONG_LIVED_TOKEN'] as const;

export const accountViewSchema = z
  .object({
    id: z.string(),
    provider: z.string(),
    provider_display_name: z.string(),
    plugin_id: z.string().nullable(),
    display_name: z.string().nullable(),
    provider_user_id: z.string().nullable(),
    account_label: z.string().nullable().describe('The user\'s own name for this account, to tell several accounts of one provider apart'),
    status: z.enum(['connected', 'reauth_required']),
    auth_kind: z.enum(AUTH_KINDS).nullable(),
    scopes: z.array(z.string()),
    expires_at: z.string().nullable().describe('When the current access token expires; the engine refreshes ahead of it'),
    connected_at: z.string(),
    demo: z.boolean(),
  })
  .meta({ id: 'AccountView' });

const formFieldSchema = z.object({ name: z.string(), label: z.string(), secret: z.boolean(), help: z.string().nullable() });

const challengeSchema = z
  .object({
    state: z.string().describe('Identifies this attempt; send it back to complete'),
    provider: z.string(),
    auth_kind: z.enum(AUTH_KINDS),
    shape: z.enum(['redirect', 'device_code', 'form']),
    expires_at: z.string(),
    instructions: z.string().nullable(),
    demo: z.boolean(),
    redirect_url: z.string().optional().describe('redirect: send the browser here'),
    user_code: z.string().optional().describe('device_code: the code the user enters at verification_url'),
    verification_url: z.string().optional(),
    poll_interval_s: z.number().int().optional().describe('device_code: poll complete this often'),
    form: z.object({ fields: z.array(formFieldSchema), submit_label: z.string() }).optional().describe('form: the fields to render and submit as `values`'),
    developer_token: z.string().optional().describe('DEVELOPER_USER_TOKEN: the developer JWT the client-side sign-in (MusicKit) needs'),
  })
  .meta({ id: 'AuthChallenge' });

const providerParams = z.object({ provider: z.string().regex(/^[a-z][a-z0-9_]{1,39}$/) });
const accountParams = z.object({ id: z.uuid() });

const completeBody = z
  .object({
    state: z.string().min(16).max(200),
    values: z.record(z.string().regex(/^[a-z][a-z0-9_]*$/).max(50), z.string().max(16_384)).optional().describe('form: the submitted field values'),
    code: z.string().min(1).max(4_000).optional().describe('redirect: the authorization code, when the client handles the callback itself'),
    error: z.string().max(200).optional(),
  })
  .strict();

/** The base URL the provider sends the browser back to: the public base URL, else this request's origin. */
function redirectBase(request: FastifyRequest, publicBaseUrl: string | undefined): string {
  return publicBaseUrl ?? `${request.protocol}://${request.host}`;
}

async function orProblem<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw providerProblem(error);
  }
}

export interface ConnectionRoutesOptions {
  connections: ConnectionsApi;
  publicBaseUrl: string | undefined;
}

export const connectionRoutes: FastifyPluginAsyncZod<ConnectionRoutesOptions> = async (app, { connections, publicBaseUrl }) => {
  app.get(
    '/api/auth/accounts',
    {
      config: { shareRecipients: true },
      schema: {
        tags: ['auth'],
        summary: 'Connected provider accounts of the current owner (never any token)',
        querystring: z.object({ provider: z.string().regex(/^[a-z][a-z0-9_]{1,39}$/).optional() }),
        response: { 200: z.object({ accounts: z.array(accountViewSchema) }) },
      },
    },
    async (request) => {
      const owner = requireActor(request, 'list connected accounts');
      return { accounts: await connections.list(owner.id, request.query.provider ?? null) };
    },
  );

  app.post(
    '/api/auth/:provider/begin',
    {
      config: { shareRecipients: true },
      schema: {
        tags: ['auth'],
        summary: 'Start connecting an account: returns the challenge to render (redirect, device code or form)',
        params: providerParams,
        body: z
          .object({
            account_label: z.string().max(100).nullable().optional(),
            auth_kind: z.enum(AUTH_KINDS).optional().describe('One of the provider\'s auth kinds; default: its first available one'),
            reconnect_account_id: z.uuid().optional().describe('Renew the credential of this account (it must be the same provider user)'),
            capabilities: z.array(z.enum(CAPABILITIES)).max(20).optional().describe('Connect only for these capabilities; scopes are the minimum they need'),
            client: z.object({ client_id: z.string().min(1).max(500), client_secret: z.string().max(2_000).nullable() }).optional().describe('Device flow: your own OAuth client'),
          })
          .strict()
          .default({}),
        response: {
          200: challengeSchema,
          403: problemResponse('Header paste is disabled in hosted mode'),
          404: problemResponse('No such provider, or the account to reconnect does not exist'),
          409: problemResponse('The provider cannot be connected here (e.g. no OAuth client configured)'),
          422: problemResponse('The provider refused to start the flow'),
        },
      },
    },
    async (request) => {
      const owner = requireActor(request, 'connect accounts');
      const body = request.body;
      return orProblem(() =>
        connections.begin(owner.id, request.params.provider, {
          accountLabel: body.account_label ?? null,
          authKind: body.auth_kind ?? null,
          reconnectAccountId: body.reconnect_account_id ?? null,
          capabilities: body.capabilities ?? null,
          userClient: body.client ?? null,
          redirectBase: redirectBase(request, publicBaseUrl),
        }),
      );
    },
  );

  app.post(
    '/api/auth/:provider/complete',
    {
      config: { shareRecipients: true },
      schema: {
        tags: ['auth'],
        summary: 'Finish connecting: submit form values, or poll a device code (202 while the user has not approved yet)',
        params: providerParams,
        body: completeBody,
        response: {
          200: z.object({ status: z.literal('connected'), account: accountViewSchema }),
          202: z.object({ status: z.literal('pending'), retry_after_s: z.number().int() }),
          403: problemResponse('Header paste is disabled in hosted mode'),
          404: problemResponse('Unknown or already used attempt'),
          409: problemResponse('A different provider account signed in than the one being reconnected'),
          410: problemResponse('The attempt expired'),
          422: problemResponse('The provider refused, access was denied, or a form value is invalid'),
        },
      },
    },
    async (request, reply) => {
      const owner = requireActor(request, 'connect accounts');
      const outcome = await orProblem(() => connections.complete(owner.id, request.params.provider, request.body));
      if (outcome.status === 'pending') {
        void reply.header('retry-after', String(outcome.retry_after_s));
        return reply.code(202).send(outcome);
      }
      return outcome;
    },
  );

  app.get(
    '/api/auth/:provider/callback',
    {
      schema: {
        tags: ['auth'],
        summary: 'Where the provider sends the browser back after sign-in; completes and redirects to the Connections page',
        params: providerParams,
        querystring: z.object({ code: z.string().max(4_000).optional(), state: z.string().max(200).optional(), error: z.string().max(200).optional(), error_reason: z.string().max(200).optional().describe('Deezer names the refusal `error_reason`'), error_description: z.string().max(1_000).optional() }).passthrough(),
        response: { 303: z.null().describe('Redirect to /#/connections?connected=<account id> or ?auth_error=<code>&message=<text>') },
      },
    },
    async (request, reply) => {
      // No session here (a cross-site redirect from the provider): the attempt names its owner.
      const { code, state } = request.query;
      const error = request.query.error ?? request.query.error_reason;
      let target: string;
      if (!state) {
        target = `/#/connections?auth_error=invalid_callback&message=${encodeURIComponent('The provider came back without the state of a connection attempt. Start connecting again.')}&provider=${encodeURIComponent(request.params.provider)}`;
      } else {
        try {
          const outcome = await connections.complete(null, request.params.provider, { state, code: code ?? null, error: error ?? null });
          target = outcome.status === 'connected' ? `/#/connections?connected=${encodeURIComponent(outcome.account.id)}` : '/#/connections';
        } catch (caught) {
          const problem = providerProblem(caught);
          if (!isAppError(problem)) request.log.error({ err: caught }, 'auth callback failed');
          const codeName = isAppError(problem) ? problem.code : 'auth_failed';
          const message = isAppError(problem) ? problem.detail : 'The connection failed.';
          target = `/#/connections?auth_error=${encodeURIComponent(codeName)}&message=${encodeURIComponent(message.slice(0, 300))}&provider=${encodeURIComponent(request.params.provider)}`;
        }
      }
      return reply.code(303).header('location', target).header('cache-control', 'no-store').send(null);
    },
  );

  app.post(
    '/api/auth/accounts/:id/test',
    {
      config: { shareRecipients: true },
      schema: {
        tags: ['auth'],
        summary: 'Check that a connected account still works (refreshes its credential when due)',
        params: accountParams,
        response: {
          200: z.object({ ok: z.boolean(), status: z.enum(['connected', 'reauth_required']), display_name: z.string().nullable(), checked_at: z.string(), problem: z.object({ code: z.string(), detail: z.string() }).nullable() }),
          404: problemResponse('No such account'),
        },
      },
    },
    async (request) => {
      const owner = requireActor(request, 'test connected accounts');
      const account = await orProblem(() => connections.get(owner.id, request.params.id));
      const checkedAt = new Date().toISOString();
      try {
        const result = await connections.call(owner.id, account.id, 'testConnection', {});
        return { ok: result.ok, status: 'connected' as const, display_name: result.display_name ?? account.display_name, checked_at: checkedAt, problem: null };
      } catch (error) {
        const problem = providerProblem(error);
        if (!isAppError(problem)) throw error;
        const latest = await connections.get(owner.id, account.id);
        return { ok: false, status: latest.status, display_name: latest.display_name, checked_at: checkedAt, problem: { code: problem.code, detail: problem.detail } };
      }
    },
  );

  app.patch(
    '/api/auth/accounts/:id',
    {
      config: { shareRecipients: true },
      schema: {
        tags: ['auth'],
        summary: 'Rename a connected account (its label)',
        params: accountParams,
        body: z.object({ account_label: z.string().max(100).nullable() }).strict(),
        response: { 200: accountViewSchema, 404: problemResponse('No such account') },
      },
    },
    async (request) => {
      const owner = requireActor(request, 'rename connected accounts');
      return orProblem(() => connections.setLabel(owner.id, request.params.id, request.body.account_label));
    },
  );

  app.delete(
    '/api/auth/accounts/:id',
    {
      config: { shareRecipients: true },
      schema: {
        tags: ['auth'],
        summary: 'Disconnect an account: revoke at the provider when possible, delete the stored credential',
        params: accountParams,
        response: { 204: z.null(), 404: problemResponse('No such account') },
      },
    },
    async (request, reply) => {
      const owner = requireActor(request, 'disconnect accounts');
      await orProblem(() => connections.disconnect(owner.id, request.params.id));
      return reply.code(204).send(null);
    },
  );
};
