import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pkceChallenge } from '../../fakes/fake-provider.ts';
import { isAvailableOn, seedCatalog } from '../../fakes/seed-catalog.ts';
import { DEMO_CLIENT_ID, startFakeSpotify, type FakeSpotifyServer } from '../../fakes/spotify/index.ts';

/**
 * The fake Spotify itself, over plain HTTP: the PKCE authorization flow with its consent page and
 * error answers, token refresh with rotation, the API's limits and error bodies, paging links on
 * the real origin, snapshot ids, and demo mode.
 */

const REDIRECT = 'http://127.0.0.1:9/callback';
let fake: FakeSpotifyServer;

interface TokenAnswer {
  access_token?: string;
  refresh_token?: string;
  expires_in?: number;
  scope?: string;
  token_type?: string;
  error?: string;
  error_description?: string;
}

function authorizeUrl(params: Record<string, string>): string {
  return `${fake.baseUrl}/authorize?${new URLSearchParams({ client_id: DEMO_CLIENT_ID, response_type: 'code', redirect_uri: REDIRECT, state: 'st-1', scope: 'playlist-read-private user-library-read', code_challenge_method: 'S256', ...params }).toString()}`;
}

async function token(form: Record<string, string>): Promise<{ status: number; body: TokenAnswer }> {
  const response = await fetch(`${fake.baseUrl}/api/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() });
  return { status: response.status, body: (await response.json()) as TokenAnswer };
}

async function api(path: string, accessToken: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; body: unknown }> {
  const response = await fetch(`${fake.baseUrl}${path}`, { ...init, headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json', ...(init.headers as Record<string, string> | undefined) } });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as unknown) : null };
}

/** Walks the consent page: GET /authorize, then submit the form with `decision`. */
async function consent(challenge: string, decision: 'agree' | 'cancel'): Promise<URL> {
  const page = await fetch(authorizeUrl({ code_challenge: challenge }), { redirect: 'manual' });
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain('>Agree</button>');
  const requestId = /name="request" value="([^"]+)"/.exec(html)![1]!;
  const answer = await fetch(`${fake.baseUrl}/authorize`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ request: requestId, decision }).toString() });
  expect(answer.status).toBe(302);
  return new URL(answer.headers.get('location')!);
}

beforeAll(async () => {
  fake = await startFakeSpotify();
});

afterAll(async () => {
  await fake?.close();
});

describe('fake Spotify: authorization code with PKCE', () => {
  it('shows a consent page, issues a code for the verifier, and the token works on the API', async () => {
    const account = fake.createAccount({ displayName: 'Consenting Listener' });
    const verifier = randomBytes(48).toString('base64url');
    const location = await consent(pkceChallenge(verifier), 'agree');
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('state')).toBe('st-1');
    const code = location.searchParams.get('code')!;

    expect((await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: DEMO_CLIENT_ID, code_verifier: 'wrong-verifier-wrong-verifier-wrong-verifier-x' })).body).toMatchObject({ error: 'invalid_grant', error_description: 'code_verifier was incorrect' });
    expect((await token({ grant_type: 'authorization_code', code, redirect_uri: 'http://127.0.0.1:9/other', client_id: DEMO_CLIENT_ID, code_verifier: verifier })).body).toMatchObject({ error: 'invalid_grant', error_description: 'Invalid redirect URI' });
    const granted = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: DEMO_CLIENT_ID, code_verifier: verifier });
    expect(granted.status).toBe(200);
    expect(granted.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'playlist-read-private user-library-read' });
    const me = await api('/v1/me', granted.body.access_token!);
    expect(me.body).toMatchObject({ id: account.userId, display_name: 'Consenting Listener' });
    // A code is single-use.
    expect((await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: DEMO_CLIENT_ID, code_verifier: verifier })).status).toBe(400);
  });

  it('redirects with access_denied when the user cancels', async () => {
    const location = await consent(pkceChallenge('v'.repeat(43)), 'cancel');
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('st-1');
    expect(location.searchParams.has('code')).toBe(false);
  });

  it('refuses unknown clients and unregistered redirect URIs on the page, other errors by redirect', async () => {
    expect((await fetch(authorizeUrl({ client_id: 'nobody', code_challenge: 'x' }), { redirect: 'manual' })).status).toBe(400);
    fake.registerClient({ clientId: 'strict-client', redirectUris: ['https://engine.example/callback'] });
    expect((await fetch(authorizeUrl({ client_id: 'strict-client', code_challenge: 'x' }), { redirect: 'manual' })).status).toBe(400);
    const badScope = await fetch(authorizeUrl({ scope: 'playlist-read-private everything', code_challenge: 'x' }), { redirect: 'manual' });
    expect(new URL(badScope.headers.get('location')!).searchParams.get('error')).toBe('invalid_scope');
    const noPkce = await fetch(authorizeUrl({}), { redirect: 'manual' });
    expect(new URL(noPkce.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
  });

  it('approves at once as the set user, and refreshes with a rotated refresh token', async () => {
    const account = fake.createAccount({ displayName: 'Auto' });
    fake.setAuthorizeUser(account.userId);
    try {
      const verifier = randomBytes(48).toString('base64url');
      const redirect = await fetch(authorizeUrl({ code_challenge: pkceChallenge(verifier) }), { redirect: 'manual' });
      expect(redirect.status).toBe(302);
      const code = new URL(redirect.headers.get('location')!).searchParams.get('code')!;
      const granted = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: DEMO_CLIENT_ID, code_verifier: verifier });
      const refreshed = await token({ grant_type: 'refresh_token', refresh_token: granted.body.refresh_token!, client_id: DEMO_CLIENT_ID });
      expect(refreshed.status).toBe(200);
      expect(refreshed.body.access_token).not.toBe(granted.body.access_token);
      expect(refreshed.body.refresh_token).toBeTruthy();
      expect(refreshed.body.refresh_token).not.toBe(granted.body.refresh_token);
      expect((await api('/v1/me', refreshed.body.access_token!)).body).toMatchObject({ id: account.userId });
      fake.revokeRefreshToken(refreshed.body.refresh_token!);
      expect((await token({ grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token!, client_id: DEMO_CLIENT_ID })).body).toMatchObject({ error: 'invalid_grant', error_description: 'Refresh token revoked' });
      expect((await token({ grant_type: 'refresh_token', refresh_token: 'AQnothing', client_id: DEMO_CLIENT_ID })).body).toMatchObject({ error: 'invalid_grant' });
      expect((await token({ grant_type: 'password', client_id: DEMO_CLIENT_ID })).body).toMatchObject({ error: 'unsupported_grant_type' });
    } finally {
      fake.setAuthorizeUser(null);
    }
  });

  it('answers expired and unknown tokens with the API 401 bodies', async () => {
    const account = fake.createAccount({});
    fake.expireAccessToken(account.accessToken);
    expect(await api('/v1/me', account.accessToken)).toMatchObject({ status: 401, body: { error: { status: 401, message: 'The access token expired' } } });
    expect(await api('/v1/me', 'BQunknown')).toMatchObject({ status: 401, body: { error: { status: 401, message: 'Invalid access token' } } });
    const short = await startFakeSpotify({ tokenLifetimeS: 0 });
    try {
      const expired = short.createAccount({});
      const response = await fetch(`${short.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${expired.accessToken}` } });
      expect(response.status).toBe(401);
    } finally {
      await short.close();
    }
  });
});

describe('fake Spotify: Web API behaviour', () => {
  const music = [...seedCatalog().tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'spotify'));

  it('pages with absolute next links on the real API origin and enforces page limits', async () => {
    const account = fake.createAccount({ library: { playlists: Array.from({ length: 5 }, (_, index) => ({ name: `P${index}`, trackKeys: [] })) } });
    const page = (await api('/v1/me/playlists?limit=2', account.accessToken)).body as { next: string; items: unknown[]; total: number };
    expect(page.items).toHaveLength(2);
    expect(page.total).toBe(5);
    expect(page.next).toBe('https://api.spotify.com/v1/me/playlists?limit=2&offset=2');
    expect((await api('/v1/me/playlists?limit=51', account.accessToken)).status).toBe(400);
  });

  it('changes the snapshot id on every write and enforces 100 items per request', async () => {
    const account = fake.createAccount({});
    const created = (await api('/v1/me/playlists', account.accessToken, { method: 'POST', body: JSON.stringify({ name: 'Snap', public: false }) })).body as { id: string; snapshot_id: string };
    const uris = music.slice(0, 101).map((track) => fake.uriOf(track.key)!);
    const tooMany = await api(`/v1/playlists/${created.id}/items`, account.accessToken, { method: 'POST', body: JSON.stringify({ uris }) });
    expect(tooMany).toMatchObject({ status: 400, body: { error: { status: 400 } } });
    const first = (await api(`/v1/playlists/${created.id}/items`, account.accessToken, { method: 'POST', body: JSON.stringify({ uris: uris.slice(0, 2) }) })).body as { snapshot_id: string };
    const second = (await api(`/v1/playlists/${created.id}/items`, account.accessToken, { method: 'POST', body: JSON.stringify({ uris: uris.slice(0, 1), position: 1 }) })).body as { snapshot_id: string };
    expect(new Set([created.snapshot_id, first.snapshot_id, second.snapshot_id]).size).toBe(3);
    expect(fake.playlist(created.id)!.uris).toEqual([uris[0], uris[0], uris[1]]);
    expect((await api(`/v1/playlists/${created.id}/items`, account.accessToken, { method: 'POST', body: JSON.stringify({ uris: uris.slice(0, 1), position: 9 }) })).status).toBe(400);
    const reorder = await api(`/v1/playlists/${created.id}/items`, account.accessToken, { method: 'PUT', body: JSON.stringify({ range_start: 2, insert_before: 0, snapshot_id: first.snapshot_id }) });
    expect(reorder.status).toBe(200);
    expect(fake.playlist(created.id)!.uris).toEqual([uris[1], uris[0], uris[0]]);
  });

  it('limits search to 10 results and answers ISRC and free-text queries over the Spotify catalogue only', async () => {
    const account = fake.createAccount({});
    expect((await api('/v1/search?q=golden&type=track&limit=11', account.accessToken)).status).toBe(400);
    const target = music.find((track) => track.isrc)!;
    const hit = (await api(`/v1/search?q=${encodeURIComponent(`isrc:${target.isrc}`)}&type=track&limit=10`, account.accessToken)).body as { tracks: { items: { name: string }[] } };
    expect(hit.tracks.items.map((item) => item.name)).toEqual([target.title]);
    const missing = [...seedCatalog().tracks.values()].find((track) => track.availableOn && !track.availableOn.includes('spotify') && track.isrc)!;
    const none = (await api(`/v1/search?q=${encodeURIComponent(`isrc:${missing.isrc}`)}&type=track`, account.accessToken)).body as { tracks: { items: unknown[] } };
    expect(none.tracks.items).toEqual([]);
  });

  it('serves Get Track: the full track object, 404 for an unknown id, 400 for a malformed id or market, and only with a valid token', async () => {
    const account = fake.createAccount({});
    const target = music.find((track) => track.isrc)!;
    const uri = fake.uriOf(target.key)!;
    const id = uri.split(':')[2]!;
    const found = await api(`/v1/tracks/${id}`, account.accessToken);
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ type: 'track', id, uri, name: target.title, duration_ms: target.durationMs, external_ids: { isrc: target.isrc }, href: `https://api.spotify.com/v1/tracks/${id}`, album: { type: 'album' } });
    // The same object a search hit carries.
    const hit = (await api(`/v1/search?q=${encodeURIComponent(`isrc:${target.isrc}`)}&type=track`, account.accessToken)).body as { tracks: { items: unknown[] } };
    expect(found.body).toEqual(hit.tracks.items[0]);
    expect((await api(`/v1/tracks/${id}?market=from_token`, account.accessToken)).body).toEqual(found.body);
    expect((await api(`/v1/tracks/${id}?market=DE`, account.accessToken)).status).toBe(200);
    expect(await api(`/v1/tracks/${id}?market=germany`, account.accessToken)).toMatchObject({ status: 400, body: { error: { status: 400, message: 'Invalid market code' } } });
    expect(await api('/v1/tracks/0000000000000000000000', account.accessToken)).toMatchObject({ status: 404, body: { error: { status: 404, message: 'Resource not found' } } });
    expect(await api('/v1/tracks/not-an-id', account.accessToken)).toMatchObject({ status: 400, body: { error: { status: 400, message: 'invalid id' } } });
    // An episode id is not a track id.
    const episode = [...seedCatalog().tracks.values()].find((track) => track.mediaType === 'episode' && isAvailableOn(track, 'spotify'))!;
    expect((await api(`/v1/tracks/${fake.uriOf(episode.key)!.split(':')[2]!}`, account.accessToken)).status).toBe(404);
    // The several-tracks endpoint is deprecated and not served.
    expect((await api(`/v1/tracks?ids=${id}`, account.accessToken)).status).toBe(404);
    expect((await api(`/v1/tracks/${id}`, 'BQunknown')).status).toBe(401);
    fake.failNext({ kind: 'rate_limit', retryAfterS: 3, pathPrefix: '/v1/tracks/' });
    const limited = await api(`/v1/tracks/${id}`, account.accessToken);
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '3']);
    fake.expireAccessToken(account.accessToken);
    expect(await api(`/v1/tracks/${id}`, account.accessToken)).toMatchObject({ status: 401, body: { error: { message: 'The access token expired' } } });
  });

  it('answers failures as the API does: 429 with Retry-After, quota with its reason, 5xx, and drops ambiguous writes after applying them', async () => {
    const account = fake.createAccount({});
    fake.failNext({ kind: 'rate_limit', retryAfterS: 4 });
    const limited = await api('/v1/me', account.accessToken);
    expect([limited.status, limited.headers.get('retry-after'), limited.body]).toEqual([429, '4', { error: { status: 429, message: 'API rate limit exceeded' } }]);
    fake.failNext({ kind: 'quota' });
    expect((await api('/v1/me', account.accessToken)).body).toMatchObject({ error: { status: 429, reason: 'QUOTA_EXCEEDED' } });
    fake.failNext({ kind: 'server_error', status: 502 });
    expect((await api('/v1/me', account.accessToken)).status).toBe(502);

    fake.failNext({ kind: 'ambiguous_write', method: 'POST', pathPrefix: '/v1/me/playlists' });
    await expect(api('/v1/me/playlists', account.accessToken, { method: 'POST', body: JSON.stringify({ name: 'Lost answer' }) })).rejects.toThrow();
    expect(fake.library(account.userId)!.playlists).toHaveLength(1);
    expect(fake.requests.at(-1)!.status).toBe(0);
  });

  it('runs the demo: Demo Listener with the demo library, approved at once', async () => {
    const demo = await startFakeSpotify({ demo: true });
    try {
      expect(demo.demoUserId).toBeTruthy();
      expect(demo.playlistByName(demo.demoUserId!, 'Road Trip 2024')).not.toBeNull();
      const verifier = randomBytes(48).toString('base64url');
      const redirect = await fetch(`${demo.baseUrl}/authorize?${new URLSearchParams({ client_id: DEMO_CLIENT_ID, response_type: 'code', redirect_uri: REDIRECT, state: 's', code_challenge: pkceChallenge(verifier), code_challenge_method: 'S256', scope: 'playlist-read-private' }).toString()}`, { redirect: 'manual' });
      expect(redirect.status).toBe(302);
      const code = new URL(redirect.headers.get('location')!).searchParams.get('code')!;
      const granted = (await (await fetch(`${demo.baseUrl}/api/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: DEMO_CLIENT_ID, code_verifier: verifier }).toString() })).json()) as TokenAnswer;
      const me = (await (await fetch(`${demo.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${granted.access_token}` } })).json()) as { id: string; display_name: string };
      expect(me).toMatchObject({ id: demo.demoUserId, display_name: 'Demo Listener' });
    } finally {
      await demo.close();
    }
  });
});
