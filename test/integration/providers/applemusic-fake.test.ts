import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDeveloperKey, MAX_LIFETIME_S, signDeveloperToken } from '../../fakes/applemusic/developer-token.ts';
import { DEMO_USER_TOKEN, startFakeAppleMusic, type FakeAppleMusic } from '../../fakes/applemusic/index.ts';
import type { FakeAccountTokens } from '../../fakes/fake-provider.ts';
import { demoLibrary, isAvailableOn, seedCatalog } from '../../fakes/seed-catalog.ts';

/**
 * The Apple Music fake itself, over plain HTTP: developer-token checks (key id, issuer, expiry,
 * lifetime, signature), the music user token, Apple's error documents, limits, offset paging,
 * the empty-playlist 404, 201 and 204 writes, delayed appends, the storefront's catalogue, and
 * the failure modes tests steer. The plugin's behaviour is tested in applemusic-plugin.test.ts.
 */

let fake: FakeAppleMusic;
let user: FakeAccountTokens;

async function api(path: string, init: { method?: string; body?: unknown; developerToken?: string | null; userToken?: string | null } = {}) {
  const headers: Record<string, string> = {};
  const developerToken = init.developerToken === undefined ? fake.developerToken() : init.developerToken;
  if (developerToken) headers['authorization'] = `Bearer ${developerToken}`;
  const userToken = init.userToken === undefined ? user.accessToken : init.userToken;
  if (userToken) headers['music-user-token'] = userToken;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${fake.baseUrl}${path}`, { method: init.method ?? 'GET', headers, ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

const firstError = (json: Record<string, unknown> | null) => (json?.['errors'] as Record<string, unknown>[] | undefined)?.[0];

beforeAll(async () => {
  fake = await startFakeAppleMusic({ appendVisibleAfterReads: 2 });
  user = fake.createAccount({ displayName: 'Fake Tester', library: demoLibrary() });
});

afterAll(async () => {
  await fake?.close();
});

describe('developer token', () => {
  it('accepts the key it generated and refuses anything else with 401', async () => {
    expect((await api('/v1/catalog/us/songs?ids=1')).status).toBe(200);
    const stranger = generateDeveloperKey('TEAMSTRANGE', 'KEYSTRANGE').material;
    const now = Math.floor(Date.now() / 1000);
    const refused = [
      null,
      'not.a.jwt',
      signDeveloperToken(stranger),
      signDeveloperToken(fake.developerKey, { teamId: 'OTHERTEAM' }),
      signDeveloperToken(fake.developerKey, { keyId: 'NOSUCHKEY' }),
      signDeveloperToken(fake.developerKey, { nowS: now - 7200, lifetimeS: 3600 }),
      signDeveloperToken(fake.developerKey, { lifetimeS: MAX_LIFETIME_S + 1 }),
      signDeveloperToken(fake.developerKey, { nowS: now + 3600 }),
      `${fake.developerToken().slice(0, -4)}AAAA`,
    ];
    for (const token of refused) {
      const answer = await api('/v1/catalog/us/songs?ids=1', { developerToken: token });
      expect(answer.status, String(token)).toBe(401);
      expect(firstError(answer.json)).toMatchObject({ status: '401', code: '40100' });
    }
  });

  it('trusts another key when told to', async () => {
    const own = generateDeveloperKey('TEAMOWN001', 'KEYOWN0001');
    fake.trustDeveloperKey({ team_id: 'TEAMOWN001', key_id: 'KEYOWN0001', public_key_pem: own.trusted.publicKey.export({ type: 'spki', format: 'pem' }).toString() });
    expect((await api('/v1/me/storefront', { developerToken: signDeveloperToken(own.material) })).status).toBe(200);
  });
});

describe('music user token', () => {
  it('is needed for /v1/me and answered 403 when missing, unknown or expired; the catalogue needs none', async () => {
    expect((await api('/v1/me/storefront', { userToken: null })).status).toBe(403);
    expect((await api('/v1/me/storefront', { userToken: 'mut-unknown' })).status).toBe(403);
    expect((await api('/v1/catalog/us/songs?ids=1', { userToken: null })).status).toBe(200);
    const other = fake.createAccount({ displayName: 'Soon Expired' });
    fake.expireAccessToken(other.accessToken);
    const expired = await api('/v1/me/storefront', { userToken: other.accessToken });
    expect(expired.status).toBe(403);
    expect(firstError(expired.json)).toMatchObject({ status: '403', code: '40300', title: 'Forbidden' });
    const fresh = fake.issueUserToken(other.userId);
    expect((await api('/v1/me/storefront', { userToken: fresh })).status).toBe(200);
  });
});

describe('library', () => {
  it('pages library playlists alphabetically with offset and next links, limit at most 100', async () => {
    const first = await api('/v1/me/library/playlists?limit=3');
    const data = first.json!['data'] as { id: string; attributes: { name: string } }[];
    expect(data.map((playlist) => playlist.attributes.name)).toEqual([...data.map((playlist) => playlist.attributes.name)].sort((a, b) => a.localeCompare(b)));
    expect(first.json!['next']).toBe('/v1/me/library/playlists?limit=3&offset=3');
    // Every seeded playlist, own and followed, is a library playlist on Apple Music.
    expect(first.json!['meta']).toEqual({ total: demoLibrary().playlists!.length + demoLibrary().followed!.length });
    const tooMany = await api('/v1/me/library/playlists?limit=101');
    expect(tooMany.status).toBe(400);
    expect(firstError(tooMany.json)).toMatchObject({ code: '40005', source: { parameter: 'limit' } });
  });

  it('answers the tracks of an empty playlist with 404, and ids of another user’s playlist too', async () => {
    const empty = fake.playlistsOf(user.userId).find((playlist) => playlist.name === 'Empty For Now')!;
    expect((await api(`/v1/me/library/playlists/${empty.id}`)).status).toBe(200);
    expect((await api(`/v1/me/library/playlists/${empty.id}/tracks`)).status).toBe(404);
    const other = fake.createAccount({ displayName: 'Other', library: { playlists: [{ name: 'Theirs', trackKeys: [] }] } });
    expect((await api(`/v1/me/library/playlists/${fake.playlistsOf(other.userId)[0]!.id}`)).status).toBe(404);
  });

  it('gives library songs one id per song, so a repeated song repeats its id, and includes the catalog song on request', async () => {
    const repeat = fake.playlistsOf(user.userId).find((playlist) => playlist.name === 'Repeat Offenders')!;
    const answer = await api(`/v1/me/library/playlists/${repeat.id}/tracks?include=catalog&limit=100`);
    const data = answer.json!['data'] as { id: string; type: string; attributes: { playParams: { catalogId: string } }; relationships: { catalog: { data: { id: string; attributes: { isrc?: string } }[] } } }[];
    expect(data).toHaveLength(11);
    expect(data[8]!.id).toBe(data[0]!.id);
    expect(data.every((entry) => entry.type === 'library-songs' && /^i\./.test(entry.id))).toBe(true);
    expect(data[0]!.relationships.catalog.data[0]!.id).toBe(data[0]!.attributes.playParams.catalogId);
    const withoutInclude = await api(`/v1/me/library/playlists/${repeat.id}/tracks`);
    expect((withoutInclude.json!['data'] as Record<string, unknown>[])[0]!['relationships']).toBeUndefined();
  });

  it('creates a playlist with 201, appends with 204 and shows the tracks only after the configured reads', async () => {
    const created = await api('/v1/me/library/playlists', { method: 'POST', body: { attributes: { name: 'New One', description: 'Made here', isPublic: false } } });
    expect(created.status).toBe(201);
    const playlist = (created.json!['data'] as { id: string; attributes: { name: string; canEdit: boolean } }[])[0]!;
    expect(playlist.id).toMatch(/^p\.[A-Za-z0-9]{14}$/);
    expect(playlist.attributes).toMatchObject({ name: 'New One', canEdit: true });
    const songs = [...fake.state.catalog.songs.keys()].slice(0, 3);
    const appended = await api(`/v1/me/library/playlists/${playlist.id}/tracks`, { method: 'POST', body: { data: songs.map((id) => ({ id, type: 'songs' })) } });
    expect(appended.status).toBe(204);
    expect(appended.text).toBe('');
    expect(fake.pendingCount(playlist.id)).toBe(3);
    expect((await api(`/v1/me/library/playlists/${playlist.id}/tracks`)).status).toBe(404);
    const second = await api(`/v1/me/library/playlists/${playlist.id}/tracks`);
    expect((second.json!['data'] as unknown[]).length).toBe(3);
    expect(fake.playlistCatalogIds(playlist.id)).toEqual(songs);
  });

  it('refuses an append of more than 100 tracks, a bad body and a catalogue playlist', async () => {
    const target = fake.playlistsOf(user.userId).find((playlist) => playlist.name === 'Empty For Now')!;
    const ids = [...fake.state.catalog.songs.keys()].slice(0, 101).map((id) => ({ id, type: 'songs' }));
    const tooMany = await api(`/v1/me/library/playlists/${target.id}/tracks`, { method: 'POST', body: { data: ids } });
    expect(tooMany.status).toBe(400);
    expect(firstError(tooMany.json)).toMatchObject({ status: '400', code: '40007' });
    expect((await api(`/v1/me/library/playlists/${target.id}/tracks`, { method: 'POST', body: { data: [{ id: '1', type: 'albums' }] } })).status).toBe(400);
    expect((await api('/v1/me/library/playlists', { method: 'POST', body: { attributes: {} } })).status).toBe(400);
    const followed = fake.playlistsOf(user.userId).find((playlist) => !playlist.canEdit)!;
    expect((await api(`/v1/me/library/playlists/${followed.id}/tracks`, { method: 'POST', body: { data: ids.slice(0, 1) } })).status).toBe(403);
    expect(fake.pendingCount(target.id)).toBe(0);
  });

  it('has no endpoint to delete a playlist or remove its tracks', async () => {
    const target = fake.playlistsOf(user.userId)[0]!;
    expect((await api(`/v1/me/library/playlists/${target.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await api(`/v1/me/library/playlists/${target.id}/tracks`, { method: 'DELETE' })).status).toBe(404);
    expect(fake.state.playlists.has(target.id)).toBe(true);
  });
});

describe('catalogue', () => {
  it('finds songs by ISRC with Apple’s filter meta, in the storefront only', async () => {
    const usOnly = [...fake.state.catalog.songs.values()].find((song) => song.storefronts?.join() === 'us' && song.isrc)!;
    const us = await api(`/v1/catalog/us/songs?filter[isrc]=${usOnly.isrc}`);
    expect((us.json!['data'] as { id: string }[]).map((song) => song.id)).toEqual([usOnly.id]);
    expect(us.json!['meta']).toEqual({ filters: { isrc: { [usOnly.isrc!]: [{ id: usOnly.id, type: 'songs', href: `/v1/catalog/us/songs/${usOnly.id}` }] } } });
    expect(((await api(`/v1/catalog/gb/songs?filter[isrc]=${usOnly.isrc}`)).json!['data'] as unknown[]).length).toBe(0);
    expect((await api('/v1/catalog/zz/songs?ids=1')).status).toBe(404);
  });

  it('finds songs by id in the order asked, leaving out unknown ids, at most 300 a request', async () => {
    const [a, b] = [...fake.state.catalog.songs.keys()];
    const found = await api(`/v1/catalog/us/songs?ids=${b!},1,${a!}`);
    expect((found.json!['data'] as { id: string; type: string }[]).map((song) => [song.id, song.type])).toEqual([
      [b, 'songs'],
      [a, 'songs'],
    ]);
    expect((await api(`/v1/catalog/us/songs?ids=${Array.from({ length: 301 }, (_, index) => index + 1).join(',')}`)).status).toBe(400);
    expect((await api('/v1/catalog/us/songs?ids=')).status).toBe(400);
  });

  it('leaves out recordings Apple does not carry', () => {
    const missing = [...seedCatalog().tracks.values()].filter((track) => !isAvailableOn(track, 'applemusic'));
    expect(missing.length).toBeGreaterThan(0);
    for (const track of missing) expect(fake.songId(track.key)).toBeNull();
  });

  it('searches songs with Apple’s result groups, limit at most 25', async () => {
    const song = [...fake.state.catalog.songs.values()][5]!;
    const found = await api(`/v1/catalog/us/search?term=${encodeURIComponent(song.name).replace(/%20/g, '+')}&types=songs&limit=5`);
    const results = found.json!['results'] as { songs: { data: { id: string }[]; href: string } };
    expect(results.songs.data.map((entry) => entry.id)).toContain(song.id);
    expect(found.json!['meta']).toEqual({ results: { order: ['songs'], rawOrder: ['songs'] } });
    const none = await api('/v1/catalog/us/search?term=zzqx+nothing&types=songs');
    expect(none.json).toEqual({ results: {}, meta: { results: { order: [], rawOrder: [] } } });
    expect((await api('/v1/catalog/us/search?term=a&types=songs&limit=26')).status).toBe(400);
  });
});

describe('failure modes', () => {
  it('answers 429 with Retry-After and 5xx with Apple’s error document', async () => {
    fake.failNext({ kind: 'rate_limit', retryAfterS: 9 });
    const limited = await api('/v1/me/storefront');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('9');
    expect(firstError(limited.json)).toMatchObject({ status: '429' });
    fake.failNext({ kind: 'server_error', status: 502 });
    expect((await api('/v1/me/storefront')).status).toBe(502);
    fake.failNext({ kind: 'expired_token' });
    expect((await api('/v1/me/storefront')).status).toBe(403);
    expect((await api('/v1/me/storefront')).status).toBe(200);
  });

  it('applies an ambiguous write and drops the answer', async () => {
    const target = fake.playlistsOf(user.userId).find((playlist) => playlist.name === 'Late Night Focus')!;
    const before = target.items.length;
    fake.failNext({ kind: 'ambiguous_write', method: 'POST' });
    await expect(api(`/v1/me/library/playlists/${target.id}/tracks`, { method: 'POST', body: { data: [{ id: [...fake.state.catalog.songs.keys()][0]!, type: 'songs' }] } })).rejects.toThrow();
    expect(fake.pendingCount(target.id) + target.items.length).toBe(before + 1);
  });

  it('lets the first matching requests through with failLater', async () => {
    fake.failLater({ kind: 'server_error', status: 500, pathPrefix: '/v1/me/storefront' }, 2);
    expect([(await api('/v1/me/storefront')).status, (await api('/v1/me/storefront')).status, (await api('/v1/me/storefront')).status, (await api('/v1/me/storefront')).status]).toEqual([200, 200, 500, 200]);
  });
});

describe('demo mode', () => {
  it('seeds a demo library with a music video and exposes the user token and developer key', async () => {
    const demo = await startFakeAppleMusic({ demo: true });
    try {
      expect(demo.demoUserToken).toBe(DEMO_USER_TOKEN);
      expect(demo.developerKey.private_key_pem).toContain('BEGIN PRIVATE KEY');
      const headers = { authorization: `Bearer ${demo.developerToken()}`, 'music-user-token': demo.demoUserToken! };
      const answer = await fetch(`${demo.baseUrl}/v1/me/library/playlists`, { headers });
      const names = ((await answer.json()) as { data: { attributes: { name: string } }[] }).data.map((playlist) => playlist.attributes.name);
      expect(names).toEqual(['Road Trip 2024', 'Versions']);
      const roadTrip = demo.playlistsOf(demo.demoAccount!.userId).find((playlist) => playlist.name === 'Road Trip 2024')!;
      expect(roadTrip.items.some((item) => item.kind === 'music-video')).toBe(true);
    } finally {
      await demo.close();
    }
  });
});
