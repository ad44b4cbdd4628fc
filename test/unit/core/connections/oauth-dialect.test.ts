import { describe, expect, it } from 'vitest';
import { authMethodSchema, manifestSchema } from '@opl/plugin-sdk/schemas';
import { createRedactor, secretsOf } from '@opl/plugin-sdk/sandbox';
import { AUTH_STRATEGIES, type StrategyContext } from '../../../../core/services/connections/auth/index.ts';
import { parseTokenResponse } from '../../../../core/services/connections/auth/oauth-http.ts';
import { clientAuth } from '../../../../core/services/connections/auth/oauth-pkce.strategy.ts';
import { credentialAttachments } from '../../../../core/services/connections/credential-attachment.ts';

/**
 * The OAuth dialect options of a manifest's auth method (Deezer-style: `app_id`/`secret`/`perms`,
 * comma-separated scopes, no PKCE, the code exchange as a GET query with `output=json`, a token
 * that never expires) and the token-in-URL credential placement (`credential_query_param`).
 */

const dialect = authMethodSchema.parse({
  kind: 'OAUTH_PKCE',
  oauth: {
    authorization_url: 'https://connect.example.com/oauth/auth.php',
    token_url: 'https://connect.example.com/oauth/access_token.php',
    pkce: false,
    scope_separator: ',',
    param_names: { client_id: 'app_id', client_secret: 'secret', scope: 'perms' },
    token_request: 'get_query',
    token_params: { output: 'json' },
  },
  base_scopes: ['basic_access', 'offline_access'],
  scopes: { READ_PLAYLISTS: ['basic_access'], ADD_TRACKS: ['manage_library'] },
  credential_origins: ['https://api.example.com'],
  credential_query_param: 'access_token',
  token_endpoint_auth: 'client_secret_post',
});

const network = [
  { origin: 'https://api.example.com', path_prefix: '/', methods: ['GET'], reason: 'API' },
  { origin: 'https://connect.example.com', path_prefix: '/oauth/', methods: ['GET'], reason: 'tokens' },
];

const manifest = manifestSchema.parse({
  manifest_version: 1,
  id: 'com.example.dialect',
  name: 'Dialect Music',
  version: '1.0.0',
  kind: 'provider',
  publisher: { name: 'x', key_id: 'key-1' },
  engines: { opl: '*' },
  files: { 'plugin.js': 'a'.repeat(64) },
  network,
  provider: { name: 'dialect', display_name: 'Dialect', capabilities: ['READ_PLAYLISTS', 'ADD_TRACKS'], attributes: { has_isrc: true, official: true }, write_constraints: {}, auth: [dialect] },
});

function context(overrides: Partial<StrategyContext> = {}): StrategyContext {
  return {
    provider: 'dialect',
    manifest,
    method: dialect,
    client: { client_id: 'app-7', client_secret: 'app-secret' },
    redirectUri: 'http://127.0.0.1:8765/api/auth/dialect/callback',
    originOverrides: {},
    deploymentMode: 'self_host',
    now: () => new Date('2026-11-21T12:00:00Z'),
    ...overrides,
  };
}

describe('OAuth dialect options', () => {
  it('keeps the standard when nothing is declared', () => {
    const standard = authMethodSchema.parse({ kind: 'OAUTH_PKCE', oauth: { authorization_url: 'https://a.example.com/authorize', token_url: 'https://a.example.com/token' } });
    expect(standard.oauth).toMatchObject({ pkce: true, scope_separator: ' ', param_names: { client_id: 'client_id', client_secret: 'client_secret', scope: 'scope' }, token_request: 'post_form', token_params: {} });
    expect(standard.credential_query_param).toBeNull();
  });

  it('builds the authorization URL under the provider’s parameter names, comma-separated, without PKCE', async () => {
    const begun = await AUTH_STRATEGIES.OAUTH_PKCE.begin(context(), { capabilities: ['READ_PLAYLISTS', 'ADD_TRACKS'], userClient: null });
    const url = new URL((begun.challenge as { redirect_url: string }).redirect_url);
    const params = Object.fromEntries(url.searchParams);
    expect(params).toMatchObject({ app_id: 'app-7', perms: 'basic_access,manage_library,offline_access', redirect_uri: 'http://127.0.0.1:8765/api/auth/dialect/callback' });
    expect(params['state']).toBe(begun.secrets['state']);
    for (const absent of ['client_id', 'scope', 'code_challenge', 'code_challenge_method']) expect(params).not.toHaveProperty(absent);
    expect(begun.secrets).not.toHaveProperty('code_verifier');
  });

  it('authenticates the exchange with the secret under the provider’s names', () => {
    expect(clientAuth(context(), { client_id: 'app-7', client_secret: 'app-secret' }).form).toEqual({ app_id: 'app-7', secret: 'app-secret' });
    // A client without a secret (the demo client) sends its id only.
    expect(clientAuth(context(), { client_id: 'opl-demo-client', client_secret: null }).form).toEqual({ app_id: 'opl-demo-client' });
  });

  it('completes without a verifier when the method has no PKCE, but still needs a code', async () => {
    await expect(AUTH_STRATEGIES.OAUTH_PKCE.complete(context(), { state: 's' }, [], { code: null })).rejects.toMatchObject({ code: 'invalid_callback' });
  });

  it('reads `expires` as the lifetime and 0 as a token that does not expire', () => {
    expect(parseTokenResponse({ access_token: 'tok', expires: '3600' }, 'https://connect.example.com')).toEqual({ access_token: 'tok', expires_in: 3600 });
    expect(parseTokenResponse({ access_token: 'tok', expires: 0 }, 'https://connect.example.com')).toEqual({ access_token: 'tok' });
    expect(parseTokenResponse({ access_token: 'tok', expires_in: 60 }, 'https://connect.example.com')).toEqual({ access_token: 'tok', expires_in: 60 });
  });
});

describe('credential_query_param', () => {
  it('attaches the token as a query parameter instead of a header', () => {
    const attached = credentialAttachments(manifest, dialect, { kind: 'token', access_token: 'tok-123456789' });
    expect(attached).toEqual([{ origin: 'https://api.example.com', headers: {}, query: { access_token: 'tok-123456789' }, token: null }]);
  });

  it('makes the redactor mask the token in plain and URL-encoded form', () => {
    const [attached] = credentialAttachments(manifest, dialect, { kind: 'token', access_token: 'tok/with+odd=chars' });
    const redactor = createRedactor(secretsOf([attached!]));
    expect(redactor.text('https://api.example.com/user/me?access_token=tok%2Fwith%2Bodd%3Dchars')).not.toContain('tok%2F');
    expect(redactor.text('echo tok/with+odd=chars')).not.toContain('tok/with');
  });
});
