import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEEZER_PLUGIN_PERMS, MAX_SONGS_PER_REQUEST, startFakeDeezer, type FakeDeezerServer } from '../../fakes/deezer/index.ts';
import type { FakeAccountTokens } from '../../fakes/fake-provider.ts';
import { demoLibrary, isAvailableOn, seedCatalog } from '../../fakes/seed-catalog.ts';

/**
 * The Deezer fake itself, over plain HTTP: Deezer Connect's authorization and code exchange, the
 * token in the query, 200-with-error answers, paging links, and the playlist rules the plugin
 * relies on. If the fake drifts from Deezer's behaviour, the plugin tests prove nothing.
 */

let fake: FakeDeezerServer;
let listener: FakeAccountTokens;

async function get(path: string, token: string | null = listener.accessToken, method = 'GET'): Promise<unknown> {
  const url = new URL(path, fake.baseUrl);
  if (token !== null) url.searchParams.set('access_token', token);
  const response = await fetch(url, { method });
  expect(response.status).toBe(200);
  return response.json();
}

function authorizeUrl(params: Record<string, string>): string {
  return `${fake.baseUrl}/oauth/auth.php?${new URLSearchParams(params).toString()}`;
}

beforeAll(async () => {
  fake = await startFakeDeezer();
  listener = fake.createAccount({ displayName: 'Fake Test Listener', library: demoLibrary() });
});

afterAll(async () => {
  await fake?.close();
});

describe('Deezer Connect', () => {
  const redirectUri = 'http://127.0.0.1:9/callback';

  it('approves at once for a preset user and exchanges the code once, as JSON or as text', async () => {
    fake.registerClient({ clientId: 'app-1', clientSecret: 'secret-1' });
    fake.setAuthorizeUser(listener.userId);
    const authorize = await fetch(authorizeUrl({ app_id: 'app-1', redirect_uri: redirectUri, perms: 'basic_access,offline_access', state: 'st-1' }), { redirect: 'manual' });
    expect(authorize.status).toBe(302);
    const back = new URL(authorize.headers.get('location')!);
    expect(back.searchParams.get('state')).toBe('st-1');
    const code = back.searchParams.get('code')!;
    const wrongSecret = await fetch(`${fake.baseUrl}/oauth/access_token.php?app_id=app-1&secret=nope&code=${code}&output=json`);
    expect(await wrongSecret.text()).toBe('wrong code');
    const exchanged = (await (await fetch(`${fake.baseUrl}/oauth/access_token.php?app_id=app-1&secret=secret-1&code=${code}&output=json`)).json()) as { access_token: string; expires: number };
    expect(exchanged.expires).toBe(0);
    expect(await get('/user/me', exchanged.access_token)).toMatchObject({ id: Number(listener.userId) });
    const replay = await fetch(`${fake.baseUrl}/oauth/access_token.php?app_id=app-1&secret=secret-1&code=${code}`);
    expect(await replay.text()).toBe('wrong code');

    const again = await fetch(authorizeUrl({ app_id: 'app-1', redirect_uri: redirectUri, perms: 'basic_access' }), { redirect: 'manual' });
    const second = new URL(again.headers.get('location')!).searchParams.get('code')!;
    const text = await (await fetch(`${fake.baseUrl}/oauth/access_token.php?app_id=app-1&secret=secret-1&code=${second}`)).text();
    expect(text).toMatch(/^access_token=[A-Za-z0-9]+&expires=3600$/);
  });

  it('shows a consent form without a preset user; "Cancel" comes back as error_reason=user_denied', async () => {
    fake.setAuthorizeUser(null);
    const page = await fetch(authorizeUrl({ app_id: 'opl-demo-client', redirect_uri: redirectUri, perms: 'basic_access,manage_library', state: 'st-2' }));
    const html = await page.text();
    expect(html).toContain('Agree');
    expect(html).toContain('manage_library');
    const request = /name="request" value="([^"]+)"/.exec(html)![1]!;
    const cancelled = await fetch(`${fake.baseUrl}/oauth/auth.php`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `request=${request}&decision=cancel` });
    const back = new URL(cancelled.headers.get('location')!);
    expect(Object.fromEntries(back.searchParams)).toEqual({ error_reason: 'user_denied', state: 'st-2' });
  });

  it('refuses unknown apps and unknown perms on the authorize page', async () => {
    expect((await fetch(authorizeUrl({ app_id: 'nope', redirect_uri: redirectUri, perms: 'basic_access' }))).status).toBe(400);
    expect((await fetch(authorizeUrl({ app_id: 'opl-demo-client', redirect_uri: redirectUri, perms: 'basic_access,everything' }))).status).toBe(400);
  });
});

describe('the API', () => {
  it('takes the token only from the query and answers failures as 200 with an error body', async () => {
    expect(await get('/user/me', null)).toMatchObject({ error: { type: 'OAuthException', code: 200 } });
    expect(await get('/user/me', 'not-a-token')).toMatchObject({ error: { type: 'OAuthException', code: 300 } });
    const withHeader = await fetch(`${fake.baseUrl}/user/me`, { headers: { authorization: `Bearer ${listener.accessToken}` } });
    expect(await withHeader.json()).toMatchObject({ error: { code: 200 } });
    expect(await get('/playlist/1')).toMatchObject({ error: { type: 'DataException', message: 'no data', code: 800 } });
    fake.failNext({ kind: 'rate_limit' });
    expect(await get('/user/me')).toEqual({ error: { type: 'Exception', message: 'Quota limit exceeded', code: 4 } });
  });

  it('pages with index and limit, linking the next page on the real origin', async () => {
    const first = (await get('/user/me/tracks?limit=7')) as { data: { id: number }[]; total: number; next: string };
    expect(first.data).toHaveLength(7);
    expect(first.total).toBe(fake.library(listener.userId)!.tracks.length);
    const next = new URL(first.next);
    expect(next.origin).toBe('https://api.deezer.com');
    expect(next.searchParams.get('index')).toBe('7');
    const last = (await get(`/user/me/tracks?index=${first.total - 2}&limit=7`)) as { data: unknown[]; next?: string; prev?: string };
    expect(last.data).toHaveLength(2);
    expect(last.next).toBeUndefined();
    expect(last.prev).toBeTruthy();
  });

  it('holds a track once: a request with a track already there is refused whole', async () => {
    const created = (await get('/user/me/playlists?title=Rules', listener.accessToken, 'POST')) as { id: number };
    const songs = [...seedCatalog().tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'deezer')).slice(0, 3).map((track) => fake.trackIdOf(track.key)!);
    expect(await get(`/playlist/${created.id}/tracks?songs=${songs[0]},${songs[1]}`, listener.accessToken, 'POST')).toBe(true);
    expect(await get(`/playlist/${created.id}/tracks?songs=${songs[2]},${songs[0]}`, listener.accessToken, 'POST')).toMatchObject({ error: { message: 'This song already exists in this playlist', code: 500 } });
    expect(fake.playlist(String(created.id))!.trackIds).toEqual([songs[0], songs[1]]);
    const tooMany = Array.from({ length: MAX_SONGS_PER_REQUEST + 1 }, () => songs[2]).join(',');
    expect(await get(`/playlist/${created.id}/tracks?songs=${tooMany}`, listener.accessToken, 'POST')).toMatchObject({ error: { code: 100 } });
    expect(await get(`/playlist/${created.id}/tracks?order=${songs[1]},${songs[0]}`, listener.accessToken, 'POST')).toBe(true);
    expect(fake.playlist(String(created.id))!.trackIds).toEqual([songs[1], songs[0]]);
    expect(await get(`/playlist/${created.id}/tracks?order=${songs[1]}`, listener.accessToken, 'POST')).toMatchObject({ error: { code: 500 } });
    expect(await get(`/playlist/${created.id}/tracks?songs=${songs[1]}`, listener.accessToken, 'DELETE')).toBe(true);
    expect(fake.playlist(String(created.id))!.trackIds).toEqual([songs[0]]);
  });

  it('keeps a seeded playlist free of repeats and lets only the creator delete it', async () => {
    const repeat = fake.playlistByTitle(listener.userId, 'Repeat Offenders')!;
    expect(new Set(repeat.trackIds).size).toBe(repeat.trackIds.length);
    const friends = fake.playlistByTitle(listener.userId, 'Friends Weekly')!;
    expect(await get(`/playlist/${friends.id}`, listener.accessToken, 'DELETE')).toMatchObject({ error: { code: 200 } });
    const limited = fake.createAccount({ displayName: 'Read Only', scopes: ['basic_access'] });
    const own = (await get('/user/me/playlists?title=Mine', limited.accessToken, 'POST')) as { error?: unknown };
    expect(own).toMatchObject({ error: { code: 200 } });
    expect(DEEZER_PLUGIN_PERMS).toContain('delete_library');
  });

  it('looks tracks up by ISRC with the full object, and searches with the advanced syntax', async () => {
    const track = [...seedCatalog().tracks.values()].find((entry) => entry.isrc && isAvailableOn(entry, 'deezer'))!;
    const full = (await get(`/track/isrc:${track.isrc}`)) as Record<string, unknown>;
    expect(full).toMatchObject({ isrc: track.isrc, track_position: track.trackNumber, disk_number: 1 });
    expect(Array.isArray(full['contributors'])).toBe(true);
    const artist = seedCatalog().artists.get(track.artistKeys[0]!)!.name;
    const found = (await get(`/search/track?q=${encodeURIComponent(`artist:"${artist}" track:"${track.title}"`)}`)) as { data: Record<string, unknown>[] };
    expect(found.data.map((entry) => entry['id'])).toContain(Number(fake.trackIdOf(track.key)));
    expect(found.data[0]!['isrc']).toBeUndefined();
  });
});

describe('demo mode', () => {
  it('seeds the demo listener and approves the authorize page as them', async () => {
    const demo = await startFakeDeezer({ demo: true });
    try {
      expect(demo.demoUserId).toBeTruthy();
      const authorize = await fetch(`${demo.baseUrl}/oauth/auth.php?app_id=opl-demo-client&redirect_uri=${encodeURIComponent('http://127.0.0.1:9/cb')}&perms=basic_access`, { redirect: 'manual' });
      const code = new URL(authorize.headers.get('location')!).searchParams.get('code')!;
      // The demo app has no secret.
      const token = (await (await fetch(`${demo.baseUrl}/oauth/access_token.php?app_id=opl-demo-client&code=${code}&output=json`)).json()) as { access_token: string };
      const me = (await (await fetch(`${demo.baseUrl}/user/me?access_token=${token.access_token}`)).json()) as { id: number; name: string };
      expect(me).toMatchObject({ id: Number(demo.demoUserId), name: 'Demo Listener' });
      expect(demo.library(demo.demoUserId!)!.playlists.length).toBeGreaterThan(5);
    } finally {
      await demo.close();
    }
  });
});
