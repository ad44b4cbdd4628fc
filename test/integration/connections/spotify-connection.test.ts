import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeSpotify, type FakeSpotifyServer } from '../../fakes/spotify/index.ts';
import type { FakeAccountTokens } from '../../fakes/fake-provider.ts';
import { demoLibrary } from '../../fakes/seed-catalog.ts';
import { startConnectionApp, type ConnectionApp } from '../support/connection-app.ts';
import { connectByRedirect, connectedAccountId, demoPlaylistKeysOn, expectNoSecretLeaked, expectReconnectionAsked, listAccounts, providerListing, listDemoPlaylists } from '../support/provider-connection-kit.ts';
import { GATE_OWNER_SECRET, SESSION_GATE_ENV, startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * Connecting a Spotify account end to end through the HTTP API, against the stateful fake: the
 * PKCE redirect flow (begin → provider → callback), account listing without tokens, cached
 * playlist reads, refresh of an expired token, reconnection after a revoked grant, and
 * disconnection. The plugin runs in the real sandbox; the engine's OAuth requests and the
 * plugin's API requests both go to the fake through origin overrides.
 */

let fake: FakeSpotifyServer;
let app: ConnectionApp;
let user: FakeAccountTokens;

const api = (path: string, init?: RequestInit) => app.api(path, init);
const connect = (body: Record<string, unknown> = {}) => connectByRedirect(app, 'spotify', body);
const accounts = () => listAccounts(app);

/** The access token the engine currently sends (read off the fake's request log). */
function lastBearer(): string {
  const request = [...fake.requests].reverse().find((entry) => entry.headers['authorization']?.startsWith('Bearer '));
  return request!.headers['authorization']!.slice('Bearer '.length);
}

beforeAll(async () => {
  // Refresh tokens stay the same, so the test can revoke the one the engine holds.
  fake = await startFakeSpotify({ rotateRefreshTokens: false });
  user = fake.createAccount({ displayName: 'Ada Listener', library: demoLibrary() });
  fake.setAuthorizeUser(user.userId);
  app = await startConnectionApp({ providerOriginOverrides: fake.originOverrides, providerClients: { spotify: { client_id: 'opl-demo-client' } } });
}, 240_000);

afterAll(async () => {
  await app?.close();
  await fake?.close();
});

describe('connecting Spotify', () => {
  let accountId = '';

  it('lists Spotify as connectable', async () => {
    expect(await providerListing(app, 'spotify')).toMatchObject({ connectable: true, demo: false, auth_kinds: ['OAUTH_PKCE'] });
  });

  it('sends the browser to the provider with PKCE, state and minimal scopes', async () => {
    const { json } = await api('/api/auth/spotify/begin', { method: 'POST', body: JSON.stringify({ capabilities: ['READ_PLAYLISTS', 'READ_TRACKS'] }) });
    const url = new URL((json as { redirect_url: string }).redirect_url);
    expect(url.origin).toBe(fake.baseUrl);
    expect(url.pathname).toBe('/authorize');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('state')).toBe((json as { state: string }).state);
    expect(url.searchParams.get('redirect_uri')).toBe(`${app.baseUrl}/api/auth/spotify/callback`);
    const scopes = url.searchParams.get('scope')!.split(' ');
    expect(scopes).toContain('playlist-read-private');
    expect(scopes).not.toContain('playlist-modify-private');
    expect(scopes).not.toContain('user-library-modify');
  });

  it('completes the redirect flow and lists the account with its label, never a token', async () => {
    const { location } = await connect({ account_label: 'Main' });
    accountId = connectedAccountId(location);
    const listed = await accounts();
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id: accountId, provider: 'spotify', display_name: 'Ada Listener', provider_user_id: user.userId, account_label: 'Main', status: 'connected', demo: false });
    expect(listed[0]!.scopes.length).toBeGreaterThan(0);
    expect(Date.parse(listed[0]!.expires_at!)).toBeGreaterThan(Date.now());
  });

  it('refuses a replayed callback', async () => {
    const begin = await api('/api/auth/spotify/begin', { method: 'POST', body: '{}' });
    const authorize = await fetch((begin.json as { redirect_url: string }).redirect_url, { redirect: 'manual' });
    const callback = authorize.headers.get('location')!;
    expect((await fetch(callback, { redirect: 'manual' })).headers.get('location')).toMatch(/connected=/);
    const replay = await fetch(callback, { redirect: 'manual' });
    expect(replay.status).toBe(303);
    expect(replay.headers.get('location')).toMatch(/auth_error=not_found/);
    // Connecting the same Spotify user again updates the one account instead of adding a twin.
    expect(await accounts()).toHaveLength(1);
  });

  it('reads playlists, then serves them from the cache until asked to refresh', async () => {
    const { playlists, cached } = await listDemoPlaylists(app, accountId);
    expect(cached).toBe(false);
    expect(playlists[0]).toMatchObject({ id: 'liked', kind: 'LIKED_TRACKS' });

    const requestsBefore = fake.requests.length;
    const again = await api(`/api/playlists?account_id=${accountId}`);
    expect((again.json as { cached: boolean }).cached).toBe(true);
    expect(fake.requests.length).toBe(requestsBefore);

    const bigMix = playlists.find((playlist) => playlist.name === 'Big Mix')!;
    const read = await api(`/api/playlists/${bigMix.id}?account_id=${accountId}`);
    expect(read.status).toBe(200);
    const playlist = (read.json as { playlist: { tracks: { title: string; isrc: string | null }[]; snapshot_id: string } }).playlist;
    const onSpotify = demoPlaylistKeysOn('Big Mix', 'spotify');
    expect(playlist.tracks).toHaveLength(onSpotify.length);
    expect(onSpotify.length).toBeGreaterThan(100);
    expect(playlist.snapshot_id).toBe(bigMix.snapshot_id);
    const cachedRead = await api(`/api/playlists/${bigMix.id}?account_id=${accountId}`);
    expect((cachedRead.json as { cached: boolean }).cached).toBe(true);

    const refreshed = await api(`/api/playlists?account_id=${accountId}&refresh=true`);
    expect((refreshed.json as { cached: boolean }).cached).toBe(false);
    expect(fake.requests.length).toBeGreaterThan(requestsBefore);
  });

  it('marks episodes and local files as not migratable', async () => {
    const list = (await api(`/api/playlists?account_id=${accountId}`)).json as { playlists: { id: string; name: string }[] };
    const mixed = list.playlists.find((playlist) => playlist.name === 'Podcasts & Bootlegs')!;
    const { json } = await api(`/api/playlists/${mixed.id}?account_id=${accountId}`);
    const tracks = (json as { playlist: { tracks: { media_type: string; is_migratable: boolean; unsupported_reason: string | null }[] } }).playlist.tracks;
    const blocked = tracks.filter((track) => !track.is_migratable);
    expect(blocked.map((track) => track.media_type).sort()).toEqual(['episode', 'episode', 'local_file', 'local_file']);
    expect(blocked.every((track) => (track.unsupported_reason ?? '').length > 0)).toBe(true);
  });

  it('reads the liked songs collection', async () => {
    const { status, json } = await api(`/api/playlists/liked?account_id=${accountId}`);
    expect(status).toBe(200);
    expect((json as { playlist: { kind: string; tracks: unknown[] } }).playlist).toMatchObject({ kind: 'LIKED_TRACKS' });
    expect((json as { playlist: { tracks: unknown[] } }).playlist.tracks).toHaveLength(60);
  });

  it('refreshes an expired access token and retries, without bothering the user', async () => {
    const before = lastBearer();
    fake.expireAccessToken(before);
    const { status } = await api(`/api/playlists?account_id=${accountId}&refresh=true`);
    expect(status).toBe(200);
    expect(fake.requests.some((request) => request.path === '/api/token' && request.body.includes('grant_type=refresh_token'))).toBe(true);
    expect(lastBearer()).not.toBe(before);
    expect((await accounts())[0]!.status).toBe('connected');
  });

  it('asks for reconnection when the grant is revoked, and reconnects the same account', async () => {
    // Revoke every refresh token the fake issued to this engine, then expire the access token.
    for (const request of fake.requests) {
      const refresh = /refresh_token=([^&]+)/.exec(request.body)?.[1];
      if (refresh) fake.revokeRefreshToken(decodeURIComponent(refresh));
    }
    expect(fake.requests.some((request) => request.path === '/api/token' && request.body.includes('refresh_token='))).toBe(true);
    fake.expireAccessToken(lastBearer());
    await expectReconnectionAsked(app, accountId);

    const { location } = await connect({ reconnect_account_id: accountId });
    expect(location).toBe(`/#/connections?connected=${accountId}`);
    expect((await accounts())[0]).toMatchObject({ id: accountId, status: 'connected', account_label: 'Main' });
    expect((await api(`/api/playlists?account_id=${accountId}&refresh=true`)).status).toBe(200);
  });

  it('keeps two accounts of one provider apart', async () => {
    const second = fake.createAccount({ displayName: 'Second Listener' });
    fake.setAuthorizeUser(second.userId);
    await connect({ account_label: 'Work' });
    fake.setAuthorizeUser(user.userId);
    const listed = await accounts();
    expect(listed.map((account) => account.account_label).sort()).toEqual(['Main', 'Work']);
    const work = listed.find((account) => account.account_label === 'Work')!;
    const renamed = await api(`/api/auth/accounts/${work.id}`, { method: 'PATCH', body: JSON.stringify({ account_label: 'Office' }) });
    expect(renamed.json).toMatchObject({ account_label: 'Office' });
    const test = await api(`/api/auth/accounts/${work.id}/test`, { method: 'POST', body: '{}' });
    expect(test.json).toMatchObject({ ok: true, status: 'connected', display_name: 'Second Listener' });
  });

  it('disconnects an account and forgets its credential and cache', async () => {
    const listed = await accounts();
    const office = listed.find((account) => account.account_label === 'Office')!;
    expect((await api(`/api/auth/accounts/${office.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await accounts()).map((account) => account.id)).toEqual([accountId]);
    expect((await api(`/api/playlists?account_id=${office.id}`)).status).toBe(404);
    expect((await api(`/api/auth/accounts/${office.id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('rejects bad input with clear problems', async () => {
    expect((await api('/api/auth/nosuch/begin', { method: 'POST', body: '{}' })).status).toBe(404);
    expect((await api('/api/auth/spotify/complete', { method: 'POST', body: JSON.stringify({ state: 'x'.repeat(40) }) })).json).toMatchObject({ code: 'not_found' });
    expect((await api('/api/playlists?account_id=not-a-uuid')).status).toBe(400);
    const callback = await fetch(`${app.baseUrl}/api/auth/spotify/callback?error=access_denied`, { redirect: 'manual' });
    expect(callback.headers.get('location')).toMatch(/auth_error=invalid_callback/);
  });

  it('never puts a token in an API answer or a log line', () => {
    const issued = new Set<string>([user.accessToken, user.refreshToken]);
    for (const request of fake.requests) {
      const bearer = request.headers['authorization']?.replace(/^Bearer /, '');
      if (bearer) issued.add(bearer);
      for (const match of request.body.matchAll(/(?:refresh_token|code|code_verifier)=([^&]+)/g)) issued.add(decodeURIComponent(match[1]!));
    }
    expectNoSecretLeaked(issued, app, 3);
  });
});

describe('connecting on an instance behind the owner-session gate', () => {
  let gated: TestApp;

  beforeAll(async () => {
    gated = await startTestApp({ ...app.plugins.env, ...SESSION_GATE_ENV }, { http: true, worker: false }, { providerOriginOverrides: fake.originOverrides, providerClients: { spotify: { client_id: 'opl-demo-client' } } });
  }, 120_000);

  afterAll(async () => {
    await gated?.close();
  });

  it('completes the callback although the provider redirect carries no session cookie', async () => {
    const http = gated.app.http!;
    const login = await http.inject({ method: 'POST', url: '/api/session', payload: { secret: GATE_OWNER_SECRET } });
    const cookie = /opl_session=[^;]+/.exec(String(login.headers['set-cookie']))![0];
    expect((await http.inject({ method: 'POST', url: '/api/auth/spotify/begin', payload: {} })).statusCode).toBe(401);
    const begin = await http.inject({ method: 'POST', url: '/api/auth/spotify/begin', payload: { account_label: 'Gated' }, headers: { cookie, origin: SESSION_GATE_ENV.OPL_PUBLIC_BASE_URL } });
    expect(begin.statusCode).toBe(200);
    const challenge = begin.json<{ redirect_url: string }>();
    expect(new URL(challenge.redirect_url).searchParams.get('redirect_uri')).toBe(`${SESSION_GATE_ENV.OPL_PUBLIC_BASE_URL}/api/auth/spotify/callback`);
    const authorize = await fetch(challenge.redirect_url, { redirect: 'manual' });
    const callback = new URL(authorize.headers.get('location')!);
    // The browser arrives from the provider's site: SameSite=Strict keeps the cookie at home.
    const landed = await http.inject({ method: 'GET', url: `${callback.pathname}${callback.search}` });
    expect(landed.statusCode).toBe(303);
    expect(landed.headers.location).toMatch(/^\/#\/connections\?connected=/);
    const listed = await http.inject({ method: 'GET', url: '/api/auth/accounts', headers: { cookie } });
    expect(listed.json<{ accounts: { account_label: string }[] }>().accounts.map((account) => account.account_label)).toEqual(['Gated']);
    // Without its state the callback completes nothing, and other auth routes stay private.
    expect((await http.inject({ method: 'GET', url: '/api/auth/accounts' })).statusCode).toBe(401);
  });
});
