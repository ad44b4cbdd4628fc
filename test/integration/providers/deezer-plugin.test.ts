import { beforeAll, describe, expect, it } from 'vitest';
import { type Manifest, type OperationName, type OperationResult, type Track } from '@opl/plugin-sdk';
import type { OperationCallInput } from '@opl/plugin-sdk/schemas';
import { createHostFetch, hostCredentialSchema, REDACTED } from '@opl/plugin-sdk/sandbox';
import { PluginHost } from '../../../core/plugin-host/index.ts';
import { startFakeDeezer, type FakeDeezerServer } from '../../fakes/deezer/index.ts';
import { redirect, sendJson, startFakeHttp, type FakeAccountTokens } from '../../fakes/fake-provider.ts';
import { demoLibrary, isAvailableOn, seedCatalog } from '../../fakes/seed-catalog.ts';
import { buildPluginBundle } from '../support/build-plugin.ts';
import { attachedContext, failureOf, pluginListener, readAllItems, readPages, usePluginSession } from './support/plugin-session.ts';

/**
 * The built Deezer plugin in the real sandbox against the fake: what the shared contract does not
 * cover — every 200-with-error answer as its typed error (never as success), the token only in
 * the URL and never handed back, paging, duplicate refusal, positioned adds through a reorder,
 * removal by track id, mirror, delete and unfollow by ownership, favourites, search and links.
 */

const PLUGIN_ID = 'opl.provider.deezer';

const session = usePluginSession({ start: () => startFakeDeezer(), pluginDir: 'plugins/providers/deezer' });
let fake: FakeDeezerServer;
let manifest: Manifest;
let listener: FakeAccountTokens;
const { seen } = session;

const music = [...seedCatalog().tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'deezer'));

const context = (tokens: FakeAccountTokens) => attachedContext(manifest, tokens);
const call = <N extends OperationName>(op: N, input: OperationCallInput<N>, tokens: FakeAccountTokens = listener) => session.call(op, input, tokens);
const failure = (promise: Promise<unknown>) => failureOf(promise, 'expected a typed error, not a result');

async function allItems(playlistId: string, limit = 100, tokens: FakeAccountTokens = listener) {
  const pages = await readPages<OperationResult<'listPlaylistItems'>>((cursor) => call('listPlaylistItems', { playlist_id: playlistId, cursor, limit }, tokens), 100);
  return { pages, items: pages.flatMap((page) => page.items) };
}

async function playlistNamed(name: string, tokens: FakeAccountTokens = listener) {
  const listed = await readAllItems((cursor) => call('listPlaylists', { cursor, limit: 3 }, tokens));
  const found = listed.find((playlist) => playlist.name === name);
  expect(found, name).toBeDefined();
  return found!;
}

const uri = (seedKey: string) => `deezer:track:${fake.trackIdOf(seedKey)!}`;
const ids = (tracks: readonly Track[]) => tracks.map((track) => track.id);

beforeAll(() => {
  ({ fake, manifest } = session);
  listener = pluginListener(fake, demoLibrary());
});

describe('reading', () => {
  it('lists the library without the Loved Tracks playlist, marking followed playlists as not owned', async () => {
    const followed = await playlistNamed('Friends Weekly');
    expect(followed).toMatchObject({ is_owned: false, is_followed: true, kind: 'PLAYLIST', owner_name: 'Deezer Editor' });
    const own = await playlistNamed('Road Trip 2024');
    const onDeezer = demoLibrary().playlists![0]!.trackKeys.filter((key) => fake.trackIdOf(key) !== null);
    expect(own).toMatchObject({ is_owned: true, track_count: onDeezer.length, provider_uris: { deezer: `deezer:playlist:${own.id}` } });
    expect(own.snapshot_id).toBe(fake.playlist(own.id!)!.checksum);
    const first = await call('listPlaylists', { cursor: null, limit: 50 });
    expect(first.items.some((playlist) => playlist.kind === 'LIKED_TRACKS')).toBe(false);
    expect(first.total).toBe(first.items.length);
  });

  it('maps tracks faithfully: ISRC, seconds, explicit, album, artist, added time, provider URI', async () => {
    const roadTrip = await playlistNamed('Road Trip 2024');
    const { items } = await allItems(roadTrip.id!, 10);
    const seedKeys = [...new Set(demoLibrary().playlists![0]!.trackKeys)].filter((key) => fake.trackIdOf(key) !== null);
    expect(items).toHaveLength(seedKeys.length);
    items.forEach((track, index) => {
      const seed = seedCatalog().tracks.get(seedKeys[index]!)!;
      expect(track).toMatchObject({
        id: fake.trackIdOf(seed.key),
        title: seed.title,
        duration_s: Math.round(seed.durationMs / 1000),
        isrc: seed.isrc,
        explicit: seed.explicit,
        album: seedCatalog().albums.get(seed.albumKey)!.title,
        position: index,
        media_type: 'track',
        is_migratable: true,
        provider_uris: { deezer: uri(seed.key) },
      });
      expect(track.artists[0]).toBe(seedCatalog().artists.get(seed.artistKeys[0]!)!.name);
      expect(track.added_at).toMatch(/Z$/);
    });
  });

  it('pages a long playlist in order with the checksum as snapshot id on every page', async () => {
    const bigMix = await playlistNamed('Big Mix');
    const { pages, items } = await allItems(bigMix.id!, 50);
    expect(pages.length).toBeGreaterThan(2);
    expect(ids(items)).toEqual(fake.playlist(bigMix.id!)!.trackIds);
    for (const page of pages) expect(page.snapshot_id).toBe(bigMix.snapshot_id);
    expect(pages[0]!.total).toBe(items.length);
  });

  it('reads liked tracks, favourite albums and artists in pages', async () => {
    const liked = await readAllItems((cursor) => call('listLikedTracks', { cursor, limit: 25 }));
    expect(ids(liked)).toEqual(fake.library(listener.userId)!.tracks);
    const albums = await call('listSavedAlbums', { cursor: null, limit: 50 });
    expect(albums.items.map((album) => album.id)).toEqual(fake.library(listener.userId)!.albums);
    expect(albums.items[0]!.upc).toMatch(/^\d{12,13}$/);
    const artists = await call('listFollowedArtists', { cursor: null, limit: 50 });
    expect(artists.items.map((artist) => artist.id)).toEqual(fake.library(listener.userId)!.artists);
  });

  it('finds tracks by ISRC (with contributors and numbers) and by structured text', async () => {
    const featured = music.find((track) => track.isrc && track.artistKeys.length > 1)!;
    const byIsrc = await call('searchTracks', { query: { isrc: featured.isrc!.toLowerCase() }, mode: 'isrc', limit: 5 });
    expect(byIsrc.candidates).toHaveLength(1);
    expect(byIsrc.candidates[0]).toMatchObject({ isrc: featured.isrc, track_number: featured.trackNumber, disc_number: 1, release_date: seedCatalog().albums.get(featured.albumKey)!.releaseDate });
    expect(byIsrc.candidates[0]!.artists).toEqual(featured.artistKeys.map((key) => seedCatalog().artists.get(key)!.name));
    expect((await call('searchTracks', { query: { isrc: 'ZZ0000000000' }, mode: 'isrc', limit: 5 })).candidates).toEqual([]);
    const before = fake.requests.length;
    expect((await call('searchTracks', { query: { isrc: 'not-an-isrc' }, mode: 'isrc', limit: 5 })).candidates).toEqual([]);
    expect(fake.requests.length).toBe(before);
    const byText = await call('searchTracks', { query: { title: featured.title, artist: seedCatalog().artists.get(featured.artistKeys[0]!)!.name }, mode: 'text', limit: 3 });
    expect(byText.candidates.map((candidate) => candidate.id)).toContain(fake.trackIdOf(featured.key));
    expect(fake.requests.at(-1)!.query['q']).toMatch(/^artist:".+" track:".+"$/);
  });

  it('validates Deezer URIs and links, with or without a language segment', async () => {
    expect(await call('validateUri', { uri: 'https://www.deezer.com/en/playlist/908622995' })).toMatchObject({ valid: true, entity: 'playlist', id: '908622995', normalized_uri: 'deezer:playlist:908622995' });
    expect(await call('validateUri', { uri: 'https://deezer.com/track/3135556?utm_source=x' })).toMatchObject({ valid: true, entity: 'track', id: '3135556' });
    expect(await call('validateUri', { uri: 'deezer:album:302127' })).toMatchObject({ valid: true, entity: 'album' });
    for (const bad of ['https://www.deezer.com.evil.test/track/1', 'https://deezer.page.link/abc', 'deezer:track:abc', 'spotify:track:4uLU6hMCjMI75M1A2tKUQC']) {
      expect((await call('validateUri', { uri: bad })).valid, bad).toBe(false);
    }
  });
});

describe('lookupTracks', () => {
  const trackId = (seedKey: string) => fake.trackIdOf(seedKey)!;
  // Deezer ids here are 9 digits: an 11-digit id is a well-formed id Deezer has no track for.
  const UNKNOWN_ID = '99999999999';

  function expected(seed: (typeof music)[number]) {
    const artists = seed.artistKeys.map((key) => seedCatalog().artists.get(key)!.name);
    return {
      id: trackId(seed.key),
      title: seed.title,
      artist: artists.join(', '),
      artists,
      album: seedCatalog().albums.get(seed.albumKey)!.title,
      isrc: seed.isrc,
      duration_s: Math.round(seed.durationMs / 1000),
      track_number: seed.trackNumber,
      release_date: seedCatalog().albums.get(seed.albumKey)!.releaseDate,
      media_type: 'track',
      is_migratable: true,
      provider_uris: { deezer: uri(seed.key) },
    };
  }

  it('answers one entry per URI in input order, null for unknown ids and non-track URIs, asking once per distinct id', async () => {
    const a = music.find((track) => track.isrc && track.artistKeys.length > 1)!;
    const [b, c] = music.filter((track) => track.isrc && track.key !== a.key).slice(5, 7);
    const album = `https://www.deezer.com/en/album/${fake.albumIdOf(a.albumKey)}`;
    const uris = [
      uri(a.key),
      `https://www.deezer.com/fr/track/${trackId(b!.key)}`,
      `deezer:track:${UNKNOWN_ID}`,
      'spotify:track:4uLU6hMCjMI75M1A2tKUQC',
      album,
      uri(c!.key),
      uri(a.key),
      `https://deezer.com/track/${trackId(a.key)}?utm_source=share`,
    ];
    const before = fake.requests.length;
    const { tracks } = await call('lookupTracks', { uris });
    expect(tracks).toHaveLength(uris.length);
    expect(tracks[0]).toMatchObject(expected(a));
    // A full track object: every contributor, not only the main artist.
    expect(tracks[0]!.artists.length).toBeGreaterThan(1);
    expect(tracks[1]).toMatchObject(expected(b!));
    expect(tracks[2]).toBeNull();
    expect(tracks[3]).toBeNull();
    expect(tracks[4]).toBeNull();
    expect(tracks[5]).toMatchObject(expected(c!));
    expect(tracks[6]).toEqual(tracks[0]);
    expect(tracks[7]).toEqual(tracks[0]);
    // Deezer answers an unknown id with HTTP 200 and its "no data" error body.
    const asked = fake.requests.slice(before);
    expect(asked.map((request) => [request.method, request.path, request.status])).toEqual([
      ['GET', `/track/${trackId(a.key)}`, 200],
      ['GET', `/track/${trackId(b!.key)}`, 200],
      ['GET', `/track/${UNKNOWN_ID}`, 200],
      ['GET', `/track/${trackId(c!.key)}`, 200],
    ]);
  });

  it('sends nothing when no URI names a Deezer track', async () => {
    const before = fake.requests.length;
    const uris = ['https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC', 'deezer:track:abc', 'deezer:playlist:908622995', 'https://deezer.page.link/abc'];
    expect(await call('lookupTracks', { uris })).toEqual({ tracks: [null, null, null, null] });
    expect(fake.requests.length).toBe(before);
  });

  it("surfaces Deezer's quota answer, a busy answer, a gateway 5xx and an expired token as typed errors", async () => {
    const [a, b] = [music[20]!, music[21]!];
    fake.failNext({ kind: 'quota', pathPrefix: `/track/${trackId(b.key)}` });
    const before = fake.requests.length;
    const limited = await failure(call('lookupTracks', { uris: [uri(a.key), uri(b.key)] }));
    expect(limited.toData()).toMatchObject({ type: 'RateLimited', retry_after_s: 5 });
    // The first id was answered; the quota answer on the second fails the whole lookup.
    expect(fake.requests.slice(before).map((request) => request.path)).toEqual([`/track/${trackId(a.key)}`, `/track/${trackId(b.key)}`]);

    fake.failNextWithError('busy', { method: 'GET', pathPrefix: '/track/' });
    expect((await failure(call('lookupTracks', { uris: [uri(a.key)] }))).type).toBe('ProviderError');
    fake.failNext({ kind: 'server_error', status: 503, method: 'GET', pathPrefix: '/track/' });
    expect((await failure(call('lookupTracks', { uris: [uri(a.key)] }))).type).toBe('ProviderError');
    fake.failNext({ kind: 'expired_token', method: 'GET', pathPrefix: '/track/' });
    expect((await failure(call('lookupTracks', { uris: [uri(a.key)] }))).type).toBe('AuthExpired');

    const { tracks } = await call('lookupTracks', { uris: [uri(a.key), uri(b.key)] });
    expect(tracks[0]).toMatchObject(expected(a));
    expect(tracks[1]).toMatchObject(expected(b));
  });
});

describe("Deezer's 200-with-error answers", () => {
  it('turns each error code into its typed error, never into a result', async () => {
    const cases = [
      ['quota', 'RateLimited'],
      ['invalidToken', 'AuthExpired'],
      ['noToken', 'AuthExpired'],
      ['noData', 'NotFound'],
      ['busy', 'ProviderError'],
      ['parameter', 'InvalidInput'],
      ['itemsLimit', 'InvalidInput'],
    ] as const;
    for (const [name, type] of cases) {
      fake.failNextWithError(name, { pathPrefix: '/user/me/playlists', times: 5 });
      const error = await failure(call('listPlaylists', { cursor: null, limit: 5 }));
      expect(error.type, name).toBe(type);
      fake.clearFailures();
    }
  });

  it("gives a quota answer Deezer's 5-second window as retry-after", async () => {
    fake.failNext({ kind: 'quota', times: 5 });
    const error = await failure(call('testConnection', {}));
    expect(error.toData()).toMatchObject({ type: 'RateLimited', retry_after_s: 5 });
    fake.clearFailures();
  });

  it('treats a write answered with an error body as failed', async () => {
    const own = await playlistNamed('Late Night Focus');
    const before = fake.playlist(own.id!)!.trackIds;
    fake.failNextWithError('busy', { method: 'POST', pathPrefix: `/playlist/${own.id}/tracks` });
    const error = await failure(call('addTracks', { playlist_id: own.id!, items: [{ uri: uri(music[250]!.key) }] }));
    expect(error.type).toBe('ProviderError');
    expect(fake.playlist(own.id!)!.trackIds).toEqual(before);
  });

  it('reports gateway 5xx as ProviderError, an expired token as AuthExpired, and a lost write as uncertain', async () => {
    fake.failNext({ kind: 'server_error', status: 502, times: 5 });
    expect((await failure(call('listPlaylists', { cursor: null, limit: 5 }))).type).toBe('ProviderError');
    fake.clearFailures();
    const expiring = fake.createAccount({ displayName: 'Expiring' });
    fake.expireAccessToken(expiring.accessToken);
    expect((await failure(call('testConnection', {}, expiring))).type).toBe('AuthExpired');
    const own = await playlistNamed('Late Night Focus');
    fake.failNext({ kind: 'ambiguous_write', method: 'POST', pathPrefix: `/playlist/${own.id}/tracks` });
    const lost = await failure(call('addTracks', { playlist_id: own.id!, items: [{ uri: uri(music[251]!.key) }] }));
    expect(lost.type).toBe('ProviderError');
    expect(lost.message).toMatch(/may or may not have been applied/);
    expect(fake.playlist(own.id!)!.trackIds).toContain(fake.trackIdOf(music[251]!.key));
  });

  it('reports an unanswered request as ProviderError once the request timeout passes', async () => {
    // The same plugin with a short request timeout, so the test need not wait 20 s.
    const bundle = await buildPluginBundle('plugins/providers/deezer');
    const quick = new PluginHost({ originOverrides: fake.originOverrides });
    await quick.start();
    try {
      await quick.load({ ...bundle, manifest: { ...bundle.manifest, limits: { ...bundle.manifest.limits, request_timeout_ms: 500 } } });
      fake.failNext({ kind: 'timeout', pathPrefix: '/user/me' });
      const error = await failure(quick.call(PLUGIN_ID, 'testConnection', {}, context(listener)));
      expect(error.type).toBe('ProviderError');
      expect(error.message).toMatch(/Could not reach Deezer/);
    } finally {
      await quick.close();
    }
  });
});

describe('writing', () => {
  it('creates a private playlist with its description', async () => {
    const created = await call('createPlaylist', { name: 'Made Here', description: 'Written by the plugin test', public: false });
    expect(created.uri).toBe(`deezer:playlist:${created.playlist_id}`);
    expect(fake.playlist(created.playlist_id)).toMatchObject({ title: 'Made Here', description: 'Written by the plugin test', public: false, creatorId: listener.userId });
  });

  it('adds in batches of 50 and refuses tracks the playlist already holds, per item', async () => {
    const created = await call('createPlaylist', { name: 'Batches', description: null, public: true });
    const first = music.slice(0, 120).map((track) => uri(track.key));
    const before = fake.requests.length;
    const added = await call('addTracks', { playlist_id: created.playlist_id, items: first.map((value) => ({ uri: value })) });
    expect(added.results.every((result) => result.ok)).toBe(true);
    expect(added.results.map((result) => result.position)).toEqual(first.map((_value, index) => index));
    const adds = fake.requests.slice(before).filter((request) => request.method === 'POST');
    expect(adds.map((request) => request.query['songs']!.split(',').length)).toEqual([50, 50, 20]);

    // Already there, and repeated within the input: refused per item, the rest is added.
    const again = await call('addTracks', { playlist_id: created.playlist_id, items: [{ uri: first[3]! }, { uri: uri(music[130]!.key) }, { uri: uri(music[130]!.key) }, { uri: 'deezer:track:not-a-number' }] });
    expect(again.results.map((result) => [result.ok, result.error?.type ?? null])).toEqual([
      [false, 'InvalidInput'],
      [true, null],
      [false, 'InvalidInput'],
      [false, 'InvalidInput'],
    ]);
    expect(again.results[0]!.error!.message).toMatch(/at most once/);
    expect(fake.playlist(created.playlist_id)!.trackIds).toHaveLength(121);
  });

  it("maps Deezer's own duplicate refusal to InvalidInput when the playlist changed meanwhile", async () => {
    const created = await call('createPlaylist', { name: 'Race', description: null, public: true });
    fake.failNextWithError('alreadyInPlaylist', { method: 'POST', pathPrefix: `/playlist/${created.playlist_id}/tracks` });
    const error = await failure(call('addTracks', { playlist_id: created.playlist_id, items: [{ uri: uri(music[140]!.key) }] }));
    expect(error.type).toBe('InvalidInput');
  });

  it('puts positioned tracks in place with one reorder request', async () => {
    const own = await playlistNamed('Empty For Now');
    const base = music.slice(150, 154).map((track) => uri(track.key));
    await call('addTracks', { playlist_id: own.id!, items: base.map((value) => ({ uri: value })) });
    const inserted = [uri(music[160]!.key), uri(music[161]!.key)];
    const before = fake.requests.length;
    const result = await call('addTracks', { playlist_id: own.id!, items: [{ uri: inserted[0]!, position: 1 }, { uri: inserted[1]!, position: 2 }] });
    expect(result.results.map((entry) => entry.position)).toEqual([1, 2]);
    const orders = fake.requests.slice(before).filter((request) => request.query['order']);
    expect(orders).toHaveLength(1);
    const read = await allItems(own.id!);
    expect(read.items.map((track) => track.provider_uris['deezer'])).toEqual([base[0], inserted[0], inserted[1], base[1], base[2], base[3]]);
  });

  it('removes by track id in batches, leaving the rest in order', async () => {
    const own = await playlistNamed('Big Mix');
    const { items, pages } = await allItems(own.id!);
    const doomed = items.filter((_track, index) => index % 2 === 0).slice(0, 60);
    const before = fake.requests.length;
    const result = await call('removeTracks', { playlist_id: own.id!, items: doomed.map((track) => ({ uri: track.provider_uris['deezer']!, position: track.position })), snapshot_id: pages[0]!.snapshot_id });
    expect(result.results.every((entry) => entry.ok)).toBe(true);
    expect(fake.requests.slice(before).filter((request) => request.method === 'DELETE').map((request) => request.query['songs']!.split(',').length)).toEqual([50, 10]);
    const gone = new Set(ids(doomed));
    expect(fake.playlist(own.id!)!.trackIds).toEqual(ids(items).filter((id) => !gone.has(id)));
  });

  it('refuses writes to a playlist someone else owns as Unsupported', async () => {
    const followed = await playlistNamed('Friends Weekly');
    const error = await failure(call('addTracks', { playlist_id: followed.id!, items: [{ uri: uri(music[170]!.key) }] }));
    expect(error.type).toBe('Unsupported');
  });

  it('mirrors a list exactly: removes, appends and orders', async () => {
    const own = await playlistNamed('Versions');
    const current = fake.playlist(own.id!)!.trackIds;
    const desired = [music[180]!.key, music[181]!.key].map(uri);
    const target = [`deezer:track:${current[2]!}`, desired[0]!, `deezer:track:${current[0]!}`, desired[1]!];
    await call('replacePlaylistTracks', { playlist_id: own.id!, uris: target });
    expect(fake.playlist(own.id!)!.trackIds.map((id) => `deezer:track:${id}`)).toEqual(target);
    const error = await failure(call('replacePlaylistTracks', { playlist_id: own.id!, uris: [target[0]!, target[0]!] }));
    expect(error.type).toBe('InvalidInput');
  });

  it('deletes only playlists the account created, and unfollows only those it did not', async () => {
    const followed = await playlistNamed('Friends Weekly');
    expect((await failure(call('deletePlaylist', { playlist_id: followed.id! }))).type).toBe('Unsupported');
    expect(fake.playlist(followed.id!)).not.toBeNull();
    const own = await playlistNamed('Repeat Offenders');
    expect((await failure(call('unfollowPlaylist', { playlist_id: own.id! }))).type).toBe('Unsupported');
    const loved = fake.library(listener.userId)!.playlists[0]!;
    expect((await failure(call('deletePlaylist', { playlist_id: loved }))).type).toBe('Unsupported');

    await call('deletePlaylist', { playlist_id: own.id! });
    expect(fake.playlist(own.id!)).toBeNull();
    await call('unfollowPlaylist', { playlist_id: followed.id! });
    expect(fake.library(listener.userId)!.playlists).not.toContain(followed.id);
    expect(fake.playlist(followed.id!)).not.toBeNull();
    expect((await failure(call('readPlaylist', { playlist_id: own.id! }))).type).toBe('NotFound');
  });

  it('adds and removes favourite tracks, albums and artists one request each', async () => {
    const track = uri(music[200]!.key);
    const saved = await call('saveTracks', { items: [{ uri: track }, { uri: 'not-a-track' }] });
    expect(saved.results.map((result) => result.ok)).toEqual([true, false]);
    expect(fake.library(listener.userId)!.tracks[0]).toBe(fake.trackIdOf(music[200]!.key));
    const albumKey = [...seedCatalog().albums.keys()][20]!;
    const album = `deezer:album:${fake.albumIdOf(albumKey)}`;
    expect((await call('saveAlbums', { items: [{ uri: album }] })).results[0]!.ok).toBe(true);
    expect(fake.library(listener.userId)!.albums).toContain(fake.albumIdOf(albumKey));
    expect((await call('removeSavedAlbums', { items: [{ uri: album }] })).results[0]!.ok).toBe(true);
    expect(fake.library(listener.userId)!.albums).not.toContain(fake.albumIdOf(albumKey));
    const artist = `deezer:artist:${fake.artistIdOf('ar15')}`;
    expect((await call('followArtists', { items: [{ uri: artist }] })).results[0]!.ok).toBe(true);
    expect((await call('unfollowArtists', { items: [{ uri: artist }] })).results[0]!.ok).toBe(true);
    expect(fake.library(listener.userId)!.artists).not.toContain(fake.artistIdOf('ar15'));
  });

  it('searches albums by UPC and by title, and artists by name', async () => {
    const album = [...seedCatalog().albums.values()].find((entry) => entry.kind === 'album')!;
    const byUpc = await call('searchAlbums', { query: { title: 'ignored', upc: album.upc }, limit: 5 });
    expect(byUpc.candidates[0]).toMatchObject({ id: fake.albumIdOf(album.key), upc: album.upc });
    const byTitle = await call('searchAlbums', { query: { title: album.title, artist: seedCatalog().artists.get(album.artistKeys[0]!)!.name }, limit: 5 });
    expect(byTitle.candidates.map((candidate) => candidate.id)).toContain(fake.albumIdOf(album.key));
    const artist = seedCatalog().artists.get('ar3')!;
    expect((await call('searchArtists', { query: { name: artist.name }, limit: 5 })).candidates.map((candidate) => candidate.name)).toContain(artist.name);
  });
});

describe('the credential', () => {
  it('travels only as the access_token query parameter, and never comes back', () => {
    const api = fake.requests.filter((request) => !request.path.startsWith('/oauth/'));
    expect(api.length).toBeGreaterThan(50);
    for (const request of api) expect(request.headers['authorization']).toBeUndefined();
    expect(api.filter((request) => request.query['access_token'] === listener.accessToken).length).toBeGreaterThan(50);
    const everything = seen.join('\n');
    expect(everything).not.toContain(listener.accessToken);
    expect(everything).not.toContain(encodeURIComponent(listener.accessToken));
  });

  it("is set on the wire URL by the host, masked in Deezer's echoing `next` links", async () => {
    const hostFetch = createHostFetch({ manifest, originOverrides: fake.originOverrides });
    try {
      const credentials = context(listener).credentials!.map((credential) => hostCredentialSchema.parse(credential));
      const response = await hostFetch.fetch({ url: 'https://api.deezer.com/user/me/playlists?limit=1' }, { credentials });
      expect(response.url).toBe('https://api.deezer.com/user/me/playlists?limit=1');
      const body = new TextDecoder().decode(response.body);
      // Deezer repeats the request's query in `next`, the token included: the plugin sees it masked.
      expect(body).toContain(`access_token=${REDACTED}`);
      expect(body).not.toContain(listener.accessToken);
      expect(fake.requests.at(-1)!.query['access_token']).toBe(listener.accessToken);
    } finally {
      await hostFetch.close();
    }
  });

  it('never follows a redirect with it, to the same origin or another', async () => {
    const server = await startFakeHttp((request, response) => {
      if (request.path === '/start') redirect(response, `https://other.example.com/next?keep=1&access_token=${request.url.searchParams.get('access_token') ?? ''}`);
      else sendJson(response, 200, { ok: true });
    });
    const network = [
      { origin: 'https://api.deezer.com', path_prefix: '/', methods: ['GET' as const], reason: 'test' },
      { origin: 'https://other.example.com', path_prefix: '/', methods: ['GET' as const], reason: 'test' },
    ];
    const hostFetch = createHostFetch({ manifest: { network, limits: manifest.limits }, originOverrides: { 'https://api.deezer.com': server.baseUrl, 'https://other.example.com': server.baseUrl } });
    try {
      const credentials = [hostCredentialSchema.parse({ origin: 'https://api.deezer.com', query: { access_token: 'token-for-deezer-only' } })];
      const response = await hostFetch.fetch({ url: 'https://api.deezer.com/start' }, { credentials });
      expect(response.status).toBe(200);
      expect(response.url).toBe('https://other.example.com/next?keep=1');
      expect(server.requests.map((request) => request.query)).toEqual([{ access_token: 'token-for-deezer-only' }, { keep: '1' }]);
    } finally {
      await hostFetch.close();
      await server.close();
    }
  });
});
