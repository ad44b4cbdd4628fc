import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPluginCli } from '@opl/plugin-sdk/cli';
import { publishBundle, signBundle } from '@opl/plugin-sdk/tools';
import type { FakeAccountTokens } from '../../fakes/fake-provider.ts';
import { startFakeYoutube, type FakeYoutube } from '../../fakes/youtube/index.ts';
import { appBaseUrl } from '../support/connection-app.ts';
import { createPublisher, createTestRegistry, type TestRegistry } from '../support/plugin-registry.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * Connecting a YouTube account through the engine's HTTP API against the fake: the engine reads
 * the plugin's manifest (Google's endpoints, offline access, client_secret_post, minimal scopes)
 * and runs the PKCE redirect flow itself. And "off by default": without an OAuth client
 * registration for YouTube the provider is listed but cannot be connected.
 */

const CLIENT_ID = 'engine-test.apps.googleusercontent.com';
const CLIENT_SECRET = 'GOCSPX-engine-test-secret';

let fake: FakeYoutube;
let registry: TestRegistry;
let withClient: TestApp;
let user: FakeAccountTokens;

async function api(app: TestApp, path: string, init: RequestInit = {}): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${appBaseUrl(app)}${path}`, { ...init, redirect: 'manual', headers: { ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers } });
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as unknown) : null };
}

interface ProviderView {
  name: string;
  connectable: boolean;
}

beforeAll(async () => {
  fake = await startFakeYoutube();
  user = fake.createAccount({ displayName: 'Tube Listener', library: { playlists: [{ name: 'Connected', trackKeys: ['tr1', 'tr2'] }] } });
  fake.setAuthorizeUser(user.userId);
  // Only this plugin, built and signed with a test key named like the first-party one.
  const publisher = createPublisher('opl-first-party');
  registry = await createTestRegistry([publisher]);
  const work = await mkdtemp(join(tmpdir(), 'opl-youtube-bundle-'));
  try {
    let output = '';
    const io = { stdout: { write: (text: string) => (output += text) }, stderr: { write: (text: string) => (output += text) }, cwd: process.cwd() };
    if ((await runPluginCli(['build', 'plugins/providers/youtube', '--out', work], io)) !== 0) throw new Error(output);
    await signBundle(work, publisher.secret);
    await publishBundle(work, registry.dir, { publicKey: publisher.record });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  fake.registerClient({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
  withClient = await startTestApp(registry.env, { http: true, worker: false }, { providerOriginOverrides: fake.originOverrides, providerClients: { youtube: { client_id: CLIENT_ID, client_secret: CLIENT_SECRET } } });
}, 240_000);

afterAll(async () => {
  await withClient?.close();
  await fake?.close();
  await registry?.cleanup();
});

describe('YouTube connection', () => {
  it('is off until an admin registers an OAuth client for it', async () => {
    const without = await startTestApp(registry.env, { http: true, worker: false }, { providerOriginOverrides: fake.originOverrides });
    try {
      const { json } = await api(without, '/providers');
      expect((json as { providers: ProviderView[] }).providers.find((provider) => provider.name === 'youtube')).toMatchObject({ connectable: false });
      expect((await api(without, '/api/auth/youtube/begin', { method: 'POST', body: '{}' })).status).toBeGreaterThanOrEqual(400);
    } finally {
      await without.close();
    }
    const { json } = await api(withClient, '/providers');
    expect((json as { providers: ProviderView[] }).providers.find((provider) => provider.name === 'youtube')).toMatchObject({ connectable: true });
  });

  it('sends the browser to Google with PKCE, offline access and only the read-only scope for reads', async () => {
    const { json } = await api(withClient, '/api/auth/youtube/begin', { method: 'POST', body: JSON.stringify({ capabilities: ['READ_PLAYLISTS', 'READ_TRACKS'] }) });
    const url = new URL((json as { redirect_url: string }).redirect_url);
    expect(url.pathname).toBe('/o/oauth2/v2/auth');
    expect(url.searchParams.get('client_id')).toBe(CLIENT_ID);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('access_type')).toBe('offline');
    expect(url.searchParams.get('scope')!.split(' ')).toEqual(['https://www.googleapis.com/auth/youtube.readonly']);
  });

  it('completes the flow with the client secret at the token endpoint and lists the channel, never a token', async () => {
    const begin = await api(withClient, '/api/auth/youtube/begin', { method: 'POST', body: '{}' });
    const authorize = await fetch((begin.json as { redirect_url: string }).redirect_url, { redirect: 'manual' });
    expect(authorize.status).toBe(302);
    const landed = await fetch(authorize.headers.get('location')!, { redirect: 'manual' });
    expect(landed.status).toBe(303);
    expect(landed.headers.get('location')).toMatch(/connected=/);
    const tokenRequest = fake.requests.find((request) => request.path === '/token')!;
    expect(new URLSearchParams(tokenRequest.body).get('client_secret')).toBe(CLIENT_SECRET);
    const listed = await api(withClient, '/api/auth/accounts');
    const text = JSON.stringify(listed.json);
    expect((listed.json as { accounts: { provider: string; provider_user_id: string; display_name: string; status: string }[] }).accounts).toEqual([
      expect.objectContaining({ provider: 'youtube', provider_user_id: user.userId, display_name: 'Tube Listener', status: 'connected' }),
    ]);
    for (const token of fake.state.accessTokens.keys()) expect(text).not.toContain(token);
  });
});
