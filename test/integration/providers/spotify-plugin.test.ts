import { beforeAll, describe, expect, it } from 'vitest';
import type { OperationName, OperationResult } from '@opl/plugin-sdk';
import type { OperationCallInput } from '@opl/plugin-sdk/schemas';
import type { PluginBundle } from '../../../core/plugin-host/index.ts';
import type { FakeAccountTokens } from '../../fakes/fake-provider.ts';
import { demoLibrary, isAvailableOn, seedCatalog, type SeedTrack } from '../../fakes/seed-catalog.ts';
import { startFakeSpotify, type FakeSpotifyServer } from '../../fakes/spotify/index.ts';
import { bearerContext, failureOf, pluginListener, readAllItems, readPages, usePluginSession } from './support/plugin-session.ts';

/**
 * The built Spotify plugin in the real sandbox against the fake: what the shared contract does not
 * cover — owner-only item access, collaborative playlists, episodes and local files, snapshot ids,
 * positioned and split writes with partial failures, mirror, the library, search limits, every
 * failure kind with its typed error, missing scopes, and that no token comes back.
 */

const PLUGIN_ID = 'opl.provider.spotify';
const API = 'https://api.spotify.com';

const session = usePluginSession({ start: () => startFakeSpotify({ demo: true }), pluginDir: 'plugins/providers/spotify', context: (_session, tokens) => bearerContext(API, tokens) });
let fake: FakeSpotifyServer;
let bundle: PluginBundle;
let demo: FakeAccountTokens;
const { seen } = session;

const music = [...seedCatalog().tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'spotify'));

const call = <N extends OperationName>(op: N, input: OperationCallInput<N>, tokens: FakeAccountTokens = demo) => session.call(op, input, tokens);
const failure = failureOf;

async function allItems(playlistId: string, limit = 100, tokens: FakeAccountTokens = demo) {
  const pages = await readPages<OperationResult<'listPlaylistItems'>>((cursor) => call('listPlaylistItems', { playlist_id: playlistId, cursor, limit }, tokens), 50);
  return { pages, items: pages.flatMap((page) => page.items) };
}

function writes(from: number, method?: string) {
  return fake.requests.slice(from).filter((request) => request.method !== 'GET' && (!method || request.method === method));
}

beforeAll(() => {
  ({ fake, bundle } = session);
  demo = pluginListener(fake, demoLibrary());
});

describe('Spotify plugin: manifest', () => {
  it('declares the current endpoints only, the API origin as the only credential origin, and truthful flags', () => {
    const { manifest } = bundle;
    const provider = manifest.provider!;
    expect(manifest.id).toBe(PLUGIN_ID);
    expect(manifest.version).toBe('1.1.0');
    expect(provider.capabilities).toContain('REORDER');
    expect(provider.auth[0]!.kind).toBe('OAUTH_PKCE');
    expect(provider.auth[0]!.credential_origins).toEqual([API]);
    expect(manifest.network.every((grant) => grant.origin === API)).toBe(true);
    // The one `/tracks` grant is Get Track (`/v1/tracks/{id}`): never `/playlists/{id}/tracks` nor the several-tracks `/v1/tracks?ids=`.
    expect(manifest.network.filter((grant) => grant.path_prefix.includes('/tracks')).map((grant) => [grant.path_prefix, grant.methods])).toEqual([['/v1/tracks/', ['GET']]]);
    expect(provider.can_unfollow_playlist).toBe(true);
    expect(provider.can_delete_playlist).toBe(false);
    expect(provider.can_mirror).toBe(true);
    expect(provider.write_constraints.max_add_batch).toBe(100);
    expect(provider.playlist_links).toEqual([{ origin: 'https://open.spotify.com', path_prefix: '/playlist/', id_pattern: '^[A-Za-z0-9]{22}$' }]);
    const scopes = new Set(Object.values(provider.auth[0]!.scopes).flat());
    for (const scope of scopes) expect(['playlist-read-private', 'playlist-read-collaborative', 'playlist-modify-public', 'playlist-modify-private', 'user-library-read', 'user-library-modify', 'user-follow-read']).toContain(scope);
  });
});

describe('Spotify plugin: reading', () => {
  it('pages the library and flags owned, followed and collaborative playlists, each with a snapshot id', async () => {
    const listed = await readAllItems(async (cursor) => {
      const page = await call('listPlaylists', { cursor, limit: 3 });
      expect(page.items.length).toBeLessThanOrEqual(3);
      return page;
    });
    expect(listed.map((playlist) => playlist.name)).toEqual([...demoLibrary().playlists!, ...demoLibrary().followed!].map((playlist) => playlist.name));
    for (const playlist of listed) expect(playlist.snapshot_id).toBeTruthy();
    const friends = listed.find((playlist) => playlist.name === 'Friends Weekly')!;
    expect(friends).toMatchObject({ is_owned: false, is_followed: true, owner_name: 'Plugin Listener Friend' });
    // Seed recordings Spotify does not carry are not in its copy of the playlist.
    const bigMix = fake.playlistByName(demo.userId, 'Big Mix')!;
    expect(bigMix.uris.length).toBeGreaterThan(100);
    expect(listed.find((playlist) => playlist.name === 'Big Mix')).toMatchObject({ is_owned: true, is_followed: false, track_count: bigMix.uris.length, provider_uris: { spotify: expect.stringMatching(/^spotify:playlist:/) } });
  });

  it('reads a long playlist across pages in order with contiguous positions and a snapshot id on every page', async () => {
    const big = fake.playlistByName(demo.userId, 'Big Mix')!;
    const { pages, items } = await allItems(big.id, 100);
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(items.map((track) => track.provider_uris['spotify'])).toEqual(big.uris);
    expect(items.map((track) => track.position)).toEqual(big.uris.map((_, index) => index));
    for (const page of pages) expect(page.snapshot_id).toBe(big.snapshotId);
    expect(items.every((track) => track.added_at !== null)).toBe(true);
  });

  it('maps episodes and local files as readable but not migratable', async () => {
    const mixed = fake.playlistByName(demo.userId, 'Podcasts & Bootlegs')!;
    const { items } = await allItems(mixed.id);
    const episodes = items.filter((track) => track.media_type === 'episode');
    const locals = items.filter((track) => track.media_type === 'local_file');
    expect(episodes).toHaveLength(2);
    expect(locals).toHaveLength(2);
    for (const track of [...episodes, ...locals]) {
      expect(track.is_migratable).toBe(false);
      expect(track.unsupported_reason).toBeTruthy();
    }
    expect(locals.every((track) => track.is_local && track.provider_uris['spotify']!.startsWith('spotify:local:'))).toBe(true);
    expect(episodes.every((track) => track.provider_uris['spotify']!.startsWith('spotify:episode:'))).toBe(true);
    expect(items.filter((track) => track.media_type === 'track').every((track) => track.is_migratable)).toBe(true);
  });

  it('keeps duplicates as separate entries', async () => {
    const repeats = fake.playlistByName(demo.userId, 'Repeat Offenders')!;
    const { items } = await allItems(repeats.id);
    expect(items).toHaveLength(11);
    expect(items[8]!.provider_uris['spotify']).toBe(items[0]!.provider_uris['spotify']);
  });

  it('refuses the items of a followed playlist it does not own with a clear Unsupported, but reads its details', async () => {
    const friends = fake.playlistByName(demo.userId, 'Friends Weekly')!;
    const details = await call('readPlaylist', { playlist_id: friends.id });
    expect(details).toMatchObject({ name: 'Friends Weekly', is_owned: false, snapshot_id: friends.snapshotId });
    const error = await failure(call('listPlaylistItems', { playlist_id: friends.id, cursor: null, limit: 50 }));
    expect(error.type).toBe('Unsupported');
    expect(error.message).toMatch(/owns it or collaborates on it/);
    expect(error.message).toContain('Friends Weekly');
    const later = await failure(call('listPlaylistItems', { playlist_id: friends.id, cursor: '50', limit: 50 }));
    expect(later.type).toBe('Unsupported');
  });

  it('reads and writes a collaborative playlist of another user the account collaborates on', async () => {
    const collaborator = fake.createAccount({ displayName: 'Collaborator', library: { followed: [{ name: 'Shared Jams', trackKeys: music.slice(10, 13).map((track) => track.key), collaborative: true }] } });
    const shared = fake.playlistByName(collaborator.userId, 'Shared Jams')!;
    const listed = await call('listPlaylists', { cursor: null, limit: 10 }, collaborator);
    expect(listed.items[0]).toMatchObject({ name: 'Shared Jams', is_owned: false, collaborative: true });
    expect((await allItems(shared.id, 50, collaborator)).items).toHaveLength(3);
    const added = await call('addTracks', { playlist_id: shared.id, items: [{ uri: fake.uriOf(music[20]!.key)! }] }, collaborator);
    expect(added.results[0]!.ok).toBe(true);
    expect(fake.playlist(shared.id)!.uris).toHaveLength(4);
  });

  it('reads liked tracks, saved albums and followed artists with paging', async () => {
    const library = fake.library(demo.userId)!;
    const liked = await readAllItems((cursor) => call('listLikedTracks', { cursor, limit: 25 }));
    expect(liked.map((track) => track.provider_uris['spotify'])).toEqual(library.liked);
    expect(liked.every((track) => track.added_at !== null)).toBe(true);

    const albums = await call('listSavedAlbums', { cursor: null, limit: 5 });
    expect(albums.items).toHaveLength(5);
    expect(albums.total).toBe(library.savedAlbums.length);
    expect(albums.items[0]!.upc).toMatch(/^\d{12}$/);
    expect(albums.next_cursor).toBe('5');

    const artists = (await readAllItems((cursor) => call('listFollowedArtists', { cursor, limit: 4 }))).map((artist) => artist.provider_uris['spotify']!);
    expect(artists).toEqual(library.followedArtists.map((id) => `spotify:artist:${id}`));
  });

  it('answers NotFound for unknown or impossible playlist ids without sending them as paths', async () => {
    expect((await failure(call('readPlaylist', { playlist_id: '0000000000000000000000' }))).type).toBe('NotFound');
    const before = fake.requests.length;
    expect((await failure(call('listPlaylistItems', { playlist_id: '../me/library', cursor: null, limit: 10 }))).type).toBe('NotFound');
    expect(fake.requests.length).toBe(before);
  });
});

describe('Spotify plugin: search', () => {
  const target = music.find((track) => track.isrc)!;

  it('searches by ISRC and by text, never asking for more than 10 results', async () => {
    const before = fake.requests.length;
    const byIsrc = await call('searchTracks', { query: { isrc: target.isrc!.toLowerCase() }, mode: 'isrc', limit: 25 });
    expect(byIsrc.candidates[0]).toMatchObject({ isrc: target.isrc, title: target.title });
    const text = await call('searchTracks', { query: { title: target.title }, mode: 'text', limit: 50 });
    expect(text.candidates.length).toBeGreaterThan(0);
    expect(text.candidates.length).toBeLessThanOrEqual(10);
    const searches = fake.requests.slice(before).filter((request) => request.path === '/v1/search');
    expect(searches.map((request) => request.query['limit'])).toEqual(['10', '10']);
    expect(searches[0]!.query['q']).toBe(`isrc:${target.isrc}`);
  });

  it('does not spend a request on a malformed ISRC', async () => {
    const before = fake.requests.length;
    expect((await call('searchTracks', { query: { isrc: 'nope' }, mode: 'isrc', limit: 5 })).candidates).toEqual([]);
    expect(fake.requests.length).toBe(before);
  });

  it('finds albums by UPC for saved-album writes', async () => {
    const album = [...seedCatalog().albums.values()][3]!;
    const found = await call('searchAlbums', { query: { title: 'ignored', upc: album.upc }, limit: 5 });
    expect(found.candidates[0]).toMatchObject({ title: album.title, upc: null });
    expect(found.candidates[0]!.provider_uris['spotify']).toBe(`spotify:album:${fake.albumIdOf(album.key)}`);
  });
});

describe('Spotify plugin: track lookup', () => {
  const [first, second, third] = music.filter((track) => track.isrc !== null);
  const idOf = (uri: string) => uri.split(':')[2]!;
  const uriOf = (track: SeedTrack | undefined) => fake.uriOf(track!.key)!;

  function expected(track: SeedTrack) {
    const { albums, artists } = seedCatalog();
    return {
      title: track.title,
      artist: track.artistKeys.map((key) => artists.get(key)!.name).join(', '),
      album: albums.get(track.albumKey)!.title,
      isrc: track.isrc!.toUpperCase(),
      duration_s: track.durationMs / 1000,
      media_type: 'track',
      provider_uris: { spotify: fake.uriOf(track.key) },
    };
  }

  it('answers one entry per URI in input order, null for unknown ids and non-track URIs, asking once per distinct id', async () => {
    const [a, b, c] = [uriOf(first), uriOf(second), uriOf(third)];
    const uris = [
      a,
      'spotify:track:0000000000000000000000',
      `https://open.spotify.com/intl-de/track/${idOf(c)}?si=abc123`,
      'https://www.deezer.com/track/3135556',
      b,
      `spotify:album:${fake.albumIdOf(first!.albumKey)}`,
      'spotify:local:Artist:Album:Title:200',
      a,
    ];
    // The link is read inside the sandbox (which has no URL global) as validateUri reads it.
    expect(await call('validateUri', { uri: uris[2]! })).toMatchObject({ valid: true, entity: 'track', normalized_uri: c });
    const before = fake.requests.length;
    const { tracks } = await call('lookupTracks', { uris });
    expect(tracks).toHaveLength(uris.length);
    expect(tracks[0]).toMatchObject(expected(first!));
    expect(tracks[1]).toBeNull();
    expect(tracks[2]).toMatchObject(expected(third!));
    expect(tracks[3]).toBeNull();
    expect(tracks[4]).toMatchObject(expected(second!));
    expect(tracks[5]).toBeNull();
    expect(tracks[6]).toBeNull();
    expect(tracks[7]).toEqual(tracks[0]);
    expect(tracks[0]!.is_migratable).toBe(true);
    const asked = fake.requests.slice(before);
    expect(asked.map((request) => [request.method, request.path, request.status])).toEqual([
      ['GET', `/v1/tracks/${idOf(a)}`, 200],
      ['GET', '/v1/tracks/0000000000000000000000', 404],
      ['GET', `/v1/tracks/${idOf(c)}`, 200],
      ['GET', `/v1/tracks/${idOf(b)}`, 200],
    ]);
  });

  it('sends nothing when no URI names a Spotify track', async () => {
    const before = fake.requests.length;
    expect(await call('lookupTracks', { uris: ['https://tidal.com/browse/track/77646168', 'spotify:track:short'] })).toEqual({ tracks: [null, null] });
    expect(fake.requests.length).toBe(before);
  });

  it('surfaces a 429 as RateLimited with Retry-After, even after earlier ids were answered', async () => {
    const [a, b] = [uriOf(first), uriOf(second)];
    fake.failNext({ kind: 'rate_limit', retryAfterS: 90, pathPrefix: `/v1/tracks/${idOf(b)}` });
    const before = fake.requests.length;
    const limited = await failure(call('lookupTracks', { uris: [a, b] }));
    expect(limited.toData()).toMatchObject({ type: 'RateLimited', retry_after_s: 90 });
    expect(limited.message).not.toMatch(/quota/);
    expect(fake.requests.slice(before).map((request) => request.status)).toEqual([200, 429]);

    fake.failNext({ kind: 'quota', retryAfterS: 7200, pathPrefix: '/v1/tracks/' });
    const quota = await failure(call('lookupTracks', { uris: [a] }));
    expect(quota.toData()).toMatchObject({ type: 'RateLimited', retry_after_s: 7200 });
    expect(quota.message).toMatch(/quota is exhausted/);

    fake.failNext({ kind: 'server_error', status: 503, pathPrefix: '/v1/tracks/' });
    expect((await failure(call('lookupTracks', { uris: [a] }))).type).toBe('ProviderError');
  });

  it('turns an expired token into AuthExpired like every other read', async () => {
    const uri = uriOf(first);
    fake.failNext({ kind: 'expired_token', pathPrefix: '/v1/tracks/' });
    expect((await failure(call('lookupTracks', { uris: [uri] }))).type).toBe('AuthExpired');
    const stale = fake.createAccount({ displayName: 'Stale Lookup' });
    fake.expireAccessToken(stale.accessToken);
    expect((await failure(call('lookupTracks', { uris: [uri] }, stale))).type).toBe('AuthExpired');
  });
});

describe('Spotify plugin: writing', () => {
  it('creates a playlist on the current endpoint, with a one-line description of at most 300 characters', async () => {
    const before = fake.requests.length;
    const created = await call('createPlaylist', { name: 'Made Here', description: `Line one\nline two ${'x'.repeat(400)}`, public: false });
    expect(created.uri).toBe(`spotify:playlist:${created.playlist_id}`);
    expect(created.snapshot_id).toBeTruthy();
    const post = writes(before)[0]!;
    expect(post.path).toBe('/v1/me/playlists');
    const view = fake.playlist(created.playlist_id)!;
    expect(view.description).toHaveLength(300);
    expect(view.description.startsWith('Line one line two')).toBe(true);
    expect(view.public).toBe(false);
  });

  it('splits large additions into requests of at most 100, honours positions, and reports invalid URIs per item', async () => {
    const created = await call('createPlaylist', { name: 'Bulk', description: null, public: true });
    const uris = music.slice(0, 230).map((track) => fake.uriOf(track.key)!);
    const items = [...uris.map((uri) => ({ uri })), { uri: 'spotify:local:A:B:C:100' }, { uri: 'https://example.com/x' }];
    const before = fake.requests.length;
    const result = await call('addTracks', { playlist_id: created.playlist_id, items });
    const posts = writes(before, 'POST');
    expect(posts).toHaveLength(3);
    expect(posts.map((request) => (JSON.parse(request.body) as { uris: string[] }).uris.length)).toEqual([100, 100, 30]);
    expect(result.results.map((entry) => entry.uri)).toEqual(items.map((item) => item.uri));
    expect(result.results.slice(0, 230).every((entry) => entry.ok)).toBe(true);
    expect(result.results.slice(230).map((entry) => [entry.ok, entry.error?.type])).toEqual([
      [false, 'InvalidInput'],
      [false, 'InvalidInput'],
    ]);
    expect(result.snapshot_id).toBe(fake.playlist(created.playlist_id)!.snapshotId);
    expect(fake.playlist(created.playlist_id)!.uris).toEqual(uris);

    const inserted = music.slice(240, 243).map((track) => fake.uriOf(track.key)!);
    const at = await call('addTracks', { playlist_id: created.playlist_id, items: inserted.map((uri, index) => ({ uri, position: 5 + index })) });
    expect(at.results.map((entry) => entry.position)).toEqual([5, 6, 7]);
    expect(fake.playlist(created.playlist_id)!.uris.slice(4, 9)).toEqual([uris[4], ...inserted, uris[5]]);
  });

  it('reports a later batch that fails per item, after the batches that were written', async () => {
    const created = await call('createPlaylist', { name: 'Partial', description: null, public: true });
    const uris = music.slice(0, 150).map((track) => fake.uriOf(track.key)!);
    // Well-formed but unknown to Spotify: the API refuses the whole second request.
    uris[120] = 'spotify:track:0000000000000000000000';
    const result = await call('addTracks', { playlist_id: created.playlist_id, items: uris.map((uri) => ({ uri })) });
    expect(result.results.slice(0, 100).every((entry) => entry.ok)).toBe(true);
    expect(result.results.slice(100).every((entry) => !entry.ok && entry.error?.type === 'InvalidInput')).toBe(true);
    expect(fake.playlist(created.playlist_id)!.uris).toEqual(uris.slice(0, 100));
  });

  it('refuses writes to a playlist the account only follows, as Unsupported', async () => {
    const friends = fake.playlistByName(demo.userId, 'Friends Weekly')!;
    const error = await failure(call('addTracks', { playlist_id: friends.id, items: [{ uri: fake.uriOf(music[0]!.key)! }] }));
    expect(error.type).toBe('Unsupported');
    expect(fake.playlist(friends.id)!.uris).toEqual(friends.uris);
  });

  it('removes by URI against a snapshot id, in requests of at most 100, each write changing the snapshot', async () => {
    const created = await call('createPlaylist', { name: 'Removals', description: null, public: true });
    const uris = music.slice(0, 150).map((track) => fake.uriOf(track.key)!);
    const added = await call('addTracks', { playlist_id: created.playlist_id, items: [...uris, uris[0]!].map((uri) => ({ uri })) });
    expect(added.snapshot_id).not.toBe(created.snapshot_id);
    const before = fake.requests.length;
    const removed = await call('removeTracks', { playlist_id: created.playlist_id, items: uris.slice(0, 120).map((uri, index) => ({ uri, position: index })), snapshot_id: added.snapshot_id });
    const deletes = writes(before, 'DELETE');
    expect(deletes).toHaveLength(2);
    const bodies = deletes.map((request) => JSON.parse(request.body) as { items: { uri: string }[]; snapshot_id: string });
    expect(bodies.map((body) => body.items.length)).toEqual([100, 20]);
    expect(bodies[0]!.snapshot_id).toBe(added.snapshot_id);
    expect(bodies[1]!.snapshot_id).not.toBe(added.snapshot_id);
    expect(removed.results.every((entry) => entry.ok)).toBe(true);
    expect(removed.snapshot_id).toBe(fake.playlist(created.playlist_id)!.snapshotId);
    // Spotify removes every occurrence of a URI: the duplicate of the first one is gone too.
    expect(fake.playlist(created.playlist_id)!.uris).toEqual(uris.slice(120));
    const stale = await failure(call('removeTracks', { playlist_id: created.playlist_id, items: [{ uri: uris[130]! }], snapshot_id: 'not-a-snapshot' }));
    expect(stale.type).toBe('InvalidInput');
  });

  it('mirrors a playlist: replace with the first 100, append the rest', async () => {
    const created = await call('createPlaylist', { name: 'Mirror', description: null, public: true });
    await call('addTracks', { playlist_id: created.playlist_id, items: [{ uri: fake.uriOf(music[299]!.key)! }] });
    const uris = music.slice(50, 190).map((track) => fake.uriOf(track.key)!);
    const before = fake.requests.length;
    const mirrored = await call('replacePlaylistTracks', { playlist_id: created.playlist_id, uris });
    expect(writes(before).map((request) => request.method)).toEqual(['PUT', 'POST']);
    expect(fake.playlist(created.playlist_id)!.uris).toEqual(uris);
    expect(mirrored.snapshot_id).toBe(fake.playlist(created.playlist_id)!.snapshotId);
    await call('replacePlaylistTracks', { playlist_id: created.playlist_id, uris: [] });
    expect(fake.playlist(created.playlist_id)!.uris).toEqual([]);
    expect((await failure(call('replacePlaylistTracks', { playlist_id: created.playlist_id, uris: ['spotify:local:a:b:c:1'] }))).type).toBe('InvalidInput');
  });

  it('moves one entry (reorder keeps the entries, pinned to a snapshot id)', async () => {
    const created = await call('createPlaylist', { name: 'Reorder', description: null, public: true });
    const uris = music.slice(0, 4).map((track) => fake.uriOf(track.key)!);
    const added = await call('addTracks', { playlist_id: created.playlist_id, items: uris.map((uri) => ({ uri, position: null })) });
    const before = fake.requests.length;
    const moved = await call('moveTracks', { playlist_id: created.playlist_id, range_start: 3, range_length: 1, insert_before: 0, snapshot_id: added.snapshot_id });
    const request = writes(before)[0]!;
    expect([request.method, request.path]).toEqual(['PUT', `/v1/playlists/${created.playlist_id}/items`]);
    expect(JSON.parse(request.body)).toEqual({ range_start: 3, insert_before: 0, range_length: 1, snapshot_id: added.snapshot_id });
    expect(fake.playlist(created.playlist_id)!.uris).toEqual([uris[3], uris[0], uris[1], uris[2]]);
    expect(moved.snapshot_id).toBe(fake.playlist(created.playlist_id)!.snapshotId);
    await call('moveTracks', { playlist_id: created.playlist_id, range_start: 0, range_length: 1, insert_before: 4, snapshot_id: null });
    expect(fake.playlist(created.playlist_id)!.uris).toEqual([uris[0], uris[1], uris[2], uris[3]]);
    expect((await failure(call('moveTracks', { playlist_id: created.playlist_id, range_start: 9, range_length: 1, insert_before: 0, snapshot_id: null }))).type).toBe('InvalidInput');
  });

  it('unfollows through the library endpoint; the playlist itself stays with its owner', async () => {
    const listener = fake.createAccount({ displayName: 'Unfollower', library: { followed: [{ name: 'To Drop', trackKeys: [music[0]!.key] }] } });
    const dropped = fake.playlistByName(listener.userId, 'To Drop')!;
    const before = fake.requests.length;
    await call('unfollowPlaylist', { playlist_id: dropped.id }, listener);
    const request = writes(before)[0]!;
    expect([request.method, request.path, request.query['uris']]).toEqual(['DELETE', '/v1/me/library', `spotify:playlist:${dropped.id}`]);
    expect(fake.library(listener.userId)!.playlists).not.toContain(dropped.id);
    expect(fake.playlist(dropped.id)).not.toBeNull();
    expect((await call('listPlaylists', { cursor: null, limit: 10 }, listener)).items).toEqual([]);
  });

  it('saves and removes albums through /me/library in requests of at most 40', async () => {
    const listener = fake.createAccount({ displayName: 'Collector' });
    const albumUris = [...seedCatalog().albums.keys()].slice(0, 45).map((key) => `spotify:album:${fake.albumIdOf(key)}`);
    const before = fake.requests.length;
    const saved = await call('saveAlbums', { items: [...albumUris, 'spotify:track:4iV5W9uYEdYUVa79Axb7Rh'].map((uri) => ({ uri })) }, listener);
    expect(writes(before).map((request) => request.query['uris']!.split(',').length)).toEqual([40, 5]);
    expect(saved.results.slice(0, 45).every((entry) => entry.ok)).toBe(true);
    expect(saved.results[45]).toMatchObject({ ok: false, error: { type: 'InvalidInput' } });
    expect(fake.library(listener.userId)!.savedAlbums).toHaveLength(45);
    await call('removeSavedAlbums', { items: albumUris.slice(0, 3).map((uri) => ({ uri })) }, listener);
    expect(fake.library(listener.userId)!.savedAlbums).toHaveLength(42);
  });
});

describe('Spotify plugin: failures', () => {
  it('tells an exhausted app quota apart from an ordinary rate limit', async () => {
    fake.failNext({ kind: 'quota', retryAfterS: 7200, pathPrefix: '/v1/me/playlists' });
    const quota = await failure(call('listPlaylists', { cursor: null, limit: 5 }));
    expect(quota.toData()).toMatchObject({ type: 'RateLimited', retry_after_s: 7200 });
    expect(quota.message).toMatch(/quota is exhausted/);

    fake.failNext({ kind: 'rate_limit', retryAfterS: 90, pathPrefix: '/v1/me/playlists' });
    const pacing = await failure(call('listPlaylists', { cursor: null, limit: 5 }));
    expect(pacing.toData()).toMatchObject({ type: 'RateLimited', retry_after_s: 90 });
    expect(pacing.message).not.toMatch(/quota/);
  });

  it('turns a 401 into AuthExpired and 5xx into ProviderError', async () => {
    fake.failNext({ kind: 'expired_token', pathPrefix: '/v1/me' });
    expect((await failure(call('testConnection', {}))).type).toBe('AuthExpired');
    for (const status of [500, 502, 503]) {
      fake.failNext({ kind: 'server_error', status, pathPrefix: '/v1/search' });
      expect((await failure(call('searchTracks', { query: { text: 'golden' }, mode: 'text', limit: 5 }))).type).toBe('ProviderError');
    }
  });

  it('says a lost write may have been applied; a lost read is an unreachable provider', async () => {
    const created = await call('createPlaylist', { name: 'Ambiguous', description: null, public: true });
    fake.failNext({ kind: 'ambiguous_write', method: 'POST', pathPrefix: '/v1/playlists/' });
    const lost = await failure(call('addTracks', { playlist_id: created.playlist_id, items: [{ uri: fake.uriOf(music[7]!.key)! }] }));
    expect(lost.type).toBe('ProviderError');
    expect(lost.message).toMatch(/may or may not have been applied/);
    expect(fake.playlist(created.playlist_id)!.uris).toHaveLength(1);

    fake.failNext({ kind: 'ambiguous_write', method: 'GET', pathPrefix: '/v1/me' });
    const unreachable = await failure(call('testConnection', {}));
    expect(unreachable.type).toBe('ProviderError');
    expect(unreachable.message).toMatch(/Could not reach Spotify/);
  });

  it('asks to reconnect when a permission (scope) is missing', async () => {
    const narrow = fake.createAccount({ displayName: 'Narrow', library: { likedTrackKeys: [music[0]!.key] }, scopes: ['playlist-read-private'] });
    const error = await failure(call('listLikedTracks', { cursor: null, limit: 10 }, narrow));
    expect(error.type).toBe('AuthExpired');
    expect(error.message).toMatch(/lacks a permission/);
  });

  it('refuses a cursor it did not make', async () => {
    expect((await failure(call('listPlaylists', { cursor: 'https://evil.test/?offset=1', limit: 5 }))).type).toBe('InvalidInput');
  });

  it('lets the host attach the token and never hands one back', async () => {
    const recent = fake.requests.filter((request) => request.path.startsWith('/v1/'));
    expect(recent.length).toBeGreaterThan(20);
    expect(recent.every((request) => /^Bearer \S+$/.test(request.headers['authorization'] ?? ''))).toBe(true);
    const everything = seen.join('\n');
    expect(seen.length).toBeGreaterThan(30);
    expect(everything).not.toContain(demo.accessToken);
    expect(everything).not.toContain(demo.refreshToken);
    expect(everything).not.toMatch(/Bearer /);
  });
});
