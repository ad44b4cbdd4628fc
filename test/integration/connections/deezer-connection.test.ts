import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeDeezer, type FakeDeezerServer } from '../../fakes/deezer/index.ts';
import type { FakeAccountTokens } from '../../fakes/fake-provider.ts';
import { demoLibrary } from '../../fakes/seed-catalog.ts';
import { startConnectionApp, type ConnectionApp } from '../support/connection-app.ts';
import { connectByRedirect, connectedAccountId, demoPlaylistKeysOn, expectNoSecretLeaked, expectReconnectionAsked, listAccounts, providerListing, listDemoPlaylists } from '../support/provider-connection-kit.ts';

/**
 * Connecting a Deezer account end to end through the HTTP API, against the stateful fake: Deezer
 * Connect's dialect of the redirect flow (`app_id`, comma-separated `perms`, no PKCE, the code
 * exchanged by a GET with `app_id`/`secret`/`code`/`output=json`, a token that never expires
 * with `offline_access`), account listing without tokens, playlist reads with the token sent only
 * in the URL, and reconnection when Deezer stops accepting the token (there is no refresh token).
 */

const APP_ID = 'opl-test-deezer-app';
const APP_SECRET = 'deezer-app-secret-0123456789';

let fake: FakeDeezerServer;
let app: ConnectionApp;
let user: FakeAccountTokens;

const api = (path: string, init?: RequestInit) => app.api(path, init);

const connect = (body: Record<string, unknown> = {}) => connectByRedirect(app, 'deezer', body);
const accounts = () => listAccounts(app);

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
}, 240_000);

afterAll(async () => {
  await app?.close();
  await fake?.close();
});

describe('connecting Deezer', () => {
  let accountId = '';

  it('lists Deezer as connectable', async () => {
    expect(await providerListing(app, 'deezer')).toMatchObject({ connectable: true, auth_kinds: ['OAUTH_PKCE'] });
  });

  it('sends the browser to Deezer Connect with app_id, state and comma-separated minimal perms, without PKCE', async () => {
    const { json } = await api('/api/auth/deezer/begin', { method: 'POST', body: JSON.stringify({ capabilities: ['READ_PLAYLISTS', 'READ_TRACKS'] }) });
    const url = new URL((json as { redirect_url: string }).redirect_url);
    expect(url.origin).toBe(fake.baseUrl);
    expect(url.pathname).toBe('/oauth/auth.php');
    expect(url.searchParams.get('app_id')).toBe(APP_ID);
    expect(url.searchParams.get('state')).toBe((json as { state: string }).state);
    expect(url.searchParams.get('redirect_uri')).toBe(`${app.baseUrl}/api/auth/deezer/callback`);
    expect(url.searchParams.get('perms')).toBe('basic_access,offline_access');
    expect(url.searchParams.has('code_challenge')).toBe(false);
    expect(url.searchParams.has('client_id')).toBe(false);
  });

  it('completes the redirect flow with the app secret and lists the account, never a token', async () => {
    const { location } = await connect({ account_label: 'Main', capabilities: ['READ_PLAYLISTS', 'READ_TRACKS', 'ADD_TRACKS'] });
    accountId = connectedAccountId(location);
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
    const { playlists } = await listDemoPlaylists(app, accountId);
    expect(playlists[0]).toMatchObject({ id: 'liked', kind: 'LIKED_TRACKS' });
    // Deezer's own "Loved Tracks" playlist is that same collection: it is not listed a second time.
    expect(playlists.filter((playlist) => playlist.kind === 'LIKED_TRACKS')).toHaveLength(1);
    const apiRequests = fake.requests.filter((request) => !request.path.startsWith('/oauth/'));
    expect(apiRequests.length).toBeGreaterThan(0);
    for (const request of apiRequests) {
      expect(request.query['access_token']).toBeTruthy();
      expect(request.headers['authorization']).toBeUndefined();
    }

    const bigMix = playlists.find((playlist) => playlist.name === 'Big Mix')!;
    const read = await api(`/api/playlists/${bigMix.id}?account_id=${accountId}`);
    expect(read.status).toBe(200);
    const playlist = (read.json as { playlist: { tracks: { title: string; isrc: string | null }[]; snapshot_id: string } }).playlist;
    const onDeezer = demoPlaylistKeysOn('Big Mix', 'deezer', { distinct: true });
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
    await expectReconnectionAsked(app, accountId);

    const { location } = await connect({ reconnect_account_id: accountId });
    expect(location).toBe(`/#/connections?connected=${accountId}`);
    expect((await accounts())[0]).toMatchObject({ id: accountId, status: 'connected', account_label: 'Main' });
    expect((await api(`/api/playlists?account_id=${accountId}&refresh=true`)).status).toBe(200);
  });

  it('does not connect when Deezer refuses the code', async () => {
    const begin = await api('/api/auth/deezer/begin', { method: 'POST', body: '{}' });
    const state = new URL((begin.json as { redirect_url: string }).redirect_url).searchParams.get('state')!;
    const landed = await fetch(`${app.baseUrl}/api/auth/deezer/callback?code=not-a-code&state=${encodeURIComponent(state)}`, { redirect: 'manual' });
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
    expectNoSecretLeaked(issued, app, 3);
  });
});
