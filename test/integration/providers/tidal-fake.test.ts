import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pkceChallenge, type FakeAccountTokens } from '../../fakes/fake-provider.ts';
import { demoLibrary } from '../../fakes/seed-catalog.ts';
import { startFakeTidal, type FakeTidal } from '../../fakes/tidal/index.ts';

/** The fake TIDAL over plain HTTP: its OAuth flow and the JSON:API rules the plugin relies on. */

const REDIRECT = 'http://127.0.0.1:9/callback';
const VERIFIER = 'v'.repeat(43) + '-verifier-of-enough-length';
const JSON_API = { 'content-type': 'application/vnd.api+json' };

let fake: FakeTidal;
let account: FakeAccountTokens;

interface IdentifierJson {
  id: string;
  type: string;
  meta: { itemId: string; addedAt?: string };
}

interface ResourceJson {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
  relationships: Record<string, { data: IdentifierJson[] }>;
}

/** What the tests read from answers; `data` is one resource or a list, depending on the endpoint. */
interface DocumentJson {
  data: ResourceJson & IdentifierJson & (ResourceJson & IdentifierJson)[];
  included: ResourceJson[];
  links: { self: string; next?: string; meta: { nextCursor: string } };
  meta: { skipped: unknown[] };
  errors: { status: string; code?: string; source?: { pointer?: string } }[];
}

beforeAll(async () => {
  fake = await startFakeTidal({ pageSize: 5 });
  account = fake.createAccount({ displayName: 'Fake Tester', library: { playlists: demoLibrary().playlists!.slice(0, 4), likedTrackKeys: ['tr1', 'tr2'] } });
});

afterAll(async () => {
  await fake?.close();
});

async function api(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string>; token?: string } = {}) {
  const response = await fetch(`${fake.baseUrl}/v2${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${init.token ?? account.accessToken}`, ...(init.body !== undefined ? JSON_API : {}), ...init.headers },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as DocumentJson) : null };
}

function authorizeUrl(params: Record<string, string> = {}): string {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: 'opl-demo-client',
    redirect_uri: REDIRECT,
    scope: 'playlists.read playlists.write user.read',
    code_challenge: pkceChallenge(VERIFIER),
    code_challenge_method: 'S256',
    state: 'st-1',
    ...params,
  });
  return `${fake.baseUrl}/authorize?${query}`;
}

async function token(form: Record<string, string>) {
  const response = await fetch(`${fake.baseUrl}/v1/oauth2/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

function redirectTarget(response: Response): URL {
  expect(response.status).toBe(302);
  return new URL(response.headers.get('location')!);
}

async function codeFor(userId: string): Promise<string> {
  fake.setAuthorizeUser(userId);
  try {
    const location = redirectTarget(await fetch(authorizeUrl(), { redirect: 'manual' }));
    expect(location.searchParams.get('state')).toBe('st-1');
    return location.searchParams.get('code')!;
  } finally {
    fake.setAuthorizeUser(null);
  }
}

describe('OAuth (PKCE)', () => {
  it('maps all three TIDAL origins to the one port', () => {
    expect(fake.originOverrides).toEqual({ 'https://openapi.tidal.com': fake.baseUrl, 'https://login.tidal.com': fake.baseUrl, 'https://auth.tidal.com': fake.baseUrl });
  });

  it('approves at once as the authorize user and exchanges the code for tokens once', async () => {
    const code = await codeFor(account.userId);
    const exchange = { grant_type: 'authorization_code', client_id: 'opl-demo-client', code, redirect_uri: REDIRECT, code_verifier: VERIFIER };
    const first = await token(exchange);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'playlists.read playlists.write user.read', user_id: Number(account.userId) });
    const me = await api('/users/me', { token: first.body['access_token'] as string });
    expect(me.body!['data'].id).toBe(account.userId);
    const replay = await token(exchange);
    expect(replay).toMatchObject({ status: 400, body: { error: 'invalid_grant', status: 400 } });

    const refreshed = await token({ grant_type: 'refresh_token', client_id: 'opl-demo-client', refresh_token: first.body['refresh_token'] as string });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body['access_token']).not.toBe(first.body['access_token']);
    expect(refreshed.body['refresh_token']).toBeUndefined();
    expect((await token({ grant_type: 'refresh_token', client_id: 'opl-demo-client', refresh_token: 'nope' })).body).toMatchObject({ error: 'invalid_grant', sub_status: 11003 });
  });

  it('checks the verifier and the redirect URI', async () => {
    const wrongVerifier = await token({ grant_type: 'authorization_code', client_id: 'opl-demo-client', code: await codeFor(account.userId), redirect_uri: REDIRECT, code_verifier: 'x'.repeat(50) });
    expect(wrongVerifier).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const wrongRedirect = await token({ grant_type: 'authorization_code', client_id: 'opl-demo-client', code: await codeFor(account.userId), redirect_uri: 'http://127.0.0.1:9/other', code_verifier: VERIFIER });
    expect(wrongRedirect).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await token({ grant_type: 'authorization_code', client_id: 'someone-else', code: 'x', redirect_uri: REDIRECT, code_verifier: VERIFIER })).status).toBe(401);
  });

  it('shows a consent form whose Agree signs in as the latest account, and Cancel denies', async () => {
    const page = await fetch(authorizeUrl());
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('>Agree</button>');
    expect(html).toContain('Fake Tester');
    const form = new URLSearchParams(new URL(authorizeUrl()).searchParams);
    form.set('decision', 'agree');
    const agreed = redirectTarget(await fetch(`${fake.baseUrl}/authorize`, { method: 'POST', body: form, redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' } }));
    const exchanged = await token({ grant_type: 'authorization_code', client_id: 'opl-demo-client', code: agreed.searchParams.get('code')!, redirect_uri: REDIRECT, code_verifier: VERIFIER });
    expect(exchanged.body['user_id']).toBe(Number(account.userId));
    form.set('decision', 'deny');
    const denied = redirectTarget(await fetch(`${fake.baseUrl}/authorize`, { method: 'POST', body: form, redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' } }));
    expect(Object.fromEntries(denied.searchParams)).toMatchObject({ error: 'access_denied', state: 'st-1' });
  });

  it('refuses unknown clients and unregistered redirect URIs on its own page, and bad requests by redirect', async () => {
    expect((await fetch(authorizeUrl({ client_id: 'unknown' }), { redirect: 'manual' })).status).toBe(400);
    fake.registerClient({ clientId: 'registered', redirectUris: ['https://engine.example/cb'] });
    expect((await fetch(authorizeUrl({ client_id: 'registered' }), { redirect: 'manual' })).status).toBe(400);
    expect(redirectTarget(await fetch(authorizeUrl({ code_challenge_method: 'plain' }), { redirect: 'manual' })).searchParams.get('error')).toBe('invalid_request');
    expect(redirectTarget(await fetch(authorizeUrl({ scope: 'r_usr' }), { redirect: 'manual' })).searchParams.get('error')).toBe('invalid_scope');
  });
});

describe('JSON:API', () => {
  async function ownPlaylists() {
    const ids: string[] = [];
    let path: string | null = '/playlists?filter[owners.id]=me';
    while (path) {
      const page = await api(path);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('application/vnd.api+json');
      ids.push(...(page.body!['data'] as { id: string }[]).map((entry) => entry.id));
      path = page.body!['links'].next ?? null;
    }
    return ids;
  }

  it('pages owner-filtered playlists with links.next and links.meta.nextCursor', async () => {
    const first = await api('/playlists?filter[owners.id]=me');
    expect(first.body!['data']).toHaveLength(4);
    expect(first.body!['links'].next).toBeUndefined();
    fake.createAccount({ displayName: 'Other' });
    const many = fake.createAccount({ displayName: 'Many', library: { playlists: Array.from({ length: 7 }, (_, index) => ({ name: `P${index}`, trackKeys: [] })) } });
    const page = await api('/playlists?filter[owners.id]=me', { token: many.accessToken });
    expect(page.body!['data']).toHaveLength(5);
    expect(page.body!['links'].meta.nextCursor).toBeTruthy();
    expect(page.body!['links'].next).toContain(`page[cursor]=${page.body!['links'].meta.nextCursor}`);
    expect((await ownPlaylists()).length).toBe(4);
  });

  it('requires a documented filter and validates include paths', async () => {
    expect((await api('/playlists')).body!['errors'][0]).toMatchObject({ status: '400', code: 'FILTER_REQUIRED' });
    expect((await api('/playlists?filter[name]=x')).status).toBe(400);
    const [id] = await ownPlaylists();
    expect((await api(`/playlists/${id}?include=items.albums.coverArt.files`)).body!['errors'][0]!.code).toBe('INCLUDE_TOO_DEEP');
    expect((await api(`/playlists/${id}?include=nonsense`)).body!['errors'][0]!.code).toBe('INVALID_INCLUDE');
    const withItems = await api(`/playlists/${id}?include=items.tracks:albums`);
    expect(withItems.status).toBe(200);
    expect(withItems.body!['data'].relationships['items']!.data.length).toBeGreaterThan(0);
    expect(withItems.body!['included'].some((resource: { type: string }) => resource.type === 'albums')).toBe(true);
  });

  it('gives every entry its own item id, duplicates included, and pages items with includes', async () => {
    const repeat = fake.playlistsOf(account.userId).find((playlist) => playlist.name === 'Repeat Offenders')!;
    const entries = fake.playlistEntries(repeat.id)!;
    expect(entries).toHaveLength(11);
    expect(new Set(entries.map((entry) => entry.itemId)).size).toBe(11);
    expect(entries[0]!.id).toBe(entries[8]!.id);
    const page = await api(`/playlists/${repeat.id}/relationships/items?include=items.artists,items.albums.coverArt`);
    expect(page.body!['data'].map((entry: { meta: { itemId: string } }) => entry.meta.itemId)).toEqual(entries.slice(0, 5).map((entry) => entry.itemId));
    const types = new Set(page.body!['included'].map((resource: { type: string }) => resource.type));
    expect(types).toEqual(new Set(['tracks', 'artists', 'albums', 'artworks']));
  });

  it('enforces 1 to 50 entries per mutation, and inserts before an item', async () => {
    const created = await api('/playlists', { method: 'POST', body: { data: { type: 'playlists', attributes: { name: 'Limits' } } } });
    expect(created.status).toBe(201);
    const id = created.body!['data'].id;
    const track = fake.trackId('tr1')!;
    const tooMany = await api(`/playlists/${id}/relationships/items`, { method: 'POST', body: { data: Array.from({ length: 51 }, () => ({ id: track, type: 'tracks' })) } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body!['errors'][0]).toMatchObject({ status: '400', source: { pointer: '/data' } });
    expect((await api(`/playlists/${id}/relationships/items`, { method: 'POST', body: { data: [] } })).status).toBe(400);
    const fifty = await api(`/playlists/${id}/relationships/items`, { method: 'POST', body: { data: Array.from({ length: 50 }, () => ({ id: track, type: 'tracks' })) } });
    expect(fifty.status).toBe(200);
    const before = fifty.body!['data'][1]!.meta.itemId;
    const other = fake.trackId('tr2')!;
    const inserted = await api(`/playlists/${id}/relationships/items`, { method: 'POST', body: { data: [{ id: other, type: 'tracks' }, { id: '1', type: 'tracks' }], meta: { positionBefore: before } } });
    expect(inserted.body!['meta'].skipped).toEqual([{ id: '1', type: 'tracks', reason: 'NOT_FOUND' }]);
    expect(fake.playlistEntries(id)!.map((entry) => entry.id).slice(0, 3)).toEqual([track, other, track]);
    expect((await api(`/playlists/${id}/relationships/items`, { method: 'POST', body: { data: [{ id: other, type: 'tracks' }], meta: { positionBefore: 'no-such-item' } } })).status).toBe(400);
    const removed = await api(`/playlists/${id}/relationships/items`, { method: 'DELETE', body: { data: [{ id: track, type: 'tracks', meta: { itemId: before } }] } });
    expect(removed.status).toBe(200);
    expect(fake.playlistEntries(id)).toHaveLength(50);
    expect((await api(`/playlists/${id}/relationships/items`, { method: 'DELETE', body: { data: [{ id: track, type: 'tracks' }] } })).status).toBe(400);
  });

  it('replays an Idempotency-Key with the same payload and refuses it with another', async () => {
    const body = { data: { type: 'playlists', attributes: { name: 'Once' } } };
    const first = await api('/playlists', { method: 'POST', body, headers: { 'idempotency-key': 'k-1' } });
    const second = await api('/playlists', { method: 'POST', body, headers: { 'idempotency-key': 'k-1' } });
    expect(second.status).toBe(201);
    expect(second.body!['data'].id).toBe(first.body!['data'].id);
    expect(fake.playlistsOf(account.userId).filter((playlist) => playlist.name === 'Once')).toHaveLength(1);
    const mismatch = await api('/playlists', { method: 'POST', body: { data: { type: 'playlists', attributes: { name: 'Twice' } } }, headers: { 'idempotency-key': 'k-1' } });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body!['errors'][0]!.code).toBe('IDEMPOTENT_REQUEST_PAYLOAD_MISMATCH');
  });

  it('changes lastModifiedAt on every write', async () => {
    const created = await api('/playlists', { method: 'POST', body: { data: { type: 'playlists', attributes: { name: 'Versions' } } } });
    const id = created.body!['data'].id;
    const stamps = [created.body!['data'].attributes.lastModifiedAt as string];
    for (let round = 0; round < 3; round++) {
      await api(`/playlists/${id}/relationships/items`, { method: 'POST', body: { data: [{ id: fake.trackId('tr3')!, type: 'tracks' }] } });
      stamps.push((await api(`/playlists/${id}`)).body!['data'].attributes.lastModifiedAt as string);
    }
    expect(new Set(stamps).size).toBe(4);
  });

  it('applies an ambiguous write and then drops the connection', async () => {
    const created = await api('/playlists', { method: 'POST', body: { data: { type: 'playlists', attributes: { name: 'Lost answer' } } } });
    const id = created.body!['data'].id;
    fake.failNext({ kind: 'ambiguous_write', method: 'POST', pathPrefix: `/v2/playlists/${id}` });
    await expect(api(`/playlists/${id}/relationships/items`, { method: 'POST', body: { data: [{ id: fake.trackId('tr4')!, type: 'tracks' }] } })).rejects.toThrow();
    expect(fake.playlistEntries(id)).toHaveLength(1);
  });

  it('answers failures with the provider bodies', async () => {
    fake.failNext({ kind: 'rate_limit', retryAfterS: 7 });
    const limited = await api('/users/me');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect(limited.body!['errors'][0]).toMatchObject({ status: '429' });
    fake.failNext({ kind: 'server_error', status: 500 });
    expect((await api('/users/me')).body!['errors'][0]).toMatchObject({ status: '500' });
    const expiring = fake.createAccount({ displayName: 'Expiring' });
    fake.expireAccessToken(expiring.accessToken);
    const expired = await api('/users/me', { token: expiring.accessToken });
    expect(expired.status).toBe(401);
    expect(expired.body!['errors'][0]).toMatchObject({ status: '401', code: 'UNAUTHORIZED' });
    expect((await api('/users/me', { token: 'made-up' })).status).toBe(401);
    const shortLived = fake.createAccount({ displayName: 'Short', expiresIn: -1 });
    expect((await api('/users/me', { token: shortLived.accessToken })).status).toBe(401);
  });

  it('answers a quota failure as the 429 TIDAL has for both, and can leave a request unanswered', async () => {
    fake.failNext({ kind: 'quota', retryAfterS: 3600 });
    const quota = await api('/users/me');
    expect(quota.status).toBe(429);
    expect(quota.headers.get('retry-after')).toBe('3600');
    fake.failNext({ kind: 'timeout', pathPrefix: '/v2/users' });
    const silent = fetch(`${fake.baseUrl}/v2/users/me`, { headers: { authorization: `Bearer ${account.accessToken}` }, signal: AbortSignal.timeout(300) });
    await expect(silent).rejects.toThrow();
    expect((await api('/users/me')).status).toBe(200);
  });

  it('enforces scopes and the JSON:API media type', async () => {
    const reader = fake.createAccount({ displayName: 'Reader', scopes: ['playlists.read', 'user.read'] });
    const refused = await api('/playlists', { method: 'POST', token: reader.accessToken, body: { data: { type: 'playlists', attributes: { name: 'No' } } } });
    expect(refused.status).toBe(403);
    expect((await api('/searchResults?filter[query]=golden', { token: reader.accessToken })).status).toBe(403);
    const plainJson = await api('/playlists', { method: 'POST', body: { data: { type: 'playlists', attributes: { name: 'x' } } }, headers: { 'content-type': 'application/json' } });
    expect(plainJson.status).toBe(415);
  });

  it('looks tracks up by ISRC, albums by barcode, and searches', async () => {
    const track = fake.state.catalog.tracks.get(fake.trackId('tr5')!)!;
    const byIsrc = await api(`/tracks?filter[isrc]=${track.isrc}&include=artists,albums`);
    expect(byIsrc.body!['data'].map((entry: { id: string }) => entry.id)).toEqual([track.id]);
    expect(byIsrc.body!['data'][0]!.relationships['artists']!.data[0]!.id).toBe(track.artistIds[0]);
    const album = fake.state.catalog.albums.get(track.albumId)!;
    expect((await api(`/albums?filter[barcodeId]=${album.barcodeId}`)).body!['data'][0]!.id).toBe(album.id);
    const search = await api(`/searchResults?filter[query]=${encodeURIComponent(track.title)}&include=tracks`);
    expect(search.body!['data'][0]!.relationships['tracks']!.data.map((entry: { id: string }) => entry.id)).toContain(track.id);
    expect((await api('/searchResults?filter[query]=')).status).toBe(400);
  });
});

describe('demo mode', () => {
  it('seeds a small library, auto-approves as the demo user and closes cleanly', async () => {
    const demo = await startFakeTidal({ demo: true });
    try {
      const user = demo.demoAccount!;
      const playlists = demo.playlistsOf(user.userId);
      expect(playlists.map((playlist) => playlist.name)).toEqual(['Late Night Focus', 'Repeat Offenders']);
      expect(playlists[0]!.items.some((entry) => entry.type === 'videos')).toBe(true);
      expect(demo.state.collectionOf(user.userId).tracks.length).toBeGreaterThan(0);
      const location = new URL((await fetch(authorizeUrl().replace(fake.baseUrl, demo.baseUrl), { redirect: 'manual' })).headers.get('location')!);
      const code = demo.state.codes.get(location.searchParams.get('code')!)!;
      expect(code.userId).toBe(user.userId);
    } finally {
      await demo.close();
    }
  });
});
