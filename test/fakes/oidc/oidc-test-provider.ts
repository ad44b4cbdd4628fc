import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import { exportJWK, generateKeyPair, importJWK, decodeJwt, SignJWT, type JWK, type JWTPayload } from 'jose';
import Provider from 'oidc-provider';
import { Agent, fetch as undiciFetch } from 'undici';
import type { CustomFetch } from 'openid-client';

/**
 * A real, certified OpenID provider (`oidc-provider`) in the test process, served over HTTPS with
 * the test-only certificate and signing ID tokens with an RS256 key made for the run. Users sign
 * in without a form: the test says who the next sign-in is (`nextUser`), and the interaction
 * endpoint finishes login and consent for them, as a person clicking through would.
 *
 * `fetch` is the fetch the engine's relying party gets (it trusts the test certificate). A test
 * may alter the next token response's ID token (`alterNextIdToken`): re-signed with the provider's
 * own key (expired, another audience or issuer), or with its signature broken — what a faulty or
 * hostile network path could deliver, which the engine must refuse.
 */

export interface TestIdpUser {
  email: string;
  email_verified?: boolean;
  name?: string;
  groups?: string[];
}

export type IdTokenAlteration = { kind: 'resign'; claims: (payload: JWTPayload) => JWTPayload } | { kind: 'tamper' };

const TLS_DIR = new URL('../../fixtures/tls/', import.meta.url);
export const TEST_IDP_CLIENT_ID = 'opl-test-client';
export const TEST_IDP_CLIENT_SECRET = 'test-only-oidc-client-secret-0123456789';

export interface TestIdp {
  issuer: string;
  fetch: CustomFetch;
  users: Map<string, TestIdpUser>;
  /** Who signs in at the next authorization request (their subject). */
  nextUser: string;
  alterNextIdToken(alteration: IdTokenAlteration): void;
  /** Follows the provider's redirects from an authorization URL to the callback URL it sends the browser to. */
  authorize(authorizationUrl: string): Promise<URL>;
  close(): Promise<void>;
}

/**
 * `redirectUri` may be a function: a browser test learns its engine's address only after the
 * provider is up (the engine needs the issuer to start); the provider is built at its first request.
 */
export async function startTestIdp(options: { redirectUri: string | (() => string) }): Promise<TestIdp> {
  const redirectUri = () => (typeof options.redirectUri === 'string' ? options.redirectUri : options.redirectUri());
  const [cert, key] = await Promise.all([readFile(new URL('test-only-registry.cert.pem', TLS_DIR)), readFile(new URL('test-only-registry.key.pem', TLS_DIR))]);
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const privateJwk: JWK = { ...(await exportJWK(privateKey)), kid: 'test-idp-key-1', alg: 'RS256', use: 'sig' };
  const signingKey = await importJWK(privateJwk, 'RS256');
  const users = new Map<string, TestIdpUser>();
  let alteration: IdTokenAlteration | null = null;

  const server: Server = createServer({ cert, key });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const issuer = `https://localhost:${typeof address === 'object' && address ? address.port : 0}`;

  const makeProvider = () => new Provider(issuer, {
    clients: [
      {
        client_id: TEST_IDP_CLIENT_ID,
        client_secret: TEST_IDP_CLIENT_SECRET,
        redirect_uris: [redirectUri()],
        // Sign-out at the provider (RP-initiated logout) sends the browser back to the instance's start page.
        post_logout_redirect_uris: [new URL('/', redirectUri()).href],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [privateJwk] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups'] },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['test-only-idp-cookie-key'] },
    ttl: { AuthorizationCode: 60, AccessToken: 600, IdToken: 600, Interaction: 600, Grant: 600, Session: 600 },
    async findAccount(_ctx, sub) {
      const user = users.get(sub);
      if (!user) return undefined;
      return { accountId: sub, claims: () => ({ sub, email: user.email, email_verified: user.email_verified ?? true, name: user.name ?? sub, groups: user.groups ?? [] }) };
    },
  });
  let built: { provider: Provider; handle: ReturnType<Provider['callback']> } | null = null;
  const provider = () => {
    if (built === null) {
      const made = makeProvider();
      built = { provider: made, handle: made.callback() };
    }
    return built;
  };
  const idp: TestIdp = {
    issuer,
    users,
    nextUser: '',
    alterNextIdToken(next) {
      alteration = next;
    },
    fetch: async (url, init) => {
      const answer = await undiciFetch(url, { ...init, body: init.body as string, dispatcher: agent });
      let body = await answer.text();
      if (alteration && url.endsWith('/token') && answer.status === 200) {
        const tokens = JSON.parse(body) as { id_token: string };
        tokens.id_token = await alter(tokens.id_token, alteration, signingKey);
        alteration = null;
        body = JSON.stringify(tokens);
      }
      // The relying party checks for the global Response class, not undici's.
      return new Response(body, { status: answer.status, headers: Object.fromEntries(answer.headers.entries()) });
    },
    async authorize(authorizationUrl) {
      const jar = new Map<string, string>();
      let next = new URL(authorizationUrl);
      for (let hop = 0; hop < 10; hop += 1) {
        if (next.href.startsWith(redirectUri())) return next;
        const answer = await undiciFetch(next, { redirect: 'manual', dispatcher: agent, headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') } });
        for (const line of answer.headers.getSetCookie()) {
          const [pair] = line.split(';');
          const eq = pair!.indexOf('=');
          jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
        }
        const location = answer.headers.get('location');
        await answer.arrayBuffer();
        if (!location) throw new Error(`the provider answered ${answer.status} without a redirect at ${next.pathname}`);
        next = new URL(location, next);
      }
      throw new Error('too many redirects at the provider');
    },
    async close() {
      await agent.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const agent = new Agent({ connect: { ca: cert } });
  server.on('request', (request, response) => {
    const path = request.url ?? '/';
    if (!path.startsWith('/interaction/')) {
      void provider().handle(request, response);
      return;
    }
    void (async () => {
      const { provider: op } = provider();
      const details = await op.interactionDetails(request, response);
      const accountId = idp.nextUser;
      const grant = new op.Grant({ accountId, clientId: String(details.params['client_id']) });
      grant.addOIDCScope(String(details.params['scope']));
      const grantId = await grant.save();
      await op.interactionFinished(request, response, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
    })().catch((error: unknown) => {
      response.writeHead(500).end(String(error));
    });
  });
  return idp;
}

async function alter(idToken: string, alteration: IdTokenAlteration, key: Awaited<ReturnType<typeof importJWK>>): Promise<string> {
  if (alteration.kind === 'tamper') {
    // Another subject in the payload, the original signature kept: the signature no longer verifies.
    const [header, payload, signature] = idToken.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as JWTPayload;
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString('base64url');
    return `${header}.${forged}.${signature}`;
  }
  const claims = alteration.claims(decodeJwt(idToken));
  return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'test-idp-key-1' }).sign(key);
}
