import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pkceChallenge, type FakeAccountTokens } from '../../fakes/fake-provider.ts';
import { isAvailableOn, seedCatalog } from '../../fakes/seed-catalog.ts';
import { SCOPE_YOUTUBE, startFakeYoutube, type FakeYoutube } from '../../fakes/youtube/index.ts';

/** The fake YouTube over plain HTTP: Google's OAuth flow, the quota rules and the API behaviours the plugin relies on. */

const REDIRECT = 'http://127.0.0.1:9/callback';
const VERIFIER = 'v'.repeat(43) + '-verifier-of-enough-length';

let fake: FakeYoutube;
let account: FakeAccountTokens;
const music = [...seedCatalog().tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'youtube'));

interface GoogleErrorJson {
  error: { code: number; message: string; errors: { reason: string; domain: string }[]; status: string };
}

interface ListJson {
  items: { id: string; snippet: { position?: number; title?: string } }[];
  nextPageToken?: string;
  pageInfo: { totalResults: number; resultsPerPage: number };
}

async function api(path: string, init: { method?: string; body?: unknown; token?: string } = {}): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${fake.baseUrl}/youtube/v3${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${init.token ?? account.accessToken}`, ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as unknown) : null };
}

function authorizeUrl(params: Record<string, string>): string {
  const url = new URL(`${fake.baseUrl}/o/oauth2/v2/auth`);
  const defaults = { client_id: 'opl-demo-client', redirect_uri: REDIRECT, response_type: 'code', scope: SCOPE_YOUTUBE, state: 'st-1', code_challenge: pkceChallenge(VERIFIER), code_challenge_method: 'S256', access_type: 'offline' };
  for (const [name, value] of Object.entries({ ...defaults, ...params })) url.searchParams.set(name, value);
  return url.toString();
}

async function token(form: Record<string, string>): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${fake.baseUrl}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

async function codeFrom(url: string): Promise<URL> {
  const response = await fetch(url, { redirect: 'manual' });
  expect(response.status).toBe(302);
  return new URL(response.headers.get('location')!);
}

beforeAll(async () => {
  fake = await startFakeYoutube({ dailyUnits: 1_000, dailySearches: 2 });
  account = fake.createAccount({ displayName: 'Fake Tester', library: { playlists: [{ name: 'Seven', trackKeys: music.slice(0, 7).map((track) => track.key) }], likedTrackKeys: music.slice(10, 13).map((track) => track.key) } });
});

afterAll(async () => {
  await fake?.close();
});

describe('fake YouTube: Google OAuth', () => {
  it('approves at once as the chosen user and exchanges the code with the PKCE verifier, once', async () => {
    fake.setAuthorizeUser(account.userId);
    const back = await codeFrom(authorizeUrl({}));
    expect(back.searchParams.get('state')).toBe('st-1');
    const code = back.searchParams.get('code')!;
    expect(await token({ grant_type: 'authorization_code', code, code_verifier: 'w'.repeat(50), redirect_uri: REDIRECT, client_id: 'opl-demo-client' })).toMatchObject({ status: 400, json: { error: 'invalid_grant' } });
    // The failed attempt burnt the code, as Google does.
    expect((await token({ grant_type: 'authorization_code', code, code_verifier: VERIFIER, redirect_uri: REDIRECT, client_id: 'opl-demo-client' })).json['error']).toBe('invalid_grant');

    const fresh = (await codeFrom(authorizeUrl({}))).searchParams.get('code')!;
    const granted = await token({ grant_type: 'authorization_code', code: fresh, code_verifier: VERIFIER, redirect_uri: REDIRECT, client_id: 'opl-demo-client' });
    expect(granted.status).toBe(200);
    expect(granted.json).toMatchObject({ token_type: 'Bearer', expires_in: 3599, scope: SCOPE_YOUTUBE });
    expect(String(granted.json['access_token'])).toMatch(/^ya29\./);
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: String(granted.json['refresh_token']), client_id: 'opl-demo-client' });
    expect(refreshed.status).toBe(200);
    expect(refreshed.json['refresh_token']).toBeUndefined();
    expect((await api('/channels?part=snippet&mine=true', { token: String(refreshed.json['access_token']) })).status).toBe(200);
  });

  it('gives a refresh token only for offline access, and checks redirect URI, client and secret', async () => {
    fake.setAuthorizeUser(account.userId);
    const online = (await codeFrom(authorizeUrl({ access_type: 'online' }))).searchParams.get('code')!;
    const answer = await token({ grant_type: 'authorization_code', code: online, code_verifier: VERIFIER, redirect_uri: REDIRECT, client_id: 'opl-demo-client' });
    expect(answer.json['refresh_token']).toBeUndefined();
    const other = (await codeFrom(authorizeUrl({}))).searchParams.get('code')!;
    expect((await token({ grant_type: 'authorization_code', code: other, code_verifier: VERIFIER, redirect_uri: 'http://127.0.0.1:9/elsewhere', client_id: 'opl-demo-client' })).json['error']).toBe('redirect_uri_mismatch');

    fake.registerClient({ clientId: 'web-client.apps.googleusercontent.com', clientSecret: 'GOCSPX-secret', redirectUris: [REDIRECT] });
    const unregistered = await fetch(authorizeUrl({ client_id: 'web-client.apps.googleusercontent.com', redirect_uri: 'https://evil.example/cb' }), { redirect: 'manual' });
    expect(unregistered.status).toBe(400);
    expect(await unregistered.text()).toContain('redirect_uri_mismatch');
    expect((await fetch(authorizeUrl({ client_id: 'nobody' }), { redirect: 'manual' })).status).toBe(400);
    const code = (await codeFrom(authorizeUrl({ client_id: 'web-client.apps.googleusercontent.com' }))).searchParams.get('code')!;
    expect(await token({ grant_type: 'authorization_code', code, code_verifier: VERIFIER, redirect_uri: REDIRECT, client_id: 'web-client.apps.googleusercontent.com' })).toMatchObject({ status: 401, json: { error: 'invalid_client' } });
    const second = (await codeFrom(authorizeUrl({ client_id: 'web-client.apps.googleusercontent.com' }))).searchParams.get('code')!;
    expect((await token({ grant_type: 'authorization_code', code: second, code_verifier: VERIFIER, redirect_uri: REDIRECT, client_id: 'web-client.apps.googleusercontent.com', client_secret: 'GOCSPX-secret' })).status).toBe(200);
    expect((await fetch(authorizeUrl({ scope: 'https://www.googleapis.com/auth/drive' }), { redirect: 'manual' })).headers.get('location')).toContain('error=invalid_scope');
  });

  it('shows a consent form whose Agree approves and whose Cancel denies', async () => {
    fake.setAuthorizeUser(null);
    const page = await fetch(authorizeUrl({}));
    const html = await page.text();
    expect(html).toContain('Agree');
    expect(html).toContain('Manage your YouTube account');
    const form = new URLSearchParams(new URL(authorizeUrl({})).search);
    form.set('decision', 'agree');
    const agreed = await fetch(`${fake.baseUrl}/o/oauth2/v2/auth`, { method: 'POST', body: form, redirect: 'manual' });
    expect(new URL(agreed.headers.get('location')!).searchParams.get('code')).toBeTruthy();
    form.set('decision', 'deny');
    const denied = await fetch(`${fake.baseUrl}/o/oauth2/v2/auth`, { method: 'POST', body: form, redirect: 'manual' });
    expect(new URL(denied.headers.get('location')!).searchParams.get('error')).toBe('access_denied');
  });

  it('revokes a refresh token and the access tokens it minted', async () => {
    const victim = fake.createAccount({ displayName: 'Revoked' });
    const response = await fetch(`${fake.baseUrl}/revoke?token=${encodeURIComponent(victim.refreshToken)}`, { method: 'POST' });
    expect(response.status).toBe(200);
    expect((await api('/channels?part=snippet&mine=true', { token: victim.accessToken })).status).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token: victim.refreshToken, client_id: 'opl-demo-client' })).json['error']).toBe('invalid_grant');
  });
});

describe('fake YouTube: the Data API', () => {
  it('pages with opaque tokens and maxResults up to 50, and answers Google error bodies', async () => {
    const playlist = fake.playlistsOf(account.userId)[0]!;
    const first = (await api(`/playlistItems?part=snippet&playlistId=${playlist.id}&maxResults=3`)).json as ListJson;
    expect(first.items.map((item) => item.snippet.position)).toEqual([0, 1, 2]);
    expect(first.pageInfo.totalResults).toBe(7);
    const second = (await api(`/playlistItems?part=snippet&playlistId=${playlist.id}&maxResults=3&pageToken=${first.nextPageToken!}`)).json as ListJson;
    expect(second.items.map((item) => item.snippet.position)).toEqual([3, 4, 5]);
    expect((await api(`/playlistItems?part=snippet&playlistId=${playlist.id}`)).json).toMatchObject({ items: expect.any(Array) as unknown[], pageInfo: { resultsPerPage: 5 } });
    const badToken = await api(`/playlistItems?part=snippet&playlistId=${playlist.id}&pageToken=nonsense`);
    expect(badToken.status).toBe(400);
    expect((badToken.json as GoogleErrorJson).error.errors[0]!.reason).toBe('invalidPageToken');
    expect((await api(`/playlistItems?part=snippet&playlistId=${playlist.id}&maxResults=51`)).status).toBe(400);
    expect(((await api(`/playlistItems?playlistId=${playlist.id}`)).json as GoogleErrorJson).error.errors[0]!.reason).toBe('missingRequiredParameter');
    const missing = await api('/playlistItems?part=snippet&playlistId=PLnothing');
    expect(missing.status).toBe(404);
    expect((missing.json as GoogleErrorJson).error).toMatchObject({ code: 404, status: 'NOT_FOUND', errors: [{ reason: 'playlistNotFound' }] });
    expect(((await api('/playlists?part=snippet&id=PLnothing')).json as ListJson).items).toEqual([]);
  });

  it('inserts one video per request at a position and gives each entry its own id; deletes by entry id', async () => {
    const created = (await api('/playlists?part=snippet,status', { method: 'POST', body: { snippet: { title: 'Fresh' }, status: { privacyStatus: 'private' } } })).json as { id: string };
    const video = fake.trackId(music[20]!.key)!;
    const insert = (position?: number) => api('/playlistItems?part=snippet', { method: 'POST', body: { snippet: { playlistId: created.id, resourceId: { kind: 'youtube#video', videoId: video }, ...(position !== undefined ? { position } : {}) } } });
    const a = (await insert()).json as { id: string };
    const b = (await insert(0)).json as { id: string; snippet: { position: number } };
    expect(a.id).not.toBe(b.id);
    expect(b.snippet.position).toBe(0);
    expect(((await insert(5)).json as GoogleErrorJson).error.errors[0]!.reason).toBe('invalidPlaylistItemPosition');
    expect((await api('/playlistItems?part=snippet', { method: 'POST', body: { snippet: { playlistId: created.id, resourceId: { kind: 'youtube#video', videoId: 'ZZZZZZZZZZZ' } } } })).status).toBe(404);
    expect((await api('/playlistItems?part=snippet', { method: 'POST', body: [{ snippet: {} }] })).status).toBe(400);
    expect((await api(`/playlistItems?id=${a.id}`, { method: 'DELETE' })).status).toBe(204);
    expect(((await api(`/playlistItems?id=${a.id}`, { method: 'DELETE' })).json as GoogleErrorJson).error.errors[0]!.reason).toBe('playlistItemNotFound');
    expect(fake.playlistEntries(created.id)!.map((item) => item.id)).toEqual([b.id]);
  });

  it('searches the Music category with HTML-escaped snippets, and lists liked videos', async () => {
    const target = music[25]!;
    const search = (await api(`/search?part=snippet&type=video&videoCategoryId=10&maxResults=5&q=${encodeURIComponent(target.title)}`)).json as { items: { id: { videoId: string } }[] };
    expect(search.items.map((item) => item.id.videoId)).toContain(fake.trackId(target.key));
    expect((await api('/search?part=snippet&videoCategoryId=10&q=x')).status).toBe(400);
    const liked = (await api('/videos?part=snippet,contentDetails&myRating=like')).json as { items: { id: string; contentDetails: { duration: string } }[] };
    expect(liked.items.map((item) => item.id).sort()).toEqual(music.slice(10, 13).map((track) => fake.trackId(track.key)).sort());
    expect(liked.items[0]!.contentDetails.duration).toMatch(/^PT/);
  });

  it('charges each client’s daily quota per method, search.list on its own budget, and answers 403 quotaExceeded when spent', async () => {
    fake.setQuotaUsed({ units: 0, searches: 0 });
    await api('/channels?part=snippet&mine=true');
    expect(fake.quotaUsed()).toMatchObject({ units: 1, searches: 0 });
    const created = (await api('/playlists?part=snippet', { method: 'POST', body: { snippet: { title: 'Costly' } } })).json as { id: string };
    expect(fake.quotaUsed().units).toBe(51);
    // Invalid requests cost too.
    await api('/playlistItems?part=snippet&playlistId=PLnothing');
    expect(fake.quotaUsed().units).toBe(52);
    await api('/search?part=snippet&type=video&q=golden');
    await api('/search?part=snippet&type=video&q=golden');
    expect(fake.quotaUsed()).toMatchObject({ units: 52, searches: 2 });
    const spentSearch = await api('/search?part=snippet&type=video&q=golden');
    expect(spentSearch.status).toBe(403);
    expect((spentSearch.json as GoogleErrorJson).error.errors[0]).toMatchObject({ reason: 'quotaExceeded', domain: 'youtube.quota' });
    fake.setQuotaUsed({ units: 960 });
    expect((await api(`/playlists?id=${created.id}`, { method: 'DELETE' })).status).toBe(403);
    expect(fake.playlistsOf(account.userId).map((playlist) => playlist.id)).toContain(created.id);
    expect((await api('/channels?part=snippet&mine=true')).status).toBe(200);
    fake.setQuotaUsed({ units: 0, searches: 0 });
  });

  it('seeds a demo channel whose consent approves at once', async () => {
    const demo = await startFakeYoutube({ demo: true });
    try {
      expect(demo.demoAccount).not.toBeNull();
      const playlists = demo.playlistsOf(demo.demoAccount!.userId);
      expect(playlists.map((playlist) => playlist.title)).toEqual(['Road Trip 2024', 'Repeat Offenders', 'Empty For Now']);
      const trip = playlists[0]!.items.map((item) => demo.state.catalog.videos.get(item.videoId)!.kind);
      expect(trip).toContain('music_video');
      expect(trip).toContain('upload');
      const response = await fetch(`${demo.baseUrl}/o/oauth2/v2/auth?${new URL(authorizeUrl({})).searchParams.toString()}`, { redirect: 'manual' });
      expect(new URL(response.headers.get('location')!).searchParams.get('code')).toBeTruthy();
    } finally {
      await demo.close();
    }
  });
});
