import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeAccountTokens } from '../../fakes/fake-provider.ts';
import { demoLibrary } from '../../fakes/seed-catalog.ts';
import { startFakeYtmusic, YOUTUBE_SCOPE, type FakeYtmusicServer } from '../../fakes/ytmusic/index.ts';
import { startConnectionApp, type ConnectionApp } from '../support/connection-app.ts';
import { expectNoSecretLeaked, listDemoPlaylists, providerListing } from '../support/provider-connection-kit.ts';

/**
 * Connecting a YouTube Music account end to end through the HTTP API with Google's device flow and
 * the user's own "TVs and limited input" client: begin (device code for the user's client) → the
 * user allows on the verification page → polling `complete` connects → the account is listed and
 * its playlists are read through the sandboxed plugin. Also: a denial, an unknown client, the
 * refresh with the user's client, and the demo-style automatic approval. The engine's OAuth calls
 * and the plugin's InnerTube calls both reach the fake through origin overrides.
 */

const CLIENT = { client_id: '123-tv.apps.googleusercontent.com', client_secret: 'GOCSPX-user-secret' };

let fake: FakeYtmusicServer;
let app: ConnectionApp;
let user: FakeAccountTokens;

const api = (path: string, init?: RequestInit) => app.api(path, init);

interface DeviceChallenge {
  state: string;
  shape: string;
  auth_kind: string;
  user_code: string;
  verification_url: string;
  poll_interval_s: number;
}

async function begin(body: Record<string, unknown>): Promise<DeviceChallenge> {
  const started = await api('/api/auth/ytmusic/begin', { method: 'POST', body: JSON.stringify({ auth_kind: 'OAUTH_DEVICE', client: CLIENT, ...body }) });
  expect(started.status, JSON.stringify(started.json)).toBe(200);
  return started.json as DeviceChallenge;
}

/** The user's part: open the verification page (Google's origin, here the fake) and allow or deny. */
async function decide(challenge: DeviceChallenge, decision: 'allow' | 'deny'): Promise<void> {
  const page = new URL(challenge.verification_url);
  const response = await fetch(`${fake.baseUrl}${page.pathname}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ user_code: challenge.user_code, decision }).toString() });
  expect(response.status).toBe(200);
}

/** Polls `complete` at the advertised interval until the attempt settles. */
async function poll(state: string): Promise<{ status: number; json: unknown; pendingAnswers: number }> {
  let pendingAnswers = 0;
  for (let attempt = 0; attempt < 30; attempt++) {
    const outcome = await api('/api/auth/ytmusic/complete', { method: 'POST', body: JSON.stringify({ state }) });
    if (outcome.status !== 202) return { ...outcome, pendingAnswers };
    pendingAnswers += 1;
    await new Promise((resolve) => setTimeout(resolve, 1_100));
  }
  throw new Error('the device flow never settled');
}

beforeAll(async () => {
  fake = await startFakeYtmusic({ deviceIntervalS: 1 });
  user = fake.createAccount({ displayName: 'Ada on YouTube', library: demoLibrary() });
  fake.registerClient({ clientId: CLIENT.client_id, clientSecret: CLIENT.client_secret });
  fake.setVerificationUser(user.userId);
  // No OAuth client configured for ytmusic: the user brings their own.
  app = await startConnectionApp({ providerOriginOverrides: fake.originOverrides }, { followRedirects: true });
}, 240_000);

afterAll(async () => {
  await app?.close();
  await fake?.close();
});

describe('connecting YouTube Music with the device flow', () => {
  let accountId = '';

  it('lists YouTube Music with both of its sign-in methods', async () => {
    expect(await providerListing(app, 'ytmusic')).toMatchObject({ connectable: true, auth_kinds: ['OAUTH_DEVICE', 'HEADER_PASTE'] });
  });

  it('shows a user code for the user\'s own client, connects once the user allows, and lists the account', async () => {
    const challenge = await begin({ account_label: 'Main' });
    expect(challenge).toMatchObject({ shape: 'device_code', auth_kind: 'OAUTH_DEVICE', verification_url: 'https://www.google.com/device', poll_interval_s: 1 });
    expect(challenge.user_code).toMatch(/^[A-Z]{3}-[A-Z]{3}-[A-Z]{3}$/);
    const deviceRequest = fake.requests.find((request) => request.path === '/device/code')!;
    expect(new URLSearchParams(deviceRequest.body).get('client_id')).toBe(CLIENT.client_id);
    expect(new URLSearchParams(deviceRequest.body).get('scope')).toBe(YOUTUBE_SCOPE);

    const waiting = await api('/api/auth/ytmusic/complete', { method: 'POST', body: JSON.stringify({ state: challenge.state }) });
    expect(waiting.status).toBe(202);
    expect(waiting.json).toMatchObject({ status: 'pending' });

    await decide(challenge, 'allow');
    const done = await poll(challenge.state);
    expect(done.status, JSON.stringify(done.json)).toBe(200);
    const account = (done.json as { account: { id: string; provider: string; display_name: string; provider_user_id: string; account_label: string; status: string } }).account;
    expect(account).toMatchObject({ provider: 'ytmusic', display_name: 'Ada on YouTube', provider_user_id: user.userId, account_label: 'Main', status: 'connected' });
    accountId = account.id;
    // The token request carried the user's client and its secret in the body (client_secret_post).
    const tokenRequest = fake.requests.filter((request) => request.path === '/token').at(-1)!;
    expect(new URLSearchParams(tokenRequest.body).get('client_secret')).toBe(CLIENT.client_secret);

    const listed = (await api('/api/auth/accounts')).json as { accounts: { id: string; provider: string }[] };
    expect(listed.accounts.filter((entry) => entry.provider === 'ytmusic').map((entry) => entry.id)).toEqual([accountId]);
  });

  it('reads the account\'s playlists through the plugin with the bearer token', async () => {
    await listDemoPlaylists(app, accountId);
    const innertube = fake.requests.filter((request) => request.path.startsWith('/youtubei/v1/'));
    expect(innertube.length).toBeGreaterThan(0);
    expect(innertube.every((request) => /^Bearer \S+$/.test(request.headers['authorization'] ?? ''))).toBe(true);
  });

  it('refreshes an expired token with the user\'s client', async () => {
    const bearer = fake.requests.filter((request) => request.path.startsWith('/youtubei/v1/')).at(-1)!.headers['authorization']!.slice('Bearer '.length);
    fake.expireAccessToken(bearer);
    const { status } = await api(`/api/playlists?account_id=${accountId}&refresh=true`);
    expect(status).toBe(200);
    const refresh = fake.requests.filter((request) => request.path === '/token' && request.body.includes('grant_type=refresh_token')).at(-1);
    expect(refresh).toBeDefined();
    expect(new URLSearchParams(refresh!.body).get('client_id')).toBe(CLIENT.client_id);
  });

  it('reports a denial at the provider', async () => {
    const challenge = await begin({});
    await decide(challenge, 'deny');
    const denied = await poll(challenge.state);
    expect(denied.status).toBe(422);
    expect(JSON.stringify(denied.json)).toMatch(/not granted|denied/i);
  });

  it('refuses a client Google does not know, before showing a code', async () => {
    const refused = await api('/api/auth/ytmusic/begin', { method: 'POST', body: JSON.stringify({ auth_kind: 'OAUTH_DEVICE', client: { client_id: 'unknown.apps.googleusercontent.com', client_secret: 'x' } }) });
    expect(refused.status).toBe(422);
  });

  it('connects a second account when the device code is approved while the engine waits (demo style)', async () => {
    const second = fake.createAccount({ displayName: 'Second Channel' });
    fake.setAuthorizeUser(second.userId);
    try {
      const challenge = await begin({ account_label: 'Work' });
      const done = await poll(challenge.state);
      expect(done.status).toBe(200);
      expect(done.pendingAnswers).toBeGreaterThan(0);
      expect(done.json).toMatchObject({ account: { provider_user_id: second.userId, account_label: 'Work' } });
    } finally {
      fake.setAuthorizeUser(null);
    }
  });

  it('never puts a token in an API answer or a log line', () => {
    const issued = new Set<string>([user.accessToken, user.refreshToken, CLIENT.client_secret]);
    for (const request of fake.requests) {
      const bearer = /^Bearer (\S+)$/.exec(request.headers['authorization'] ?? '')?.[1];
      if (bearer) issued.add(bearer);
      for (const match of request.body.matchAll(/(?:refresh_token|device_code)=([^&]+)/g)) issued.add(decodeURIComponent(match[1]!));
    }
    expectNoSecretLeaked(issued, app, 4);
  });
});
