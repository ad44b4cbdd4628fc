import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeDeezer, type FakeDeezerServer } from '../../fakes/deezer/index.ts';
import type { FakeAccountTokens } from '../../fakes/fake-provider.ts';
import { demoLibrary, isAvailableOn, seedCatalog } from '../../fakes/seed-catalog.ts';
import { startConnectionApp, type ConnectionApp } from '../support/connection-app.ts';
import type { TestApp } from '../support/test-app.ts';

/**
 * Connecting a Deezer account end to end through the HTTP API, against the stateful fake: Deezer
 * Connect's dialect of the redirect flow (`app_id`, comma-separated `perms`, no PKCE, the code
 * exchanged by a GET with `app_id`/`secret`/`code`/`output=json`, a token that never expires
 * with `offline_access`), account listing without tokens, playlist reads with the token sent only
 * in the URL, and reconnection when Deezer stops accepting the token (there is no refresh token).
 */

interface AccountView {
  id: string;
  provider: string;
  display_name: string | null;
  provider_user_id: string | null;
  account_label: string | null;
  status: string;
  scopes: string[];
  expires_at: string | null;
}

const APP_ID = 'opl-test-deezer-app';
const APP_SECRET = 'deezer-app-secret-0123456789';

let fake: FakeDeezerServer;
let app: ConnectionApp;
let testApp: TestApp;
let baseUrl: string;
let user: FakeAccountTokens;
/** Every API answer, to prove none carries a token. */
let answers: string[];

const api = (path: string, init?: RequestInit) => app.api(path, init);

/** The browser's part of the redirect flow: Deezer's authorize page, then the engine's callback. */
async function connect(body: Record<string, unknown> = {}): Promise<{ location: string }> {
  const begin = await api('/api/auth/deezer/begin', { method: 'POST', body: JSON.stringify(body) });
  expect(begin.status).toBe(200);
  const challenge = begin.json as { shape: string; redirect_url: string };
  expect(challenge.shape).toBe('redirect');
  const authorize = await fetch(challenge.redirect_url, { redirect: 'manual' });
  expect(authorize.status).toBe(302);
  const callback = authorize.headers.get('location')!;
  expect(callback.startsWith(`${baseUrl}/api/auth/deezer/callback?`)).toBe(true);
  const landed = await fetch(callback, { redirect: 'manual' });
  answers.push(await landed.text());
  expect(landed.status).toBe(303);
  return { location: landed.headers.get('location')! };
}

async function accounts(): Promise<AccountView[]> {
  const { json } = await api('/api/auth/accounts');
  return (json as { accounts: AccountView[] }).accounts;
}

/** The access token the engine currently sends (read off the fake's request log: it is in the URL). */
function lastToken(): string {
  const request = [...fake.requests].reverse().find((entry) => entry.query['access_token']);
  return request!.query['access_token']!;
}

beforeAll(async () => {
  fake = await startFakeDeezer();
  fake.registerClient({ clientId: APP_ID, clientSecret: APP_SECRET });
  user = fake.createAccount({ displayName: 'Ada Listener', library: demoLibrary() });
  fake.setAuthorizeUser(user.userId);
  app = await startConnectionApp({ providerOriginOverrides: fake.originOverrides, providerClients: { deezer: { client_id: APP_ID, client_secret: APP_SECRET } } });
  ({ testApp, baseUrl, answers } = app);
}, 240_000);

afterAll(async () => {
  await app?.close();
  await fake?.close();
});

describe('connecting Deezer', () => {
  let accountId = '';

  it('lists Deezer as connectable', async () => {
    const { json } = await api('/providers');
    const deezer = (json as { providers: { name: string; connectable: boolean; auth_kinds: string[] }[] }).providers.find((provider) => provider.name === 'deezer');
    expect(deezer).toMatchObject({ connectable: true, auth_kinds: ['OAUTH_PKCE'] });
  });

  it('sends the browser to Deezer Connect with app_id, state and comma-separated minimal perms, without PKCE', async () => {
    const { json } = await api('/api/auth/deezer/begin', { method: 'POST', body: JSON.stringify({ capabilities: ['READ_PLAYLISTS', 'READ_TRACKS'] }) });
    const url = new URL((json as { redirect_url: string }).redirect_url);
    expect(url.origin).toBe(fake.baseUrl);
    expect(url.pathname).toBe('/oauth/auth.php');
    expect(url.searchParams.get('app_id')).toBe(APP_ID);
    expect(url.searchParams.get('state')).toBe((json as { state: string }).state);
    expect(url.searchParams.get('redirect_uri')).toBe(`${baseUrl}/api/auth/deezer/callback`);
    expect(url.searchParams.get('perms')).toBe('basic_access,offline_access');
    expect(url.searchParams.has('code_challenge')).toBe(false);
    expect(url.searchParams.has('client_id')).toBe(false);
  });

  it('completes the redirect flow with the app secret and lists the account, never a token', async () => {
    const { location } = await connect({ account_label: 'Main', capabilities: ['READ_PLAYLISTS', 'READ_TRACKS', 'ADD_TRACKS'] });
    const match = /^\/#\/connections\?connected=([0-9a-f-]{36})$/.exec(location);
    expect(match, location).not.toBeNull();
    accountId = match![1]!;
    const exchange = fake.requests.find((request) => request.path === '/oauth/access_token.php')!;
    expect(exchange.method).toBe('GET');
    expect(exchange.query).toMatchObject({ app_id: APP_ID, secret: APP_SECRET, output: 'json' });
    expect(exchange.query['code']).toBeTruthy();
    const listed = await accounts();
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id: accountId, provider: 'deezer', display_name: 'Ada Listener', provider_user_id: user.userId, account_label: 'Main', status: 'connected' });
    expect(listed[0]!.scopes).toEqual(expect.arrayContaining(['basic_access', 'manage_library', 'offline_access']));
    // offline_access: Deezer's token does not expire.
    expect(listed[0]!.expires_at).toBeNull();
  });

  it('reads playlists with the token only in the URL, and a playlist across pages', async () => {
    const first = await api(`/api/playlists?account_id=${accountId}`);
    expect(first.status).toBe(200);
    const list = first.json as { playlists: { id: string; name: string; kind: string; snapshot_id: string | null }[] };
    expect(list.playlists[0]).toMatchObject({ id: 'liked', kind: 'LIKED_TRACKS' });
    // Deezer's own "Loved Tracks" playlist is that same collection: it is not listed a second time.
    expect(list.playlists.filter((playlist) => playlist.kind === 'LIKED_TRACKS')).toHaveLength(1);
    expect(list.playlists.map((playlist) => playlist.name)).toEqual(expect.arrayContaining(['Road Trip 2024', 'Big Mix', 'Friends Weekly']));
    const apiRequests = fake.requests.filter((request) => !request.path.startsWith('/oauth/'));
    expect(apiRequests.length).toBeGreaterThan(0);
    for (const request of apiRequests) {
      expect(request.query['access_token']).toBeTruthy();
      expect(request.headers['authorization']).toBeUndefined();
    }

    const bigMix = list.playlists.find((playlist) => playlist.name === 'Big Mix')!;
    const read = await api(`/api/playlists/${bigMix.id}?account_id=${accountId}`);
    expect(read.status).toBe(200);
    const playlist = (read.json as { playlist: { tracks: { title: string; isrc: string | null }[]; snapshot_id: string } }).playlist;
    const onDeezer = [...new Set(demoLibrary().playlists!.find((entry) => entry.name === 'Big Mix')!.trackKeys)].filter((key) => isAvailableOn(seedCatalog().tracks.get(key)!, 'deezer'));
    expect(playlist.tracks).toHaveLength(onDeezer.length);
    expect(onDeezer.length).toBeGreaterThan(100);
    expect(playlist.snapshot_id).toBe(bigMix.snapshot_id);
  });

  it('reads the liked songs collection from the favourites', async () => {
    const { status, json } = await api(`/api/playlists/liked?account_id=${accountId}`);
    expect(status).toBe(200);
    const liked = (json as { playlist: { kind: string; tracks: unknown[] } }).playlist;
    expect(liked.kind).toBe('LIKED_TRACKS');
    expect(liked.tracks).toHaveLength(fake.library(user.userId)!.tracks.length);
  });

  it('asks for reconnection when Deezer stops accepting the token, and reconnects the same account', async () => {
    fake.expireAccessToken(lastToken());
    const failed = await api(`/api/playlists?account_id=${accountId}&refresh=true`);
    expect(failed.status).toBe(409);
    expect(failed.json).toMatchObject({ code: 'provider_auth_expired', action: { type: 'reconnect_account' } });
    expect((await accounts())[0]!.status).toBe('reauth_required');

    const { location } = await connect({ reconnect_account_id: accountId });
    expect(location).toBe(`/#/connections?connected=${accountId}`);
    expect((await accounts())[0]).toMatchObject({ id: accountId, status: 'connected', account_label: 'Main' });
    expect((await api(`/api/playlists?account_id=${accountId}&refresh=true`)).status).toBe(200);
  });

  it('does not connect when Deezer refuses the code', async () => {
    const begin = await api('/api/auth/deezer/begin', { method: 'POST', body: '{}' });
    const state = new URL((begin.json as { redirect_url: string }).redirect_url).searchParams.get('state')!;
    const landed = await fetch(`${baseUrl}/api/auth/deezer/callback?code=not-a-code&state=${encodeURIComponent(state)}`, { redirect: 'manual' });
    expect(landed.status).toBe(303);
    expect(landed.headers.get('location')).toMatch(/auth_error=/);
    expect(await accounts()).toHaveLength(1);
  });

  it('never puts a token in an API answer or a log line', () => {
    const issued = new Set<string>([user.accessToken]);
    for (const request of fake.requests) {
      if (request.query['access_token']) issued.add(request.query['access_token']);
      if (request.query['code']) issued.add(request.query['code']);
    }
    issued.add(APP_SECRET);
    expect(issued.size).toBeGreaterThan(3);
    const everything = [...answers, ...testApp.logs].join('\n');
    for (const secret of issued) expect(everything.includes(secret), 'a secret leaked').toBe(false);
  });
});
