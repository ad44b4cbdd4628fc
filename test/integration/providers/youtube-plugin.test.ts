import { beforeAll, describe, expect, it } from 'vitest';
import type { OperationName, Track } from '@opl/plugin-sdk';
import type { OperationCallInput } from '@opl/plugin-sdk/schemas';
import type { FakeAccountTokens } from '../../fakes/fake-provider.ts';
import { isAvailableOn, seedCatalog, type SeedTrack } from '../../fakes/seed-catalog.ts';
import { SCOPE_READONLY, startFakeYoutube, YOUTUBE_API_ORIGIN, type FakeYoutube } from '../../fakes/youtube/index.ts';
import { captureLogger } from '../plugin-host/support/capture-logger.ts';
import { expectPluginError } from '../support/plugin-errors.ts';
import { bearerContext, pluginListener, readAllItems, usePluginSession } from './support/plugin-session.ts';

/**
 * The built YouTube plugin in the real sandbox against the fake, for what the shared adapter
 * contract does not cover: page tokens with absolute positions, videos that are not songs (music
 * videos, uploads, deleted videos), ownership, liked videos, per-item write failures, removal
 * without an entry id, every error kind, the Music-category search and that no token leaks.
 */

const { tracks: seedTracks, artists: seedArtists, albums: seedAlbums } = seedCatalog();
const music = [...seedTracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'youtube'));

let fake: FakeYoutube;
let account: FakeAccountTokens;
let other: FakeAccountTokens;
const logger = captureLogger();
const session = usePluginSession({ start: () => startFakeYoutube(), pluginDir: 'plugins/providers/youtube', logger, context: (_session, tokens) => bearerContext(YOUTUBE_API_ORIGIN, tokens) });
const { seen } = session;

const call = <N extends OperationName>(op: N, input: OperationCallInput<N>, tokens: FakeAccountTokens = account) => session.call(op, input, tokens);

function playlistNamed(name: string, userId = account.userId) {
  const found = fake.playlistsOf(userId).find((playlist) => playlist.title === name);
  expect(found, name).toBeDefined();
  return found!;
}

async function allItems(playlistId: string, limit = 50) {
  const items: Track[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 100; page++) {
    const result: { items: Track[]; next_cursor: string | null } = await call('listPlaylistItems', { playlist_id: playlistId, cursor, limit });
    items.push(...result.items);
    cursor = result.next_cursor;
    if (!cursor) return items;
  }
  throw new Error('paging never ended');
}

const uri = (track: SeedTrack) => `youtube:video:${fake.trackId(track.key)!}`;

beforeAll(() => {
  ({ fake } = session);
  account = pluginListener(fake, {
    playlists: [
      { name: 'Long', description: 'Twenty-three songs', trackKeys: music.slice(0, 23).map((track) => track.key) },
      { name: 'Mixed', trackKeys: music.slice(30, 33).map((track) => track.key) },
      { name: 'Dupes', trackKeys: [music[40]!.key, music[41]!.key, music[40]!.key, music[42]!.key] },
    ],
    likedTrackKeys: music.slice(50, 62).map((track) => track.key),
  });
  other = fake.createAccount({ displayName: 'Someone Else', library: { playlists: [{ name: 'Theirs', trackKeys: music.slice(70, 72).map((track) => track.key), public: true }] } });
  // A music video, a vlog and a deleted video in "Mixed".
  const mixed = playlistNamed('Mixed');
  const clipSeed = music.find((track) => fake.musicVideoId(track.key))!;
  mixed.items.push(fake.state.newItem(fake.musicVideoId(clipSeed.key)!), fake.state.newItem(fake.uploadIds()[0]!), fake.state.newItem('ZZZZZZZZZZZ'));
});

describe('YouTube plugin', () => {
  it('tests the connection as the account’s channel', async () => {
    expect(await call('testConnection', {})).toMatchObject({ ok: true, account_id: account.userId, display_name: 'Plugin Listener', country: 'US' });
  });

  it('pages playlists and entries with YouTube page tokens, keeping absolute positions and one entry id per entry', async () => {
    const first = await call('listPlaylists', { cursor: null, limit: 1 });
    expect(first.items).toHaveLength(1);
    expect(first.next_cursor).toMatch(/^y1\./);
    const long = playlistNamed('Long');
    const before = fake.requests.length;
    const read = await allItems(long.id, 7);
    const calls = fake.requests.slice(before);
    expect(calls.filter((request) => request.path === '/youtube/v3/playlistItems').map((request) => request.query['maxResults'])).toEqual(['7', '7', '7', '7']);
    // One videos.list per page for durations and categories, never more than 50 ids.
    expect(calls.filter((request) => request.path === '/youtube/v3/videos')).toHaveLength(4);
    expect(read.map((track) => track.position)).toEqual([...Array(23).keys()]);
    expect(read.map((track) => track.title)).toEqual(music.slice(0, 23).map((track) => track.title));
    expect(read.map((track) => track.source_item_id)).toEqual(long.items.map((item) => item.id));
    expect(read.every((track) => track.duration_s !== null && track.media_type === 'track')).toBe(true);
    expect(read[0]).toMatchObject({ isrc: null, provider_uris: { youtube: uri(music[0]!) }, album: expect.any(String) as string, metadata: { url: `https://www.youtube.com/watch?v=${fake.trackId(music[0]!.key)!}` } });
    await expectPluginError(call('listPlaylistItems', { playlist_id: long.id, cursor: 'not-ours', limit: 5 }), 'InvalidInput');
  });

  it('reads music videos as migratable videos, other uploads and deleted videos as not migratable, in order', async () => {
    const read = await allItems(playlistNamed('Mixed').id);
    expect(read.map((track) => track.media_type)).toEqual(['track', 'track', 'track', 'video', 'video', 'video']);
    expect(read.map((track) => track.is_migratable)).toEqual([true, true, true, true, false, false]);
    const [clip, vlog, gone] = read.slice(3);
    expect(clip!.provider_metadata).toMatchObject({ video_kind: 'music_video' });
    expect(clip!.title).not.toContain('Official');
    expect(clip!.artists).toHaveLength(1);
    expect(vlog!.unsupported_reason).toContain('category 22');
    expect(gone).toMatchObject({ title: 'Deleted video', unsupported_reason: 'the YouTube video is deleted or private', position: 5 });
  });

  it('tells owned playlists from others’, and hides others’ private ones', async () => {
    expect(await call('readPlaylist', { playlist_id: playlistNamed('Long').id })).toMatchObject({ name: 'Long', description: 'Twenty-three songs', is_owned: true, track_count: 23, owner_id: account.userId });
    expect(await call('readPlaylist', { playlist_id: playlistNamed('Theirs', other.userId).id })).toMatchObject({ is_owned: false, owner_name: 'Someone Else' });
    const mine = await call('createPlaylist', { name: 'Secret', description: 'shh', public: false }, other);
    expect(fake.state.playlists.get(mine.playlist_id)!.privacyStatus).toBe('private');
    await expectPluginError(call('readPlaylist', { playlist_id: mine.playlist_id }), 'NotFound');
  });

  it('pages liked videos', async () => {
    const liked = await readAllItems((cursor) => call('listLikedTracks', { cursor, limit: 5 }));
    expect(new Set(liked.map((track) => track.title))).toEqual(new Set(music.slice(50, 62).map((track) => track.title)));
  });

  it('adds one video per request at the asked positions, answering per item for unknown videos, bad URIs and bad positions', async () => {
    const created = await call('createPlaylist', { name: 'Writes', description: null, public: true });
    const before = fake.requests.length;
    const result = await call('addTracks', {
      playlist_id: created.playlist_id,
      items: [{ uri: uri(music[80]!) }, { uri: 'youtube:video:ZZZZZZZZZZZ' }, { uri: 'spotify:track:abc' }, { uri: uri(music[81]!), position: 0 }, { uri: uri(music[82]!), position: 9 }],
    });
    expect(result.results.map((entry) => [entry.ok, entry.error?.type ?? null, entry.position])).toEqual([
      [true, null, 0],
      [false, 'NotFound', null],
      [false, 'InvalidInput', null],
      [true, null, 0],
      [false, 'InvalidInput', null],
    ]);
    expect(result.results[0]!.target_item_id).toBeTruthy();
    expect(fake.requests.slice(before).filter((request) => request.method === 'POST').map((request) => (JSON.parse(request.body) as { snippet: { position?: number } }).snippet.position ?? null)).toEqual([null, null, 0, 9]);
    expect((await allItems(created.playlist_id)).map((track) => track.provider_uris['youtube'])).toEqual([uri(music[81]!), uri(music[80]!)]);
  });

  it('removes an entry without an entry id by its position, never another occurrence of the same video', async () => {
    const dupes = playlistNamed('Dupes');
    const secondOccurrence = dupes.items[2]!.id;
    const result = await call('removeTracks', { playlist_id: dupes.id, items: [{ uri: uri(music[40]!), position: 2 }, { uri: uri(music[99]!) }] });
    expect(result.results.map((entry) => entry.ok)).toEqual([true, false]);
    expect(result.results[0]!.target_item_id).toBe(secondOccurrence);
    expect(result.results[1]!.error?.type).toBe('NotFound');
    expect(fake.playlistEntries(dupes.id)!.map((item) => item.videoId)).toEqual([music[40], music[41], music[42]].map((track) => fake.trackId(track!.key)));
    const gone = await call('removeTracks', { playlist_id: dupes.id, items: [{ uri: uri(music[41]!), target_item_id: 'UExnb3Rh' }] });
    expect(gone.results[0]).toMatchObject({ ok: false, error: { type: 'NotFound' } });
  });

  it('refuses writes to playlists of other channels, and writes with a read-only connection', async () => {
    const theirs = playlistNamed('Theirs', other.userId);
    await expectPluginError(call('addTracks', { playlist_id: theirs.id, items: [{ uri: uri(music[1]!) }] }), 'Unsupported');
    await expectPluginError(call('deletePlaylist', { playlist_id: theirs.id }), 'Unsupported');
    await expectPluginError(call('deletePlaylist', { playlist_id: 'PLnosuchplaylist' }), 'NotFound');
    const readOnly = fake.createAccount({ displayName: 'Read Only', scopes: [SCOPE_READONLY] });
    expect((await call('listPlaylists', { cursor: null, limit: 5 }, readOnly)).items).toEqual([]);
    await expectPluginError(call('createPlaylist', { name: 'Nope', description: null, public: false }, readOnly), 'AuthExpired');
  });

  it('searches the Music category by artist and title, and has no ISRC search', async () => {
    const target = music.find((track) => fake.musicVideoId(track.key))!;
    const before = fake.requests.length;
    const found = await call('searchTracks', { query: { title: target.title, artist: seedArtists.get(target.artistKeys[0]!)!.name }, mode: 'text', limit: 5 });
    const search = fake.requests.slice(before).find((request) => request.path === '/youtube/v3/search')!;
    expect(search.query).toMatchObject({ type: 'video', videoCategoryId: '10', maxResults: '5' });
    // The official video ranks first; the art track is there too, with its duration from videos.list.
    expect(found.candidates[0]!.provider_metadata).toMatchObject({ video_kind: 'music_video' });
    const art = found.candidates.find((candidate) => candidate.provider_uris['youtube'] === uri(target))!;
    expect(art).toMatchObject({ title: target.title, media_type: 'track', duration_s: Math.round(target.durationMs / 1000) });
    await expectPluginError(call('searchTracks', { query: { isrc: 'GBAYE0000001' }, mode: 'isrc', limit: 5 }), 'Unsupported');
    expect(await call('validateUri', { uri: `https://youtu.be/${fake.trackId(target.key)!}` })).toEqual({ valid: true, entity: 'track', id: fake.trackId(target.key), normalized_uri: uri(target) });
  });

  it('turns each failure into its typed error', async () => {
    fake.failNext({ kind: 'rate_limit', status: 403 });
    expect((await expectPluginError(call('listPlaylists', { cursor: null, limit: 5 }), 'RateLimited')).toData()).toMatchObject({ retry_after_s: null });
    fake.failNext({ kind: 'rate_limit', retryAfterS: 120 });
    expect((await expectPluginError(call('listPlaylists', { cursor: null, limit: 5 }), 'RateLimited')).toData()).toMatchObject({ retry_after_s: 120 });
    fake.failNext({ kind: 'server_error', status: 500 });
    await expectPluginError(call('listPlaylists', { cursor: null, limit: 5 }), 'ProviderError');
    fake.failNext({ kind: 'expired_token' });
    await expectPluginError(call('listPlaylists', { cursor: null, limit: 5 }), 'AuthExpired');
    fake.failNext({ kind: 'quota' });
    const quota = await expectPluginError(call('listPlaylists', { cursor: null, limit: 5 }), 'RateLimited');
    expect(quota.toData().quota).toEqual({ bucket: 'default', resets_at: null });
    await expectPluginError(call('listPlaylistItems', { playlist_id: 'PLnosuchplaylist', cursor: null, limit: 5 }), 'NotFound');
  });

  describe('lookupTracks', () => {
    const videoLookups = () => fake.requests.filter((request) => request.method === 'GET' && request.path === '/youtube/v3/videos');
    const idOf = (track: SeedTrack) => fake.trackId(track.key)!;

    function expectArtTrack(track: Track | null, seed: SeedTrack) {
      const artists = seed.artistKeys.map((key) => seedArtists.get(key)!.name);
      const album = seedAlbums.get(seed.albumKey)!;
      expect(track, seed.key).toMatchObject({
        id: idOf(seed),
        title: seed.title,
        artist: artists.join(', '),
        artists,
        album: album.title,
        release_date: album.releaseDate,
        duration_s: Math.round(seed.durationMs / 1000),
        isrc: null,
        media_type: 'track',
        is_migratable: true,
        provider_uris: { youtube: uri(seed) },
        metadata: { url: `https://www.youtube.com/watch?v=${idOf(seed)}` },
        source_item_id: null,
        position: null,
      });
      expect(track!.artwork_uri).toMatch(/^https:\/\/i\.ytimg\.com\/vi\//);
    }

    it('answers every URI in order: video URIs and pasted links, duplicates, and null for unknown ids, other services and playlists, in one videos.list', async () => {
      // Art tracks whose album the generated description names (a title with ":" is not read as one), one with several artists.
      const plain = music.filter((track) => !seedAlbums.get(track.albumKey)!.title.includes(':'));
      const a = plain.find((track) => track.artistKeys.length > 1)!;
      const [b, c] = plain.filter((track) => track !== a).slice(120, 122);
      const clipSeed = music.find((track) => fake.musicVideoId(track.key))!;
      const clip = fake.musicVideoId(clipSeed.key)!;
      const vlog = fake.uploadIds()[1]!;
      const uris = [
        uri(a),
        `https://www.youtube.com/watch?v=${clip}&list=${playlistNamed('Long').id}&index=3&t=42s`,
        `https://youtu.be/${idOf(b!)}?si=Sh4r3dL1nk`,
        `https://music.youtube.com/watch?v=${idOf(c!)}&feature=share`,
        'youtube:video:ZZZZZZZZZZZ',
        'spotify:track:4uLU6hMCjMI75M1A2tKUQC',
        `https://www.youtube.com/playlist?list=${playlistNamed('Long').id}`,
        `https://www.youtube.com/shorts/${vlog}`,
        uri(a),
      ];
      const before = fake.requests.length;
      const { tracks } = await call('lookupTracks', { uris });
      expect(tracks).toHaveLength(uris.length);
      expectArtTrack(tracks[0]!, a);
      // The official video keeps its song title and artist, and its own (longer) duration.
      expect(tracks[1]).toMatchObject({
        id: clip,
        title: clipSeed.title,
        artist: seedArtists.get(clipSeed.artistKeys[0]!)!.name,
        duration_s: Math.round(clipSeed.durationMs / 1000) + 12,
        media_type: 'video',
        is_migratable: true,
        provider_uris: { youtube: `youtube:video:${clip}` },
        provider_metadata: { video_kind: 'music_video', category_id: '10', licensed_content: true },
      });
      expectArtTrack(tracks[2]!, b!);
      expectArtTrack(tracks[3]!, c!);
      expect(tracks.slice(4, 7)).toEqual([null, null, null]);
      // An upload that is not a song is still found, marked not migratable.
      expect(tracks[7]).toMatchObject({ id: vlog, title: 'How I set up my home studio', artist: 'Bedroom Producer', duration_s: 1_265, media_type: 'video', is_migratable: false });
      expect(tracks[7]!.unsupported_reason).toContain('category 22');
      expect(tracks[8]).toEqual(tracks[0]);
      // One videos.list for the six distinct video ids, in first-seen order; nothing else was sent.
      const sent = fake.requests.slice(before);
      expect(sent.map((request) => [request.method, request.path, request.status])).toEqual([['GET', '/youtube/v3/videos', 200]]);
      expect(sent[0]!.query).toMatchObject({ part: 'snippet,contentDetails', id: [idOf(a), clip, idOf(b!), idOf(c!), 'ZZZZZZZZZZZ', vlog].join(',') });
    });

    it('asks for 50 videos in one request, and sends nothing when no URI names a YouTube video', async () => {
      const seeds = music.slice(100, 150);
      expect(seeds).toHaveLength(50);
      const before = videoLookups().length;
      const { tracks } = await call('lookupTracks', { uris: seeds.map((seed) => `https://www.youtube.com/watch?v=${idOf(seed)}`) });
      expect(tracks.map((track) => track?.provider_uris['youtube'])).toEqual(seeds.map(uri));
      expect(videoLookups().slice(before).map((request) => request.query['id']!.split(',').length)).toEqual([50]);
      const quiet = fake.requests.length;
      expect(await call('lookupTracks', { uris: ['https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC', 'https://www.youtube.com/playlist?list=PLnosuchplaylist', 'youtube:video:short'] })).toEqual({
        tracks: [null, null, null],
      });
      expect(fake.requests.length).toBe(quiet);
    });

    it('turns a quota stop, a 5xx and an expired token into the usual typed errors', async () => {
      const uris = [uri(music[3]!)];
      fake.failNext({ kind: 'quota', method: 'GET', pathPrefix: '/youtube/v3/videos' });
      const quota = await expectPluginError(call('lookupTracks', { uris }), 'RateLimited');
      expect(quota.toData().quota).toEqual({ bucket: 'default', resets_at: null });
      expect(quota.message).toContain('looking videos up by id');
      fake.failNext({ kind: 'server_error', status: 503, method: 'GET', pathPrefix: '/youtube/v3/videos' });
      await expectPluginError(call('lookupTracks', { uris }), 'ProviderError');
      fake.failNext({ kind: 'expired_token', method: 'GET', pathPrefix: '/youtube/v3/videos' });
      await expectPluginError(call('lookupTracks', { uris }), 'AuthExpired');
      expectArtTrack((await call('lookupTracks', { uris })).tracks[0]!, music[3]!);
    });
  });

  it('only reaches the API origin’s granted paths, and never hands a credential back', () => {
    for (const request of fake.requests) expect(request.path).toMatch(/^\/youtube\/v3\/(channels|playlists|playlistItems|videos|search)$/);
    const everything = `${seen.join('\n')}\n${logger.text()}`;
    expect(seen.length).toBeGreaterThan(20);
    for (const tokens of [account, other]) {
      expect(everything).not.toContain(tokens.accessToken);
      expect(everything).not.toContain(tokens.refreshToken);
    }
  });
});
