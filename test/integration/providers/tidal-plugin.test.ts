import { beforeAll, describe, expect, it } from 'vitest';
import type { Manifest, OperationName, Track } from '@opl/plugin-sdk';
import type { OperationCallInput } from '@opl/plugin-sdk/schemas';
import type { FakeAccountTokens } from '../../fakes/fake-provider.ts';
import { seedCatalog } from '../../fakes/seed-catalog.ts';
import { startFakeTidal, TIDAL_API_ORIGIN, type FakeTidal } from '../../fakes/tidal/index.ts';
import { captureLogger } from '../plugin-host/support/capture-logger.ts';
import { bearerContext, failureOf, pluginListener, readAllItems, usePluginSession } from './support/plugin-session.ts';

/**
 * The built TIDAL plugin in the real sandbox against the fake, for what the shared adapter contract
 * does not cover: TIDAL's field mapping (versions, videos, artwork), absolute positions across
 * pages, idempotent retries of lost writes, positioned inserts across batches, removal without an
 * entry id, the collection writes, error kinds and the manifest's grants and scopes.
 */

const { tracks: seedTracks, albums: seedAlbums, artists: seedArtists } = seedCatalog();
const music = [...seedTracks.values()].filter((track) => track.mediaType === 'track' && (!track.availableOn || track.availableOn.includes('tidal')));
const versions = music.filter((track) => / \((Live|Acoustic|Club Remix|Radio Edit|Karaoke Version)\)$/.test(track.title)).slice(0, 4);

let fake: FakeTidal;
let manifest: Manifest;
let account: FakeAccountTokens;
const logger = captureLogger();
const session = usePluginSession({ start: () => startFakeTidal(), pluginDir: 'plugins/providers/tidal', logger, context: (_session, tokens) => bearerContext(TIDAL_API_ORIGIN, tokens) });
const { seen } = session;

const call = <N extends OperationName>(op: N, input: OperationCallInput<N>, tokens: FakeAccountTokens = account) => session.call(op, input, tokens);

function playlistNamed(name: string, userId = account.userId) {
  const found = fake.playlistsOf(userId).find((playlist) => playlist.name === name);
  expect(found, name).toBeDefined();
  return found!;
}

function allItems(playlistId: string, limit = 50): Promise<Track[]> {
  return readAllItems((cursor) => call('listPlaylistItems', { playlist_id: playlistId, cursor, limit }));
}

const trackUri = (seedKey: string) => `tidal:track:${fake.trackId(seedKey)!}`;

beforeAll(() => {
  ({ fake, manifest } = session);
  account = pluginListener(fake, {
    playlists: [
      { name: 'Versions', trackKeys: versions.map((track) => track.key) },
      { name: 'Long', trackKeys: music.slice(0, 47).map((track) => track.key) },
      { name: 'Small', trackKeys: music.slice(60, 65).map((track) => track.key) },
      { name: 'Twice', trackKeys: [music[70]!.key, music[71]!.key, music[70]!.key] },
      { name: 'Target', trackKeys: [] },
    ],
    followed: [{ name: 'Someone Else', trackKeys: music.slice(80, 82).map((track) => track.key), public: true }],
    likedTrackKeys: music.slice(90, 115).map((track) => track.key),
    savedAlbumKeys: ['al0', 'al1'],
    followedArtistKeys: ['ar0'],
  });
  const versionsPlaylist = playlistNamed('Versions');
  versionsPlaylist.items.push(fake.state.newEntry('videos', [...fake.state.catalog.videos.keys()][0]!));
});

describe('manifest', () => {
  it('declares precise grants on the API origin only, and scopes for every capability', () => {
    const provider = manifest.provider!;
    expect(new Set(manifest.network.map((grant) => grant.origin))).toEqual(new Set([TIDAL_API_ORIGIN]));
    expect(manifest.network.every((grant) => grant.path_prefix.startsWith('/v2/'))).toBe(true);
    const auth = provider.auth[0]!;
    expect(auth).toMatchObject({ kind: 'OAUTH_PKCE', credential_origins: [TIDAL_API_ORIGIN], token_endpoint_auth: 'none', oauth: { authorization_url: 'https://login.tidal.com/authorize', token_url: 'https://auth.tidal.com/v1/oauth2/token' } });
    for (const capability of provider.capabilities) expect(auth.scopes[capability], capability).toBeDefined();
    expect(provider.write_constraints).toMatchObject({ max_add_batch: 50, max_remove_batch: 50, supports_duplicates: true, ordering: 'preserved' });
    // Mirror by moves (PATCH …/relationships/items): no rewrite of the playlist.
    expect(provider).toMatchObject({ can_mirror: true, mirror_unavailable_reason: null, can_unfollow_playlist: false, can_delete_playlist: true });
    expect(provider.capabilities).toEqual(expect.arrayContaining(['REMOVE_TRACKS', 'REORDER']));
    expect(manifest.network.find((grant) => grant.path_prefix === '/v2/playlists')!.methods).toContain('PATCH');
  });
});

describe('reads', () => {
  it('maps versions, albums, artwork and videos', async () => {
    const items = await allItems(playlistNamed('Versions').id);
    expect(items.map((track) => track.title)).toEqual([...versions.map((track) => track.title), expect.stringContaining('(Official Video)')]);
    versions.forEach((seed, index) => {
      const track = items[index]!;
      const album = seedAlbums.get(seed.albumKey)!;
      expect(track).toMatchObject({
        isrc: seed.isrc,
        explicit: seed.explicit,
        album: album.title,
        release_date: album.releaseDate,
        release_year: Number(album.releaseDate.slice(0, 4)),
        artists: seed.artistKeys.map((key) => seedArtists.get(key)!.name),
        position: index,
        media_type: 'track',
        is_migratable: true,
      });
      expect(track.duration_s).toBe(Math.round(seed.durationMs / 1000));
      expect(track.artwork_uri).toMatch(/^https:\/\/resources\.tidal\.com\/images\/.+\/1280x1280\.jpg$/);
      expect(track.provider_metadata['version']).toMatch(/Live|Acoustic|Club Remix|Radio Edit|Karaoke Version/);
      expect(track.source_item_id).toBeTruthy();
    });
    expect(items.at(-1)).toMatchObject({ media_type: 'video', is_migratable: false, provider_uris: { tidal: expect.stringMatching(/^tidal:video:\d+$/) } });
  });

  it('gives absolute positions across TIDAL pages for any page size', async () => {
    const id = playlistNamed('Long').id;
    for (const limit of [7, 20, 100]) {
      const items = await allItems(id, limit);
      expect(items.map((track) => track.position)).toEqual(Array.from({ length: 47 }, (_, index) => index));
      expect(items.map((track) => track.isrc)).toEqual(music.slice(0, 47).map((track) => track.isrc));
    }
    await expect(call('listPlaylistItems', { playlist_id: id, cursor: 'not-ours', limit: 5 })).rejects.toMatchObject({ type: 'InvalidInput' });
  });

  it('reads a playlist with ownership and a version marker that moves with every write', async () => {
    const small = playlistNamed('Small');
    const before = await call('readPlaylist', { playlist_id: small.id });
    expect(before).toMatchObject({ name: 'Small', is_owned: true, owner_id: account.userId, owner_name: 'Plugin Listener', track_count: 5 });
    await call('addTracks', { playlist_id: small.id, items: [{ uri: trackUri(music[100]!.key) }] });
    const after = await call('readPlaylist', { playlist_id: small.id });
    expect(after.snapshot_id).not.toBe(before.snapshot_id);
    expect(after.track_count).toBe(6);
    const followed = [...fake.state.playlists.values()].find((playlist) => playlist.name === 'Someone Else')!;
    const foreign = await call('readPlaylist', { playlist_id: followed.id });
    expect(foreign).toMatchObject({ is_owned: false, owner_id: followed.ownerId });
  });

  it('reads favourite tracks newest first, saved albums and followed artists', async () => {
    const liked = await readAllItems((cursor) => call('listLikedTracks', { cursor, limit: 10 }));
    expect(liked.map((track) => track.isrc)).toEqual(music.slice(90, 115).reverse().map((track) => track.isrc));
    expect(liked.every((track) => track.source_item_id === null && track.added_at !== null)).toBe(true);
    const albums = await call('listSavedAlbums', { cursor: null, limit: 10 });
    expect(albums.items.map((album) => album.upc).sort()).toEqual([seedAlbums.get('al0')!.upc, seedAlbums.get('al1')!.upc].sort());
    expect(albums.items.every((album) => album.artwork_uri && album.artists.length > 0 && album.added_at)).toBe(true);
    const artists = await call('listFollowedArtists', { cursor: null, limit: 10 });
    expect(artists.items).toMatchObject([{ name: seedArtists.get('ar0')!.name, provider_uris: { tidal: expect.stringMatching(/^tidal:artist:/) } }]);
  });
});

describe('lookupTracks', () => {
  const lookups = () => fake.requests.filter((request) => request.method === 'GET' && request.path === '/v2/tracks');

  function expectSeedTrack(track: Track | null, seed: (typeof music)[number]) {
    const album = seedAlbums.get(seed.albumKey)!;
    const artists = seed.artistKeys.map((key) => seedArtists.get(key)!.name);
    expect(track, seed.key).toMatchObject({
      id: fake.trackId(seed.key),
      title: seed.title,
      artist: artists.join(', '),
      artists,
      album: album.title,
      isrc: seed.isrc,
      duration_s: Math.round(seed.durationMs / 1000),
      media_type: 'track',
      provider_uris: { tidal: trackUri(seed.key) },
    });
    expect(track!.artwork_uri).toMatch(/^https:\/\/resources\.tidal\.com\/images\//);
  }

  it('answers every URI in order: tracks, links, duplicates, and null for unknown ids and other URIs', async () => {
    const [a, b, c] = [music[3]!, versions[0]!, music[5]!];
    const video = [...fake.state.catalog.videos.keys()][0]!;
    const before = lookups().length;
    const { tracks } = await call('lookupTracks', {
      uris: [
        trackUri(a.key),
        `https://tidal.com/browse/track/${fake.trackId(b.key)!}`,
        'tidal:track:1',
        'spotify:track:4uLU6hMCjMI75M1A2tKUQC',
        `https://listen.tidal.com/track/${fake.trackId(c.key)!}/u`,
        `tidal:video:${video}`,
        trackUri(a.key),
      ],
    });
    expect(tracks).toHaveLength(7);
    expectSeedTrack(tracks[0]!, a);
    expectSeedTrack(tracks[1]!, b);
    expect(tracks[1]!.provider_metadata['version']).toBeTruthy();
    expect(tracks[2]).toBeNull();
    expect(tracks[3]).toBeNull();
    expectSeedTrack(tracks[4]!, c);
    expect(tracks[5]).toBeNull();
    expect(tracks[6]).toEqual(tracks[0]);
    // One request for the four distinct track ids; the others were never sent.
    const sent = lookups().slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.query['include']).toBe('artists,albums.coverArt');
  });

  it('asks for at most 20 ids a request', async () => {
    const seeds = music.slice(200, 245);
    expect(seeds).toHaveLength(45);
    const before = lookups().length;
    const { tracks } = await call('lookupTracks', { uris: [...seeds.map((seed) => trackUri(seed.key)), 'not a uri'] });
    expect(tracks).toHaveLength(46);
    seeds.forEach((seed, index) => expectSeedTrack(tracks[index]!, seed));
    expect(tracks[45]).toBeNull();
    const sent = lookups().slice(before);
    expect(sent).toHaveLength(3);
    // Ids go as repeated filter[id] parameters; the recorded query keeps the last of each batch.
    expect(sent.map((request) => request.query['filter[id]'])).toEqual([seeds[19]!, seeds[39]!, seeds[44]!].map((seed) => fake.trackId(seed.key)));
  });

  it('surfaces rate limiting and server errors as typed errors', async () => {
    const uris = [trackUri(music[7]!.key)];
    fake.failNext({ kind: 'rate_limit', retryAfterS: 60, method: 'GET', pathPrefix: '/v2/tracks' });
    const limited = await failureOf(call('lookupTracks', { uris }));
    expect(limited.toData()).toMatchObject({ type: 'RateLimited', retry_after_s: 60 });
    fake.failNext({ kind: 'server_error', status: 503, method: 'GET', pathPrefix: '/v2/tracks' });
    expect((await failureOf(call('lookupTracks', { uris }))).type).toBe('ProviderError');
    const { tracks } = await call('lookupTracks', { uris });
    expectSeedTrack(tracks[0]!, music[7]!);
  });
});

describe('writes', () => {
  it('retries a write whose answer was lost under the same Idempotency-Key, so it applies once', async () => {
    const target = playlistNamed('Target');
    const input = { playlist_id: target.id, items: [{ uri: trackUri(music[120]!.key) }, { uri: trackUri(music[121]!.key) }] };
    fake.failNext({ kind: 'ambiguous_write', method: 'POST', pathPrefix: `/v2/playlists/${target.id}/relationships/items` });
    const lost = await failureOf(call('addTracks', input));
    expect(lost.type).toBe('ProviderError');
    expect(fake.playlistEntries(target.id)).toHaveLength(2);
    const retried = await call('addTracks', input);
    expect(retried.results.every((result) => result.ok && result.target_item_id)).toBe(true);
    const entries = fake.playlistEntries(target.id)!;
    expect(entries).toHaveLength(2);
    expect(retried.results.map((result) => result.target_item_id)).toEqual(entries.map((entry) => entry.itemId));
    const posts = fake.requests.filter((request) => request.method === 'POST' && request.path === `/v2/playlists/${target.id}/relationships/items`);
    expect(posts).toHaveLength(2);
    expect(posts[0]!.headers['idempotency-key']).toBeTruthy();
    expect(posts[1]!.headers['idempotency-key']).toBe(posts[0]!.headers['idempotency-key']);
  });

  it('inserts more than one batch at a position, in order', async () => {
    const small = playlistNamed('Small');
    const original = fake.playlistEntries(small.id)!;
    const inserted = music.slice(130, 190);
    const result = await call('addTracks', { playlist_id: small.id, items: inserted.map((track, index) => ({ uri: trackUri(track.key), position: 2 + index })) });
    expect(result.results.map((entry) => entry.position)).toEqual(inserted.map((_, index) => 2 + index));
    const ids = fake.playlistEntries(small.id)!.map((entry) => entry.id);
    expect(ids).toEqual([original[0]!.id, original[1]!.id, ...inserted.map((track) => fake.trackId(track.key)), ...original.slice(2).map((entry) => entry.id)]);
    const posts = fake.requests.filter((request) => request.method === 'POST' && request.path === `/v2/playlists/${small.id}/relationships/items`).slice(-2);
    expect(posts.map((request) => (JSON.parse(request.body) as { meta?: { positionBefore?: string } }).meta?.positionBefore)).toEqual([original[2]!.itemId, original[2]!.itemId]);
  });

  it('removes one occurrence of a duplicate by position when no entry id is given', async () => {
    const twice = playlistNamed('Twice');
    const [first, second, third] = fake.playlistEntries(twice.id)!;
    const result = await call('removeTracks', { playlist_id: twice.id, items: [{ uri: `tidal:track:${third!.id}`, position: 2 }] });
    expect(result.results[0]).toMatchObject({ ok: true, target_item_id: third!.itemId });
    expect(fake.playlistEntries(twice.id)!.map((entry) => entry.itemId)).toEqual([first!.itemId, second!.itemId]);
  });

  it('creates a new playlist when a replayed create names a playlist deleted since', async () => {
    const created = await call('createPlaylist', { name: 'Replay Me', description: 'once', public: true });
    expect(created.uri).toBe(`tidal:playlist:${created.playlist_id}`);
    expect(fake.state.playlists.get(created.playlist_id)).toMatchObject({ accessType: 'PUBLIC', description: 'once' });
    await call('deletePlaylist', { playlist_id: created.playlist_id });
    // Age the remembered answer: TIDAL replays it for an hour.
    for (const record of fake.state.idempotency.values()) {
      const data = (record.body as { data?: { id?: string; attributes?: Record<string, unknown> } }).data;
      if (data?.id === created.playlist_id) data.attributes!['createdAt'] = new Date(Date.now() - 30 * 60_000).toISOString();
    }
    const again = await call('createPlaylist', { name: 'Replay Me', description: 'once', public: true });
    expect(again.playlist_id).not.toBe(created.playlist_id);
    expect(fake.state.playlists.has(again.playlist_id)).toBe(true);
  });

  it('saves and removes albums, follows and unfollows artists, with per-item results', async () => {
    const album = seedAlbums.get('al5')!;
    const found = await call('searchAlbums', { query: { title: album.title, upc: album.upc }, limit: 3 });
    expect(found.candidates[0]).toMatchObject({ upc: album.upc, title: album.title });
    const albumUri = found.candidates[0]!.provider_uris['tidal']!;
    const saved = await call('saveAlbums', { items: [{ uri: albumUri }, { uri: `tidal:album:${fake.trackId('al0')!}` }, { uri: 'tidal:album:1' }, { uri: 'spotify:album:x' }] });
    expect(saved.results.map((entry) => [entry.ok, entry.error?.type ?? null])).toEqual([
      [true, null],
      [true, null],
      [false, 'NotFound'],
      [false, 'InvalidInput'],
    ]);
    expect(fake.state.collectionOf(account.userId).albums.map((entry) => entry.id)).toContain(albumUri.split(':')[2]);
    await call('removeSavedAlbums', { items: [{ uri: albumUri }] });
    expect(fake.state.collectionOf(account.userId).albums.map((entry) => entry.id)).not.toContain(albumUri.split(':')[2]);

    const artist = seedArtists.get('ar3')!;
    const artists = await call('searchArtists', { query: { name: artist.name }, limit: 3 });
    expect(artists.candidates[0]!.name).toBe(artist.name);
    const followed = await call('followArtists', { items: [{ uri: artists.candidates[0]!.provider_uris['tidal']! }] });
    expect(followed.results[0]!.ok).toBe(true);
    expect(fake.state.collectionOf(account.userId).artists).toHaveLength(2);
    await call('unfollowArtists', { items: [{ uri: artists.candidates[0]!.provider_uris['tidal']! }] });
    expect(fake.state.collectionOf(account.userId).artists).toHaveLength(1);
  });

  it('moves entries keeping their item ids and dates: by the caller\'s ids without a read, to the end in two moves, a range by positions', async () => {
    const long = playlistNamed('Long');
    const before = fake.playlistEntries(long.id)!;
    const patches = (from: number) => fake.requests.slice(from).filter((request) => request.method === 'PATCH');
    const uriOf = (entry: (typeof before)[number]) => `tidal:track:${entry.id}`;
    // The last entry to the top by the ids the caller read: one PATCH, no read.
    let from = fake.requests.length;
    await call('moveTracks', { playlist_id: long.id, range_start: before.length - 1, insert_before: 0, item_id: before.at(-1)!.itemId, before_item_id: before[0]!.itemId, item_uri: uriOf(before.at(-1)!), snapshot_id: long.lastModifiedAt });
    expect(fake.requests.slice(from).map((request) => request.method)).toEqual(['PATCH']);
    expect(JSON.parse(patches(from)[0]!.body)).toEqual({ data: [{ id: before.at(-1)!.id, type: 'tracks', meta: { itemId: before.at(-1)!.itemId } }], meta: { positionBefore: before[0]!.itemId } });
    expect(fake.playlistEntries(long.id)).toEqual([before.at(-1), ...before.slice(0, -1)]);
    // Back to the end: TIDAL places only before an entry, so one read of the last entry and two moves.
    from = fake.requests.length;
    await call('moveTracks', { playlist_id: long.id, range_start: 0, insert_before: before.length, item_id: before.at(-1)!.itemId, before_item_id: null, item_uri: uriOf(before.at(-1)!), snapshot_id: long.lastModifiedAt });
    expect(fake.requests.slice(from).map((request) => request.method)).toEqual(['GET', 'PATCH', 'PATCH']);
    expect(fake.playlistEntries(long.id)).toEqual(before);
    // A range of 25 by positions: the layout is read, then 20 and 5 entries go before the same entry, in order.
    from = fake.requests.length;
    await call('moveTracks', { playlist_id: long.id, range_start: 20, range_length: 25, insert_before: 2 });
    expect(patches(from).map((request) => (JSON.parse(request.body) as { data: unknown[] }).data.length)).toEqual([20, 5]);
    expect(fake.playlistEntries(long.id)).toEqual([...before.slice(0, 2), ...before.slice(20, 45), ...before.slice(2, 20), ...before.slice(45)]);
    // A stale entry id is refused and nothing moves; so is a request of more than 20 entries to the fake API.
    const now = fake.playlistEntries(long.id)!;
    expect((await failureOf(call('moveTracks', { playlist_id: long.id, range_start: 1, insert_before: 0, item_id: 'gone-item', before_item_id: now[0]!.itemId, item_uri: uriOf(now[1]!) }))).type).toBe('InvalidInput');
    expect((await failureOf(call('moveTracks', { playlist_id: long.id, range_start: 1, insert_before: 0, item_id: now[1]!.itemId, before_item_id: 'gone-item', item_uri: uriOf(now[1]!) }))).type).toBe('InvalidInput');
    expect(fake.playlistEntries(long.id)).toEqual(now);
  });

  it('retries a move whose answer was lost under the same Idempotency-Key, so it applies once', async () => {
    const small = playlistNamed('Small');
    const before = fake.playlistEntries(small.id)!;
    const input = { playlist_id: small.id, range_start: 3, insert_before: 1, item_id: before[3]!.itemId, before_item_id: before[1]!.itemId, item_uri: `tidal:track:${before[3]!.id}`, snapshot_id: small.lastModifiedAt };
    fake.failNext({ kind: 'ambiguous_write', method: 'PATCH', pathPrefix: `/v2/playlists/${small.id}/relationships/items` });
    expect((await failureOf(call('moveTracks', input))).type).toBe('ProviderError');
    const moved = [before[0], before[3], before[1], before[2], ...before.slice(4)];
    expect(fake.playlistEntries(small.id)).toEqual(moved);
    await call('moveTracks', input);
    expect(fake.playlistEntries(small.id)).toEqual(moved);
  });

  it('sends an Idempotency-Key and the JSON:API media type with every mutation', () => {
    const mutations = fake.requests.filter((request) => request.method !== 'GET');
    expect(mutations.length).toBeGreaterThan(5);
    for (const request of mutations) {
      expect(request.headers['idempotency-key'], `${request.method} ${request.path}`).toMatch(/^opl-[0-9a-f]{28}$/);
      if (request.body) expect(request.headers['content-type']).toBe('application/vnd.api+json');
    }
  });
});

describe('errors', () => {
  it('refuses to delete a playlist the account does not own', async () => {
    const foreign = [...fake.state.playlists.values()].find((playlist) => playlist.name === 'Someone Else')!;
    expect((await failureOf(call('deletePlaylist', { playlist_id: foreign.id }))).type).toBe('Unsupported');
    expect(fake.state.playlists.has(foreign.id)).toBe(true);
  });

  it('hands a long Retry-After to the engine at once, and maps server errors and unknown ids', async () => {
    fake.failNext({ kind: 'rate_limit', retryAfterS: 60 });
    const before = fake.requests.length;
    const limited = await failureOf(call('listPlaylists', { cursor: null, limit: 5 }));
    expect(limited.toData()).toMatchObject({ type: 'RateLimited', retry_after_s: 60 });
    expect(fake.requests.length - before).toBe(1);
    fake.failNext({ kind: 'server_error', status: 500 });
    expect((await failureOf(call('testConnection', {}))).type).toBe('ProviderError');
    expect((await failureOf(call('listPlaylistItems', { playlist_id: '00000000-0000-4000-8000-000000000000', cursor: null, limit: 5 }))).type).toBe('NotFound');
    // An id no TIDAL id can be names nothing: NotFound without a request, not a refused request read as TIDAL failing.
    const sent = fake.requests.length;
    for (const playlist_id of ['../../x', 'a/b', '..', '%2F']) expect((await failureOf(call('readPlaylist', { playlist_id }))).type, playlist_id).toBe('NotFound');
    expect(fake.requests.length).toBe(sent);
    const reader = fake.createAccount({ displayName: 'Reader', scopes: ['playlists.read', 'user.read'] });
    expect((await failureOf(call('searchTracks', { query: { text: 'golden' }, mode: 'text', limit: 5 }, reader))).type).toBe('Unsupported');
  });

  it('never hands a credential back to the engine or its log', () => {
    const everything = `${seen.join('\n')}\n${logger.text()}`;
    expect(seen.length).toBeGreaterThan(15);
    expect(everything).not.toContain(account.accessToken);
    expect(everything).not.toContain(account.refreshToken);
    expect(everything).not.toMatch(/tidal-at-|tidal-rt-/);
  });
});
