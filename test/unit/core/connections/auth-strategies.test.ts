import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { authMethodSchema, manifestSchema } from '@opl/plugin-sdk/schemas';
import { AUTH_STRATEGIES, AuthFlowError, scopesFor, type StrategyContext } from '../../../../core/services/connections/auth/index.ts';
import { DeveloperTokenSigner } from '../../../../core/services/connections/auth/developer-jwt.ts';
import { readFormValues } from '../../../../core/services/connections/auth/form-fields.ts';

const method = authMethodSchema.parse({
  kind: 'OAUTH_PKCE',
  oauth: { authorization_url: 'https://accounts.example.com/authorize', token_url: 'https://accounts.example.com/api/token' },
  base_scopes: ['user-read-private'],
  scopes: { READ_PLAYLISTS: ['playlist-read-private'], ADD_TRACKS: ['playlist-modify-private'], CREATE_PLAYLIST: ['playlist-modify-private'] },
  authorize_params: { show_dialog: 'true' },
});

const manifest = manifestSchema.parse({
  manifest_version: 1,
  id: 'com.example.music',
  name: 'Example Music',
  version: '1.0.0',
  kind: 'provider',
  publisher: { name: 'x', key_id: 'key-1' },
  engines: { opl: '*' },
  files: { 'plugin.js': 'a'.repeat(64) },
  provider: { name: 'example', display_name: 'Example', capabilities: ['READ_PLAYLISTS', 'ADD_TRACKS', 'CREATE_PLAYLIST'], attributes: { has_isrc: true, official: true }, write_constraints: {}, auth: [method] },
});

function context(overrides: Partial<StrategyContext> = {}): StrategyContext {
  return {
    provider: 'example',
    manifest,
    method,
    client: { client_id: 'client-1' },
    redirectUri: 'http://127.0.0.1:8765/api/auth/example/callback',
    originOverrides: {},
    deploymentMode: 'self_host',
    now: () => new Date('2026-11-21T12:00:00Z'),
    ...overrides,
  };
}

describe('scopes', () => {
  it('asks only for the scopes of the chosen capabilities, plus the base scopes', () => {
    expect(scopesFor(method, ['READ_PLAYLISTS'])).toEqual(['playlist-read-private', 'user-read-private']);
    expect(scopesFor(method, ['ADD_TRACKS', 'CREATE_PLAYLIST'])).toEqual(['playlist-modify-private', 'user-read-private']);
  });
});

describe('OAUTH_PKCE begin', () => {
  it('builds the authorization URL with S256 PKCE, state, scopes and extra parameters', async () => {
    const begun = await AUTH_STRATEGIES.OAUTH_PKCE.begin(context(), { capabilities: ['READ_PLAYLISTS'], userClient: null });
    expect(begun.challenge.shape).toBe('redirect');
    const url = new URL((begun.challenge as { redirect_url: string }).redirect_url);
    expect(url.origin + url.pathname).toBe('https://accounts.example.com/authorize');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: 'client-1',
      response_type: 'code',
      code_challenge_method: 'S256',
      redirect_uri: 'http://127.0.0.1:8765/api/auth/example/callback',
      scope: 'playlist-read-private user-read-private',
      show_dialog: 'true',
      state: begun.secrets['state'],
    });
    expect(url.searchParams.get('code_challenge')).not.toBe(begun.secrets['code_verifier']);
    expect(String(begun.secrets['code_verifier']).length).toBeGreaterThanOrEqual(43);
  });

  it('sends the browser to a fake provider when its origin is overridden', async () => {
    const begun = await AUTH_STRATEGIES.OAUTH_PKCE.begin(context({ originOverrides: { 'https://accounts.example.com': 'http://127.0.0.1:5555' } }), { capabilities: [], userClient: null });
    expect((begun.challenge as { redirect_url: string }).redirect_url.startsWith('http://127.0.0.1:5555/authorize?')).toBe(true);
  });

  it('is unavailable, with the variable to set, when no client is configured', () => {
    expect(AUTH_STRATEGIES.OAUTH_PKCE.unavailableReason(context({ client: null }))).toMatch(/OPL_PROVIDER_CLIENTS_FILE/);
  });

  it('turns a denied consent into access_denied', async () => {
    await expect(AUTH_STRATEGIES.OAUTH_PKCE.complete(context(), { code_verifier: 'v' }, [], { error: 'access_denied' })).rejects.toMatchObject({ code: 'access_denied' });
  });
});

describe('HEADER_PASTE', () => {
  const paste = authMethodSchema.parse({ kind: 'HEADER_PASTE', form_fields: [{ name: 'cookie', label: 'Cookie', header: 'cookie' }, { name: 'auth', label: 'Authorization', header: 'authorization' }] });

  it('is refused in hosted mode, at begin and at complete', async () => {
    const hosted = context({ method: paste, deploymentMode: 'hosted' });
    expect(AUTH_STRATEGIES.HEADER_PASTE.unavailableReason(hosted)).toMatch(/disabled on hosted/);
    await expect(AUTH_STRATEGIES.HEADER_PASTE.begin(hosted, { capabilities: [], userClient: null })).rejects.toBeInstanceOf(AuthFlowError);
    await expect(AUTH_STRATEGIES.HEADER_PASTE.complete(hosted, {}, [], { values: { cookie: 'a', auth: 'b' } })).rejects.toBeInstanceOf(AuthFlowError);
  });

  it('maps form fields to the declared request headers', async () => {
    const done = await AUTH_STRATEGIES.HEADER_PASTE.complete(context({ method: paste }), {}, [], { values: { cookie: 'SID=1', auth: 'SAPISIDHASH x' } });
    expect(done).toMatchObject({ status: 'done', credential: { material: { secret: { kind: 'headers', headers: { cookie: 'SID=1', authorization: 'SAPISIDHASH x' } } } } });
  });
});

describe('form values', () => {
  const fields = [{ name: 'token', label: 'Token', secret: true, help: null }];
  it('requires every field and refuses line breaks, unknown fields and huge values', () => {
    expect(readFormValues(fields, { token: '  abc  ' })).toEqual({ token: 'abc' });
    expect(() => readFormValues(fields, {})).toThrow('Token is required');
    expect(() => readFormValues(fields, { token: 'a\r\nX-Injected: 1' })).toThrow('line breaks');
    expect(() => readFormValues(fields, { token: 'a', extra: 'b' })).toThrow('Unknown field');
    expect(() => readFormValues(fields, { token: 'a'.repeat(20_000) })).toThrow('longer than');
  });
});

describe('developer JWT', () => {
  it('signs an ES256 token naming the team and key, verifiable with the public key', () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const signer = new DeveloperTokenSigner({ team_id: 'TEAM123', key_id: 'KEY456', private_key_pem: pem });
    const token = signer.token(new Date('2026-11-21T12:00:00Z'));
    const [header, payload, signature] = token.split('.');
    expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toEqual({ alg: 'ES256', kid: 'KEY456', typ: 'JWT' });
    expect(JSON.parse(Buffer.from(payload!, 'base64url').toString())).toMatchObject({ iss: 'TEAM123', iat: 1_795_262_400 });
    const valid = verify('sha256', Buffer.from(`${header}.${payload}`), { key: createPublicKey(privateKey), dsaEncoding: 'ieee-p1363' }, Buffer.from(signature!, 'base64url'));
    expect(valid).toBe(true);
  });

  it('refuses a key that is not P-256', () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    expect(() => new DeveloperTokenSigner({ team_id: 'T', key_id: 'K', private_key_pem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() })).toThrow('P-256');
  });
});
