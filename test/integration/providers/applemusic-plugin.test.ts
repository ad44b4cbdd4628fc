import { beforeAll, describe, expect, it } from 'vitest';
import type { OperationName, Track } from '@opl/plugin-sdk';
import type { OperationCallInput } from '@opl/plugin-sdk/schemas';
import type { PluginCallContext } from '../../../core/plugin-host/index.ts';
import { providerView } from '../../../core/plugins/provider-view.ts';
import { generateDeveloperKey, signDeveloperToken } from '../../fakes/applemusic/developer-token.ts';
import { startFakeAppleMusic, type FakeAppleMusic } from '../../fakes/applemusic/index.ts';
import type { FakeAccountTokens } from '../../fakes/fake-provider.ts';
import { seedCatalog } from '../../fakes/seed-catalog.ts';
import { captureLogger } from '../plugin-host/support/capture-logger.ts';
import { attachedContext, failureOf, pluginListener, readAllItems, usePluginSession } from './support/plugin-session.ts';

/**
 * The built Apple Music plugin in the real sandbox against the fake, for what the shared adapter
 * contract does not cover: the mapping of library and catalog resources (videos, uploads, explicit
 * ratings, artwork templates, year-only release dates), storefront detection, ISRC lookup, songs
 * looked up by URI or link, the append delay (confirmation by reading back, no re-sent request,
 * pending and skipped tracks), append-only positions, the operations Apple does not have, and
 * every error kind.
 */

const { tracks: seedTracks } = seedCatalog();
const music = [...seedTracks.values()].filter((track) => track.mediaType === 'track' && (!track.availableOn || track.availableOn.includes('applemusic')));

let fake: FakeAppleMusic;
let account: FakeAccountTokens;
const logger = captureLogger();
const session = usePluginSession({ start: () => startFakeAppleMusic(), pluginDir: 'plugins/providers/applemusic', logger });
const { seen } = session;

function contextFor(tokens: FakeAccountTokens, developerToken = fake.developerToken()): PluginCallContext {
  return attachedContext(session.manifest, tokens, { authorization: `Bearer ${developerToken}` });
}

const call = <N extends OperationName>(op: N, input: OperationCallInput<N>, tokens: FakeAccountTokens = account, developerToken?: string) => session.call(op, input, contextFor(tokens, developerToken));

function playlistNamed(name: string, userId = account.userId) {
  const found = fake.playlistsOf(userId).find((playlist) => playlist.name === name);
  expect(found, name).toBeDefined();
  return found!;
}

function allItems(playlistId: string, limit = 50, tokens = account): Promise<Track[]> {
  return readAllItems((cursor) => call('listPlaylistItems', { playlist_id: playlistId, cursor, limit }, tokens));
}

const songUri = (seedKey: string) => `applemusic:song:${fake.songId(seedKey)!}`;
const appendsTo = (playlistId: string, from: number) => fake.requests.slice(from).filter((request) => request.method === 'POST' && request.path === `/v1/me/library/playlists/${playlistId}/tracks`);

beforeAll(() => {
  ({ fake } = session);
  account = pluginListener(fake, {
    playlists: [
      { name: 'Mapping', description: 'Every kind of entry.', trackKeys: music.slice(0, 12).map((track) => track.key) },
      { name: 'Long', trackKeys: music.slice(0, 230).map((track) => track.key) },
      { name: 'Nothing Yet', trackKeys: [] },
    ],
    followed: [{ name: 'Someone Else’s', trackKeys: music.slice(40, 44).map((track) => track.key) }],
    likedTrackKeys: music.slice(100, 135).map((track) => track.key),
  });
  const mapping = playlistNamed('Mapping');
  fake.addToPlaylist(mapping.id, { musicVideoOf: music[0]!.key });
  fake.addToPlaylist(mapping.id, { upload: { name: 'Garage Demo', artistName: 'The Neighbours', albumName: 'Tapes', durationInMillis: 201_500 } });
}, 120_000);

describe('reading', () => {
  it('tests the connection with the storefront (Apple has no account id)', async () => {
    expect(await call('testConnection', {})).toEqual({ ok: true, account_id: 'me', display_name: 'Apple Music (United States)', country: 'US' });
  });

  it('lists library playlists alphabetically across pages, the catalogue one as not owned', async () => {
    const first = await call('listPlaylists', { cursor: null, limit: 2 });
    expect(first.items.map((playlist) => playlist.name)).toEqual(['Long', 'Mapping']);
    expect(first.total).toBe(4);
    const second = await call('listPlaylists', { cursor: first.next_cursor, limit: 2 });
    expect(second.items.map((playlist) => [playlist.name, playlist.is_owned])).toEqual([
      ['Nothing Yet', true],
      ['Someone Else’s', false],
    ]);
    expect(second.next_cursor).toBeNull();
    expect(second.items[1]).toMatchObject({ is_followed: true, snapshot_id: null });
    expect(second.items[1]!.metadata['global_id']).toMatch(/^pl\.u-/);
  });

  it('maps library songs through their catalog resource: ISRC, seconds, explicit, artwork, dates, numbers, URIs', async () => {
    const playlist = playlistNamed('Mapping');
    const read = await call('readPlaylist', { playlist_id: playlist.id });
    expect(read).toMatchObject({ id: playlist.id, name: 'Mapping', description: 'Every kind of entry.', is_owned: true, provider_uris: { applemusic: `applemusic:library-playlist:${playlist.id}` } });
    const items = await allItems(playlist.id, 5);
    expect(items).toHaveLength(14);
    items.slice(0, 12).forEach((track, index) => {
      const seed = music[index]!;
      const song = fake.state.catalog.songs.get(fake.songId(seed.key)!)!;
      expect(track).toMatchObject({
        id: song.id,
        title: seed.title,
        isrc: seed.isrc,
        duration_s: seed.durationMs / 1000,
        explicit: seed.explicit,
        track_number: seed.trackNumber,
        disc_number: 1,
        position: index,
        source_item_id: null,
        media_type: 'track',
        is_migratable: true,
        provider_uris: { applemusic: `applemusic:song:${song.id}` },
      });
      expect(track.release_date).toBe(song.releaseDate);
      expect(track.release_year).toBe(Number(song.releaseDate.slice(0, 4)));
      expect(track.artwork_uri).toMatch(/^https:\/\/is1-ssl\.mzstatic\.com\/.*\/600x600bb\.jpg$/);
      expect(track.metadata['url']).toMatch(/^https:\/\/music\.apple\.com\/us\/album\/.+\?i=\d+$/);
      expect(track.provider_metadata['library_id']).toMatch(/^i\./);
      expect(track.artists.length).toBeGreaterThan(0);
    });
    expect(items[12]).toMatchObject({ media_type: 'video', is_migratable: false, position: 12 });
    expect(items[12]!.provider_uris['applemusic']).toMatch(/^applemusic:music-video:\d+$/);
    expect(items[12]!.unsupported_reason).toBeTruthy();
    expect(items[13]).toMatchObject({ title: 'Garage Demo', artist: 'The Neighbours', album: 'Tapes', duration_s: 201.5, media_type: 'local_file', is_local: true, is_migratable: false, isrc: null, explicit: null });
    expect(items[13]!.provider_uris['applemusic']).toMatch(/^applemusic:library-song:i\./);
  });

  it('keeps the year-only release dates Apple has for some albums', async () => {
    const yearOnly = [...fake.state.catalog.songs.values()].find((song) => /^\d{4}$/.test(song.releaseDate) && song.isrc)!;
    const { candidates } = await call('searchTracks', { query: { isrc: yearOnly.isrc }, mode: 'isrc', limit: 1 });
    expect(candidates[0]).toMatchObject({ release_date: yearOnly.releaseDate, release_year: Number(yearOnly.releaseDate) });
  });

  it('pages a long playlist with any limit, positions absolute', async () => {
    const playlist = playlistNamed('Long');
    const page = await call('listPlaylistItems', { playlist_id: playlist.id, cursor: null, limit: 150 });
    expect(page.items).toHaveLength(150);
    expect(page.total).toBe(230);
    const rest = await call('listPlaylistItems', { playlist_id: playlist.id, cursor: page.next_cursor, limit: 150 });
    expect(rest.items.map((track) => track.position)).toEqual(Array.from({ length: 80 }, (_, index) => 150 + index));
    expect(rest.next_cursor).toBeNull();
    // Apple pages hold at most 100: 150 took two requests.
    expect(fake.requests.filter((request) => request.path.endsWith(`${playlist.id}/tracks`)).every((request) => Number(request.query['limit']) <= 100)).toBe(true);
  });

  it('reads an empty playlist as empty although Apple answers its tracks with 404', async () => {
    const page = await call('listPlaylistItems', { playlist_id: playlistNamed('Nothing Yet').id, cursor: null, limit: 50 });
    expect(page).toMatchObject({ items: [], next_cursor: null });
    await failureOf(call('listPlaylistItems', { playlist_id: 'p.NoSuchPlaylist0', cursor: null, limit: 50 })).then((error) => expect(error.type).toBe('NotFound'));
  });

  it('reads the library songs', async () => {
    const page = await call('listLikedTracks', { cursor: null, limit: 20 });
    expect(page.items).toHaveLength(20);
    expect(page.total).toBe(35);
    expect(page.items[0]!.isrc).toBe(music[100]!.isrc);
  });

  it('refuses a cursor it did not issue', async () => {
    expect((await failureOf(call('listPlaylists', { cursor: 'x.1', limit: 5 }))).type).toBe('InvalidInput');
  });
});

describe('storefront and search', () => {
  const usOnlySong = () => [...fake.state.catalog.songs.values()].find((song) => song.storefronts?.join() === 'us' && song.isrc)!;

  it('looks songs up by ISRC in the account storefront', async () => {
    const target = music.find((track) => track.isrc)!;
    const before = fake.requests.length;
    const { candidates } = await call('searchTracks', { query: { isrc: target.isrc!.toLowerCase() }, mode: 'isrc', limit: 5 });
    expect(candidates).toHaveLength(1);
    expect(candidates[0]).toMatchObject({ isrc: target.isrc, title: target.title, provider_uris: { applemusic: songUri(target.key) } });
    const paths = fake.requests.slice(before).map((request) => request.path);
    expect(paths).toEqual(['/v1/me/storefront', '/v1/catalog/us/songs']);
    expect(fake.requests[fake.requests.length - 1]!.query['filter[isrc]']).toBe(target.isrc);
  });

  it('sends no request for something that is not an ISRC', async () => {
    const before = fake.requests.length;
    expect(await call('searchTracks', { query: { isrc: 'not-an-isrc' }, mode: 'isrc', limit: 5 })).toEqual({ candidates: [] });
    expect(fake.requests.length).toBe(before);
  });

  it('uses the storefront of the account: a US-only song is missing from a British catalogue', async () => {
    const usOnly = usOnlySong();
    expect(usOnly).toBeDefined();
    const british = fake.createAccountIn('gb', { displayName: 'British Listener' });
    const before = fake.requests.length;
    expect(await call('testConnection', {}, british)).toMatchObject({ display_name: 'Apple Music (United Kingdom)', country: 'GB' });
    expect((await call('searchTracks', { query: { isrc: usOnly.isrc }, mode: 'isrc', limit: 5 }, british)).candidates).toEqual([]);
    expect((await call('searchTracks', { query: { isrc: usOnly.isrc }, mode: 'isrc', limit: 5 })).candidates).toHaveLength(1);
    const text = await call('searchTracks', { query: { title: music[3]!.title }, mode: 'text', limit: 3 }, british);
    expect(text.candidates.map((candidate) => candidate.title)).toContain(music[3]!.title);
    expect(text.candidates[0]!.metadata['url']).toMatch(/^https:\/\/music\.apple\.com\/gb\//);
    const catalogPaths = fake.requests.slice(before).filter((request) => request.path.startsWith('/v1/catalog/')).map((request) => request.path.split('/')[3]);
    expect(catalogPaths).toEqual(['gb', 'us', 'gb']);
  });

  it('caps text search at Apple’s page size', async () => {
    const result = await call('searchTracks', { query: { text: 'the' }, mode: 'text', limit: 50 });
    expect(result.candidates.length).toBeLessThanOrEqual(25);
    expect(fake.requests[fake.requests.length - 1]!.query['limit']).toBe('25');
  });

  it('validates links and URIs', async () => {
    expect(await call('validateUri', { uri: 'https://music.apple.com/us/album/small-fires/1234567890?i=987654321' })).toEqual({ valid: true, entity: 'track', id: '987654321', normalized_uri: 'applemusic:song:987654321' });
    expect(await call('validateUri', { uri: 'https://music.apple.com/gb/playlist/road-trip/pl.u-AbCdEf123' })).toMatchObject({ valid: true, entity: 'playlist', normalized_uri: 'applemusic:playlist:pl.u-AbCdEf123' });
    expect(await call('validateUri', { uri: 'https://music.apple.com/us/music-video/x/1234' })).toMatchObject({ valid: true, entity: null });
    expect(await call('validateUri', { uri: 'https://open.spotify.com/track/abc' })).toMatchObject({ valid: false });
  });
});

describe('lookupTracks', () => {
  const lookups = (from: number) => fake.requests.slice(from).filter((request) => request.method === 'GET' && /^\/v1\/catalog\/[a-z]{2}\/songs$/.test(request.path));
  const catalogSongOf = (seed: (typeof music)[number]) => fake.state.catalog.songs.get(fake.songId(seed.key)!)!;

  function expectSeedSong(track: Track | null, seed: (typeof music)[number]) {
    const song = catalogSongOf(seed);
    expect(track, seed.key).toMatchObject({
      id: song.id,
      title: seed.title,
      artist: song.artistName,
      album: song.albumName,
      isrc: seed.isrc,
      duration_s: seed.durationMs / 1000,
      media_type: 'track',
      is_migratable: true,
      provider_uris: { applemusic: `applemusic:song:${song.id}` },
    });
    expect(track!.artists.length).toBeGreaterThan(0);
  }

  it('answers every URI in order — URIs, song links, album links with ?i=, duplicates — with one catalogue request, null for the rest', async () => {
    const [a, b, c] = [music[3]!, music[8]!, music[5]!];
    const albumOfC = catalogSongOf(c).albumId;
    const video = [...fake.state.catalog.musicVideos.keys()][0]!;
    const before = fake.requests.length;
    const { tracks } = await call('lookupTracks', {
      uris: [
        songUri(a.key),
        `https://music.apple.com/us/song/some-song/${fake.songId(b.key)!}`,
        `https://music.apple.com/fr/album/some-album/${albumOfC}?i=${fake.songId(c.key)!}`,
        'applemusic:song:1',
        'spotify:track:4uLU6hMCjMI75M1A2tKUQC',
        `https://music.apple.com/us/album/some-album/${albumOfC}`,
        `applemusic:music-video:${video}`,
        'applemusic:library-song:i.AbCdEf0123456',
        songUri(a.key),
      ],
    });
    expect(tracks).toHaveLength(9);
    expectSeedSong(tracks[0]!, a);
    expectSeedSong(tracks[1]!, b);
    expectSeedSong(tracks[2]!, c);
    expect(tracks.slice(3, 8)).toEqual([null, null, null, null, null]);
    expect(tracks[8]).toEqual(tracks[0]);
    // The storefront, then one request for the four distinct song ids; nothing for the others.
    const sent = fake.requests.slice(before);
    expect(sent.map((request) => request.path)).toEqual(['/v1/me/storefront', '/v1/catalog/us/songs']);
    expect(sent[1]!.query['ids']).toBe([a, b, c].map((seed) => fake.songId(seed.key)).concat('1').join(','));
  });

  it('sends nothing when no URI names an Apple Music song', async () => {
    const before = fake.requests.length;
    expect(await call('lookupTracks', { uris: ['https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC', 'https://music.apple.com/us/album/x/1234567890', 'not a uri'] })).toEqual({ tracks: [null, null, null] });
    expect(fake.requests.length).toBe(before);
  });

  it('looks songs up in the account’s storefront: a US-only song is null for a British account', async () => {
    const usOnly = [...fake.state.catalog.songs.values()].find((song) => song.storefronts?.join() === 'us')!;
    const british = fake.createAccountIn('gb', { displayName: 'British Looker' });
    const before = fake.requests.length;
    const uris = [`applemusic:song:${usOnly.id}`, songUri(music[3]!.key)];
    const { tracks } = await call('lookupTracks', { uris }, british);
    expect(tracks[0]).toBeNull();
    expectSeedSong(tracks[1]!, music[3]!);
    expect(tracks[1]!.metadata['url']).toMatch(/^https:\/\/music\.apple\.com\/gb\//);
    expect(lookups(before).map((request) => request.path)).toEqual(['/v1/catalog/gb/songs']);
    expect((await call('lookupTracks', { uris })).tracks[0]).toMatchObject({ id: usOnly.id, title: usOnly.name });
  });

  it('surfaces rate limiting, server errors and an expired token as the usual typed errors', async () => {
    const uris = [songUri(music[7]!.key)];
    fake.failNext({ kind: 'rate_limit', retryAfterS: 60, method: 'GET', pathPrefix: '/v1/catalog/us/songs', times: 3 });
    const limited = await failureOf(call('lookupTracks', { uris }));
    expect(limited.toData()).toMatchObject({ type: 'RateLimited', retry_after_s: 60 });
    fake.clearFailures();
    fake.failNext({ kind: 'server_error', status: 503, method: 'GET', pathPrefix: '/v1/catalog/us/songs' });
    const failed = await failureOf(call('lookupTracks', { uris }));
    expect(failed.type).toBe('ProviderError');
    expect(failed.message).toContain('HTTP 503');
    fake.failNext({ kind: 'expired_token', method: 'GET', pathPrefix: '/v1/catalog/us/songs' });
    expect((await failureOf(call('lookupTracks', { uris }))).type).toBe('AuthExpired');
    const { tracks } = await call('lookupTracks', { uris });
    expectSeedSong(tracks[0]!, music[7]!);
  });
});

describe('appending', () => {
  it('confirms appended tracks by reading back, one request per 100, never re-sent', async () => {
    fake.appendVisibleAfterReads = 3;
    const created = await call('createPlaylist', { name: 'Delayed', description: 'Appears later', public: false });
    expect(created.playlist_id).toMatch(/^p\./);
    const uris = music.slice(0, 130).map((track) => songUri(track.key));
    const before = fake.requests.length;
    const result = await call('addTracks', { playlist_id: created.playlist_id, items: uris.map((uri) => ({ uri })) });
    expect(result.results.map((entry) => [entry.ok, entry.position])).toEqual(uris.map((_, index) => [true, index]));
    const appends = appendsTo(created.playlist_id, before);
    expect(appends.map((request) => (JSON.parse(request.body) as { data: unknown[] }).data.length)).toEqual([100, 30]);
    expect(appends.every((request) => request.status === 204)).toBe(true);
    expect(fake.playlistCatalogIds(created.playlist_id)).toEqual(uris.map((uri) => uri.split(':')[2]));
    expect(fake.pendingCount(created.playlist_id)).toBe(0);
  });

  it('reports tracks not visible after its bounded reads as accepted but unplaced, and they appear once', async () => {
    fake.appendVisibleAfterReads = 40;
    const created = await call('createPlaylist', { name: 'Very Slow', description: null, public: false });
    const uris = music.slice(10, 15).map((track) => songUri(track.key));
    const before = fake.requests.length;
    const result = await call('addTracks', { playlist_id: created.playlist_id, items: uris.map((uri) => ({ uri })) });
    expect(result.results.every((entry) => entry.ok && entry.position === null && entry.error === null)).toBe(true);
    expect(appendsTo(created.playlist_id, before)).toHaveLength(1);
    expect(fake.pendingCount(created.playlist_id)).toBe(5);
    // Later reads (the engine's reconciliation) see them land, once each.
    for (let read = 0; read < 45 && fake.pendingCount(created.playlist_id) > 0; read++) await call('listPlaylistItems', { playlist_id: created.playlist_id, cursor: null, limit: 10 });
    expect((await allItems(created.playlist_id)).map((track) => track.provider_uris['applemusic'])).toEqual(uris);
  });

  it('reports a track Apple skipped (not in the storefront) as NotFound, the rest placed', async () => {
    fake.appendVisibleAfterReads = 1;
    const usOnly = [...fake.state.catalog.songs.values()].find((song) => song.storefronts?.join() === 'us')!;
    const british = fake.createAccountIn('gb', { displayName: 'British Writer' });
    const created = await call('createPlaylist', { name: 'From London', description: null, public: true }, british);
    const uris = [songUri(music[20]!.key), `applemusic:song:${usOnly.id}`, songUri(music[21]!.key)];
    const result = await call('addTracks', { playlist_id: created.playlist_id, items: uris.map((uri) => ({ uri })) }, british);
    expect(result.results.map((entry) => [entry.ok, entry.position, entry.error?.type ?? null])).toEqual([
      [true, 0, null],
      [false, null, 'NotFound'],
      [true, 1, null],
    ]);
  });

  it('appends at the end only: another position is refused per item and nothing is sent for it', async () => {
    fake.appendVisibleAfterReads = 1;
    const created = await call('createPlaylist', { name: 'Positions', description: null, public: false });
    await call('addTracks', { playlist_id: created.playlist_id, items: [{ uri: songUri(music[30]!.key) }, { uri: songUri(music[31]!.key) }] });
    const before = fake.requests.length;
    const result = await call('addTracks', {
      playlist_id: created.playlist_id,
      items: [
        { uri: songUri(music[32]!.key), position: 0 },
        { uri: songUri(music[33]!.key), position: 2 },
        { uri: songUri(music[34]!.key), position: 3 },
        { uri: 'spotify:track:abc' },
      ],
    });
    expect(result.results.map((entry) => [entry.ok, entry.position, entry.error?.type ?? null])).toEqual([
      [false, null, 'Unsupported'],
      [true, 2, null],
      [true, 3, null],
      [false, null, 'InvalidInput'],
    ]);
    const sent = appendsTo(created.playlist_id, before).map((request) => (JSON.parse(request.body) as { data: { id: string }[] }).data.map((entry) => entry.id));
    expect(sent).toEqual([[fake.songId(music[33]!.key), fake.songId(music[34]!.key)]]);
  });

  it('refuses to write into a catalogue playlist added to the library', async () => {
    const before = fake.requests.length;
    const result = await call('addTracks', { playlist_id: playlistNamed('Someone Else’s').id, items: [{ uri: songUri(music[1]!.key) }] });
    expect(result.results[0]).toMatchObject({ ok: false, error: { type: 'Unsupported' } });
    expect(fake.requests.slice(before).some((request) => request.method === 'POST')).toBe(false);
  });

  it('fails a lost append loudly without re-sending it; the tracks appear once', async () => {
    fake.appendVisibleAfterReads = 1;
    const created = await call('createPlaylist', { name: 'Lost Answer', description: null, public: false });
    const uris = music.slice(50, 53).map((track) => songUri(track.key));
    const before = fake.requests.length;
    fake.failNext({ kind: 'ambiguous_write', method: 'POST', pathPrefix: `/v1/me/library/playlists/${created.playlist_id}/tracks` });
    const error = await failureOf(call('addTracks', { playlist_id: created.playlist_id, items: uris.map((uri) => ({ uri })) }));
    expect(error.type).toBe('ProviderError');
    expect(error.message).toMatch(/may have been applied/);
    expect(appendsTo(created.playlist_id, before)).toHaveLength(1);
    expect((await allItems(created.playlist_id)).map((track) => track.provider_uris['applemusic'])).toEqual(uris);
  });

  it('keeps the first request’s tracks when a later request fails, reporting the rest failed, nothing re-sent', async () => {
    fake.appendVisibleAfterReads = 1;
    const created = await call('createPlaylist', { name: 'Half Written', description: null, public: false });
    const uris = music.slice(60, 180).map((track) => songUri(track.key));
    const before = fake.requests.length;
    fake.failLater({ kind: 'server_error', status: 503, method: 'POST', pathPrefix: `/v1/me/library/playlists/${created.playlist_id}/tracks` }, 1);
    const result = await call('addTracks', { playlist_id: created.playlist_id, items: uris.map((uri) => ({ uri })) });
    expect(appendsTo(created.playlist_id, before).map((request) => request.status)).toEqual([204, 503]);
    expect(result.results.slice(0, 100).map((entry) => entry.position)).toEqual(Array.from({ length: 100 }, (_, index) => index));
    expect(result.results.slice(100).every((entry) => !entry.ok && entry.error?.type === 'ProviderError')).toBe(true);
    expect(fake.playlistCatalogIds(created.playlist_id)).toEqual(uris.slice(0, 100).map((uri) => uri.split(':')[2]));
  });

  it('fails the whole call when the first request fails, so the engine sees the typed error', async () => {
    const created = await call('createPlaylist', { name: 'Not Even Once', description: null, public: false });
    fake.failNext({ kind: 'rate_limit', retryAfterS: 60, method: 'POST', times: 3 });
    expect((await failureOf(call('addTracks', { playlist_id: created.playlist_id, items: [{ uri: songUri(music[70]!.key) }] }))).type).toBe('RateLimited');
    fake.clearFailures();
    expect(fake.playlistCatalogIds(created.playlist_id)).toEqual([]);
  });
});

describe('what Apple Music does not have', () => {
  it('declares no removal, deletion, unfollow or mirror, with an actionable reason', () => {
    const provider = session.manifest.provider!;
    expect(provider.capabilities).not.toContain('REMOVE_TRACKS');
    expect(provider.capabilities).not.toContain('REORDER');
    expect(provider).toMatchObject({ can_delete_playlist: false, can_unfollow_playlist: false, can_mirror: false });
    expect(provider.mirror_unavailable_reason).toMatch(/new playlist/);
    const view = providerView(session.manifest, true)!;
    expect(view).toMatchObject({ can_remove_tracks: false, can_delete_playlist: false, can_unfollow_playlist: false, can_mirror: false, can_target: true, can_source: true });
  });

  it('has the host refuse those operations before any request', async () => {
    const playlistId = playlistNamed('Mapping').id;
    const before = fake.requests.length;
    const refusals = await Promise.all([
      failureOf(call('removeTracks', { playlist_id: playlistId, items: [{ uri: songUri(music[0]!.key) }] })),
      failureOf(call('deletePlaylist', { playlist_id: playlistId })),
      failureOf(call('unfollowPlaylist', { playlist_id: playlistId })),
      failureOf(call('replacePlaylistTracks', { playlist_id: playlistId, uris: [] })),
    ]);
    expect(refusals.map((error) => error.type)).toEqual(['Unsupported', 'Unsupported', 'Unsupported', 'Unsupported']);
    expect(fake.requests.length).toBe(before);
    expect(fake.playlistCatalogIds(playlistId)).toHaveLength(14);
  });
});

describe('errors', () => {
  it('turns an expired music user token (403) into AuthExpired', async () => {
    const other = fake.createAccount({ displayName: 'Expiring' });
    fake.expireAccessToken(other.accessToken);
    const error = await failureOf(call('listPlaylists', { cursor: null, limit: 5 }, other));
    expect(error.type).toBe('AuthExpired');
    expect(error.message).toContain('HTTP 403 40300');
  });

  it('turns a refused developer token (401) into AuthExpired', async () => {
    const stranger = generateDeveloperKey('OTHERTEAM1', 'OTHERKEY01').material;
    const error = await failureOf(call('listPlaylists', { cursor: null, limit: 5 }, account, signDeveloperToken(stranger)));
    expect(error.type).toBe('AuthExpired');
    expect(error.message).toContain('HTTP 401');
    const expired = signDeveloperToken(fake.developerKey, { nowS: Math.floor(Date.now() / 1000) - 7200, lifetimeS: 3600 });
    expect((await failureOf(call('listPlaylists', { cursor: null, limit: 5 }, account, expired))).type).toBe('AuthExpired');
  });

  it('reports a lasting 429 as RateLimited with Retry-After', async () => {
    fake.failNext({ kind: 'rate_limit', retryAfterS: 40, times: 3 });
    const error = await failureOf(call('listPlaylists', { cursor: null, limit: 5 }));
    expect(error.type).toBe('RateLimited');
    expect(error.toData().retry_after_s).toBe(40);
    fake.clearFailures();
  });

  it('reports 5xx and unanswered reads as ProviderError, an unknown playlist as NotFound', async () => {
    fake.failNext({ kind: 'server_error', status: 500 });
    expect((await failureOf(call('listPlaylists', { cursor: null, limit: 5 }))).type).toBe('ProviderError');
    fake.failNext({ kind: 'ambiguous_write', method: 'GET' });
    expect((await failureOf(call('readPlaylist', { playlist_id: playlistNamed('Mapping').id }))).message).toMatch(/could not be reached/);
    expect((await failureOf(call('readPlaylist', { playlist_id: 'p.Missing000000' }))).type).toBe('NotFound');
    // An id no Apple Music id can be names nothing: NotFound without a request, not a refused request read as Apple failing.
    const sent = fake.requests.length;
    for (const playlist_id of ['../../x', 'p.a/b', '..', 'p.%2F']) expect((await failureOf(call('readPlaylist', { playlist_id }))).type, playlist_id).toBe('NotFound');
    expect(fake.requests.length).toBe(sent);
  });

  it('sends only granted requests and never shows a credential', () => {
    for (const request of fake.requests) expect(request.path).toMatch(/^\/v1\/(me\/storefront|me\/library\/playlists|me\/library\/songs|catalog\/)/);
    const everything = seen.join('\n') + logger.text();
    expect(seen.length).toBeGreaterThan(30);
    expect(everything).not.toContain(account.accessToken);
    // Every developer JWT starts with the same encoded header.
    expect(everything).not.toContain(fake.developerToken().split('.')[0]!);
    expect(everything).not.toMatch(/Bearer /);
  });
});
