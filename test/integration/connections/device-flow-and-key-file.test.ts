import { stat, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authMethodSchema, manifestSchema } from '@opl/plugin-sdk/schemas';
import { AUTH_STRATEGIES, type StrategyContext } from '../../../core/services/connections/auth/index.ts';
import { seal, open } from '../../../core/services/connections/vault/credential-cipher.ts';
import { fileKeyProvider } from '../../../core/services/connections/vault/key-provider.ts';
import { formBody, sendJson, startFakeHttp, type StartedFakeHttp } from '../../fakes/fake-provider.ts';

/**
 * The device-code strategy (RFC 8628) against a small device-authorization server, and the
 * default vault key file. (The redirect flow is covered end to end in spotify-connection.test.ts.)
 */

let server: StartedFakeHttp;
let approved = false;
let polls = 0;

beforeAll(async () => {
  server = await startFakeHttp((request, response) => {
    const form = formBody(request.body);
    if (request.path === '/device/code') {
      if (form['client_id'] !== 'tv-client') return sendJson(response, 401, { error: 'invalid_client' });
      return sendJson(response, 200, { device_code: 'device-code-123456789', user_code: 'ABCD-EFGH', verification_url: 'https://www.example.com/device', expires_in: 1800, interval: 1 });
    }
    if (request.path === '/token') {
      polls += 1;
      if (form['grant_type'] === 'refresh_token') return sendJson(response, 200, { access_token: 'refreshed-access-token-0001', expires_in: 3600, token_type: 'Bearer' });
      if (form['device_code'] !== 'device-code-123456789') return sendJson(response, 400, { error: 'invalid_grant' });
      if (form['client_secret'] !== 'tv-secret') return sendJson(response, 401, { error: 'invalid_client' });
      if (!approved) return sendJson(response, 400, { error: polls === 2 ? 'slow_down' : 'authorization_pending' });
      return sendJson(response, 200, { access_token: 'device-access-token-0001', refresh_token: 'device-refresh-token-0001', expires_in: 3600, token_type: 'Bearer', scope: 'music.read' });
    }
    return sendJson(response, 404, { error: 'not_found' });
  });
});

afterAll(async () => {
  await server?.close();
});

function context(): StrategyContext {
  const method = authMethodSchema.parse({
    kind: 'OAUTH_DEVICE',
    device: { device_authorization_url: 'https://oauth.example.com/device/code', token_url: 'https://oauth.example.com/token' },
    scopes: { READ_PLAYLISTS: ['music.read'] },
    token_endpoint_auth: 'client_secret_post',
  });
  const manifest = manifestSchema.parse({
    manifest_version: 1,
    id: 'com.example.tv',
    name: 'TV Music',
    version: '1.0.0',
    kind: 'provider',
    publisher: { name: 'x', key_id: 'key-1' },
    engines: { opl: '*' },
    files: { 'plugin.js': 'a'.repeat(64) },
    provider: { name: 'tvmusic', display_name: 'TV Music', capabilities: ['READ_PLAYLISTS'], attributes: { has_isrc: false, official: false }, write_constraints: {}, auth: [method] },
  });
  return { provider: 'tvmusic', manifest, method, client: null, redirectUri: '', originOverrides: { 'https://oauth.example.com': server.baseUrl }, deploymentMode: 'self_host', now: () => new Date() };
}

describe('OAUTH_DEVICE', () => {
  it('shows a user code, polls while pending, and keeps the user-supplied client for refreshes', async () => {
    const strategy = AUTH_STRATEGIES.OAUTH_DEVICE;
    const begun = await strategy.begin(context(), { capabilities: ['READ_PLAYLISTS'], userClient: { client_id: 'tv-client', client_secret: 'tv-secret' } });
    expect(begun.challenge).toMatchObject({ shape: 'device_code', user_code: 'ABCD-EFGH', verification_url: 'https://www.example.com/device', poll_interval_s: 1 });
    expect(begun.scopes).toEqual(['music.read']);

    expect(await strategy.complete(context(), begun.secrets, begun.scopes, {})).toMatchObject({ status: 'pending' });
    expect(await strategy.complete(context(), begun.secrets, begun.scopes, {})).toMatchObject({ status: 'pending', retryAfterS: 10 });
    approved = true;
    const done = await strategy.complete(context(), begun.secrets, begun.scopes, {});
    expect(done).toMatchObject({ status: 'done', credential: { refreshToken: 'device-refresh-token-0001', scopes: ['music.read'], material: { client: { client_id: 'tv-client', client_secret: 'tv-secret' } } } });

    if (done.status !== 'done') throw new Error('not done');
    const refreshed = await strategy.refresh(context(), { ...done.credential, ownerId: 'local', accountId: 'a', version: 1, keyId: 'k', authKind: 'OAUTH_DEVICE', accountLabel: null });
    expect(refreshed).toMatchObject({ material: { secret: { access_token: 'refreshed-access-token-0001' } }, refreshToken: 'device-refresh-token-0001' });
  });

  it('says clearly when the provider refuses the client', async () => {
    await expect(AUTH_STRATEGIES.OAUTH_DEVICE.begin(context(), { capabilities: [], userClient: { client_id: 'wrong', client_secret: null } })).rejects.toMatchObject({ code: 'provider_refused' });
  });
});

describe('vault key file', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'opl-vault-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is created once with mode 0600, reused by later starts and concurrent ones', async () => {
    const path = join(dir, 'data', 'vault.key');
    const [a, b] = await Promise.all([fileKeyProvider(path), fileKeyProvider(path)]);
    expect(a.current().id).toBe(b.current().id);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    const sealed = seal(a, 'secret', 'aad');
    expect(open(await fileKeyProvider(path), sealed, 'aad')).toBe('secret');
    expect(await readFile(path, 'utf8')).not.toContain('secret');
  });

  it('refuses a damaged key file with a clear message instead of making a new key', async () => {
    const path = join(dir, 'broken.key');
    await import('node:fs/promises').then(({ writeFile }) => writeFile(path, '{"version":1,"keys":[]}'));
    await expect(fileKeyProvider(path)).rejects.toThrow(/not valid.*reconnected/);
  });

  it('never quotes a damaged key file in its message (a JSON error would show the text)', async () => {
    const path = join(dir, 'not-json.key');
    const secretLooking = 'c2VjcmV0LWtleS1tYXRlcmlhbC1kby1ub3Qtc2hvdw==';
    await import('node:fs/promises').then(({ writeFile }) => writeFile(path, `${secretLooking} trailing`));
    const refusal = await fileKeyProvider(path).then(
      () => new Error('the damaged key file was accepted'),
      (error: unknown) => error as Error,
    );
    expect(refusal.message).toMatch(/not valid \(not JSON\).*reconnected/);
    expect(refusal.message).not.toContain(secretLooking.slice(0, 12));
  });
});
