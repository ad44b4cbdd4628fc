import { beforeAll, describe, expect, it } from 'vitest';
import { PluginError, type OperationName, type Track } from '@opl/plugin-sdk';
import type { OperationCallInput } from '@opl/plugin-sdk/schemas';
import { PluginHost, type PluginCallContext } from '../../../core/plugin-host/index.ts';
import { credentialAttachments } from '../../../core/services/connections/credential-attachment.ts';
import type { FakeAccountTokens } from '../../fakes/fake-provider.ts';
import { demoLibrary, seedCatalog } from '../../fakes/seed-catalog.ts';
import { SEARCH_PARAMS, startFakeYtmusic, type FakeYtmusicServer } from '../../fakes/ytmusic/index.ts';
import { expectPluginError } from '../support/plugin-errors.ts';
import { pluginListener, readAllItems, usePluginSession } from './support/plugin-session.ts';

/**
 * The built YouTube Music plugin in the real sandbox against the fake: what the shared contract
 * does not cover — continuation paging of playlists and library grids, setVideoIds per occurrence,
 * removal of exactly one occurrence and its retry after a lost answer, ownership checks before
 * deletion and writes, video types through reads and search, uploads, episodes and greyed-out
 * entries, split and positioned adds with duplicates, the cookie session with its SAPISIDHASH,
 * every failure kind, and that no credential comes back.
 */

const PLUGIN_ID = 'opl.provider.ytmusic';
const MUSIC = 'https://music.youtube.com';
const EDIT_PATH = '/youtubei/v1/browse/edit_playlist';

let fake: FakeYtmusicServer;
let demo: FakeAccountTokens;
// Small provider pages: every list below spans several continuation pages.
const session = usePluginSession({ start: () => startFakeYtmusic({ playlistPageSize: 10, libraryPageSize: 4 }), pluginDir: 'plugins/providers/ytmusic', context: (_session, tokens) => context(tokens) });
const { seen } = session;

function context(tokens: FakeAccountTokens): PluginCallContext {
  const method = session.manifest.provider!.auth.find((auth) => auth.kind === 'OAUTH_DEVICE')!;
  return { account: { id: `acct-${tokens.userId}`, label: null }, credentials: credentialAttachments(session.manifest, method, { kind: 'token', access_token: tokens.accessToken }) };
}

const callWith = <N extends OperationName>(ctx: PluginCallContext, op: N, input: OperationCallInput<N>) => session.call(op, input, ctx);

const call = <N extends OperationName>(op: N, input: OperationCallInput<N>, tokens: FakeAccountTokens = demo) => callWith(context(tokens), op, input);

function allItems(playlistId: string, limit = 100, tokens: FakeAccountTokens = demo): Promise<Track[]> {
  return readAllItems((cursor) => call('listPlaylistItems', { playlist_id: playlistId, cursor, limit }, tokens), 100);
}

const allPages = <T>(read: (cursor: string | null) => Promise<{ items: T[]; next_cursor: string | null }>): Promise<T[]> => readAllItems(read, 100);

function playlistId(name: string, userId = demo.userId): string {
  const found = fake.playlistByName(userId, name);
  expect(found, name).not.toBeNull();
  return found!.id;
}

function editsSince(from: number) {
  return fake.requests.slice(from).filter((request) => request.path === EDIT_PATH);
}

function editActions(request: { body: string }): Record<string, unknown>[] {
  return (JSON.parse(request.body) as { actions: Record<string, unknown>[] }).actions;
}

beforeAll(() => {
  ({ fake } = session);
  demo = pluginListener(fake, demoLibrary());
});

describe('reads', () => {
  it('tests the connection as the account channel', async () => {
    expect(await call('testConnection', {})).toMatchObject({ ok: true, account_id: demo.userId, display_name: 'Plugin Listener' });
  });

  it('lists the library across grid continuations, without Liked Music, with ownership', async () => {
    const before = fake.requests.length;
    const listed = await allPages((cursor) => call('listPlaylists', { cursor, limit: 3 }));
    const names = listed.map((playlist) => playlist.name);
    for (const seed of demoLibrary().playlists!) expect(names).toContain(seed.name);
    expect(names).not.toContain('Liked Music');
    expect(new Set(listed.map((playlist) => playlist.id)).size).toBe(listed.length);
    expect(listed.find((playlist) => playlist.name === 'Friends Weekly')).toMatchObject({ is_owned: false, is_followed: true, owner_name: 'Playlist Curator' });
    expect(listed.find((playlist) => playlist.name === 'Road Trip 2024')).toMatchObject({ is_owned: true, owner_id: demo.userId, track_count: fake.playlistByName(demo.userId, 'Road Trip 2024')!.videoIds.length });
    expect(fake.requests.slice(before).some((request) => request.query['ctoken'] !== undefined && request.query['type'] === 'next')).toBe(true);
  });

  it('reads every entry in order across continuations, with setVideoIds and absolute positions', async () => {
    const id = playlistId('Big Mix');
    const view = fake.playlist(id)!;
    const before = fake.requests.length;
    const items = await allItems(id, 7);
    expect(items.map((track) => track.id)).toEqual(view.videoIds);
    expect(items.map((track) => track.source_item_id)).toEqual(view.setVideoIds);
    expect(items.map((track) => track.position)).toEqual(view.videoIds.map((_, index) => index));
    expect(fake.requests.slice(before).some((request) => typeof (JSON.parse(request.body) as { continuation?: string }).continuation === 'string')).toBe(true);
    const playlist = await call('readPlaylist', { playlist_id: id });
    expect(playlist).toMatchObject({ name: 'Big Mix', description: 'A long playlist that needs paging.', is_owned: true, track_count: view.videoIds.length, snapshot_id: null });
  });

  it('keeps video types and maps episodes, own uploads, user uploads and greyed-out entries', async () => {
    const id = playlistId('Podcasts & Bootlegs');
    const catalog = seedCatalog();
    const omvSeed = [...catalog.tracks.values()].find((track) => fake.musicVideoIdOf(track.key) !== null)!;
    const omv = fake.musicVideoIdOf(omvSeed.key)!;
    const upload = fake.uploadVideoId();
    fake.appendEntries(id, [omv, upload]);
    const greyed = fake.playlist(id)!.videoIds[0]!;
    fake.makeUnavailable(greyed);
    const items = await allItems(id);
    const byId = new Map(items.map((track) => [track.id, track]));
    expect(byId.get(fake.videoIdOf('ep0'))).toMatchObject({ media_type: 'episode', is_migratable: false, provider_metadata: { videoType: 'MUSIC_VIDEO_TYPE_PODCAST_EPISODE' } });
    expect(byId.get(fake.videoIdOf('lf0'))).toMatchObject({ media_type: 'local_file', is_local: true, is_migratable: false, provider_metadata: { videoType: 'MUSIC_VIDEO_TYPE_PRIVATELY_OWNED_TRACK' } });
    expect(byId.get(upload)).toMatchObject({ media_type: 'video', is_migratable: false, provider_metadata: { videoType: 'MUSIC_VIDEO_TYPE_UGC' } });
    expect(byId.get(upload)!.unsupported_reason).toBeTruthy();
    expect(byId.get(omv)).toMatchObject({ media_type: 'track', is_migratable: true, album: null, title: omvSeed.title, provider_metadata: { videoType: 'MUSIC_VIDEO_TYPE_OMV' } });
    expect(byId.get(greyed)).toMatchObject({ is_migratable: true, provider_metadata: { unavailable: true, videoType: 'MUSIC_VIDEO_TYPE_ATV' } });
    const audio = items.find((track) => track.provider_metadata['videoType'] === 'MUSIC_VIDEO_TYPE_ATV' && track.id !== greyed)!;
    const seed = catalog.tracks.get([...catalog.tracks.keys()].find((key) => fake.videoIdOf(key) === audio.id)!)!;
    expect(audio).toMatchObject({ title: seed.title, album: catalog.albums.get(seed.albumKey)!.title, duration_s: Math.round(seed.durationMs / 1000), explicit: seed.explicit, isrc: null });
  });

  it('reads liked music, saved albums and subscribed artists across pages', async () => {
    const liked = await allPages((cursor) => call('listLikedTracks', { cursor, limit: 9 }));
    expect(liked.map((track) => track.id)).toEqual(fake.playlist(`LM:${demo.userId}`)!.videoIds);
    expect(liked.every((track) => track.source_item_id === null)).toBe(true);
    const { albums, artists } = seedCatalog();
    const saved = await allPages((cursor) => call('listSavedAlbums', { cursor, limit: 5 }));
    expect(saved.map((album) => album.title)).toEqual(demoLibrary().savedAlbumKeys!.filter((key) => albums.get(key)!.title !== '').map((key) => albums.get(key)!.title).slice(0, saved.length));
    expect(saved.length).toBeGreaterThan(4);
    expect(saved[0]!.release_year).toBe(Number(albums.get(demoLibrary().savedAlbumKeys![0]!)!.releaseDate.slice(0, 4)));
    const followed = await allPages((cursor) => call('listFollowedArtists', { cursor, limit: 3 }));
    expect(followed.map((artist) => artist.name)).toEqual(demoLibrary().followedArtistKeys!.map((key) => artists.get(key)!.name));
  });

  it('answers an unknown or private foreign playlist with NotFound', async () => {
    await expectPluginError(call('readPlaylist', { playlist_id: 'PLdoesnotexist000000' }), 'NotFound');
    const stranger = fake.createAccount({ displayName: 'Stranger' });
    const hidden = fake.createPlaylist(stranger.userId, 'Secret', [], { privacy: 'PRIVATE' });
    await expectPluginError(call('listPlaylistItems', { playlist_id: hidden, cursor: null, limit: 10 }), 'NotFound');
  });
});

describe('search', () => {
  it('searches songs first and keeps the video type of every candidate', async () => {
    const seed = [...seedCatalog().tracks.values()].find((track) => fake.musicVideoIdOf(track.key) !== null && track.mediaType === 'track')!;
    const artist = seedCatalog().artists.get(seed.artistKeys[0]!)!.name;
    const before = fake.requests.length;
    const result = await call('searchTracks', { query: { title: seed.title, artist }, mode: 'text', limit: 5 });
    expect(result.candidates.length).toBeGreaterThan(0);
    expect(result.candidates.every((candidate) => candidate.provider_metadata['videoType'] === 'MUSIC_VIDEO_TYPE_ATV')).toBe(true);
    expect(result.candidates.map((candidate) => candidate.id)).toContain(fake.videoIdOf(seed.key));
    const searches = fake.requests.slice(before).filter((request) => request.path === '/youtubei/v1/search');
    expect(searches.map((request) => (JSON.parse(request.body) as { params: string }).params)).toEqual([SEARCH_PARAMS.songs]);
  });

  it('falls back to videos when no song matches, keeping uploads apart from official videos', async () => {
    const before = fake.requests.length;
    const result = await call('searchTracks', { query: { text: 'cover' }, mode: 'text', limit: 10 });
    expect(result.candidates.length).toBeGreaterThan(0);
    expect(result.candidates.every((candidate) => candidate.provider_metadata['videoType'] === 'MUSIC_VIDEO_TYPE_UGC' && candidate.media_type === 'video')).toBe(true);
    const params = fake.requests.slice(before).filter((request) => request.path === '/youtubei/v1/search').map((request) => (JSON.parse(request.body) as { params: string }).params);
    expect(params).toEqual([SEARCH_PARAMS.songs, SEARCH_PARAMS.videos]);
  });

  it('refuses ISRC searches: YouTube Music has no ISRCs', async () => {
    await expectPluginError(call('searchTracks', { query: { isrc: 'GBAAA0000001' }, mode: 'isrc', limit: 5 }), 'InvalidInput');
  });
});

describe('writes', () => {
  it('adds in batches of 50 with duplicates allowed, returning each new setVideoId in input order', async () => {
    const created = await call('createPlaylist', { name: 'Split <Adds>', description: 'a > b', public: false });
    expect(fake.playlist(created.playlist_id)).toMatchObject({ title: 'Split Adds', description: 'a  b', privacy: 'PRIVATE' });
    const source = fake.playlist(playlistId('Big Mix'))!.videoIds.slice(0, 30);
    const uris = [...source, ...source].map((videoId) => `https://music.youtube.com/watch?v=${videoId}`);
    const before = fake.requests.length;
    const result = await call('addTracks', { playlist_id: created.playlist_id, items: uris.map((uri) => ({ uri })) });
    expect(result.results.every((entry) => entry.ok)).toBe(true);
    const view = fake.playlist(created.playlist_id)!;
    expect(view.videoIds).toEqual([...source, ...source]);
    expect(result.results.map((entry) => entry.target_item_id)).toEqual(view.setVideoIds);
    const edits = editsSince(before);
    expect(edits.map((request) => editActions(request).length)).toEqual([50, 10]);
    expect(edits.flatMap(editActions).every((action) => action['dedupeOption'] === 'DEDUPE_OPTION_SKIP')).toBe(true);
  });

  it('inserts a block at a position by adding, then moving in front of the entry that held it', async () => {
    const id = playlistId('Late Night Focus');
    const before = fake.playlist(id)!.videoIds;
    const extra = fake.playlist(playlistId('Road Trip 2024'))!.videoIds.slice(0, 2);
    const result = await call('addTracks', { playlist_id: id, items: extra.map((videoId, offset) => ({ uri: `https://music.youtube.com/watch?v=${videoId}`, position: 2 + offset })) });
    expect(result.results.map((entry) => [entry.ok, entry.position])).toEqual([
      [true, 2],
      [true, 3],
    ]);
    expect(fake.playlist(id)!.videoIds).toEqual([...before.slice(0, 2), ...extra, ...before.slice(2)]);
  });

  it('removes exactly the occurrence named by its setVideoId, never the other copy', async () => {
    const id = playlistId('Repeat Offenders');
    const items = await allItems(id);
    const videoId = items[0]!.id!;
    const copies = items.filter((track) => track.id === videoId);
    expect(copies).toHaveLength(2);
    const [first, second] = copies;
    const result = await call('removeTracks', { playlist_id: id, items: [{ uri: second!.provider_uris['ytmusic']!, target_item_id: second!.source_item_id, position: second!.position }] });
    expect(result.results[0]).toMatchObject({ ok: true, target_item_id: second!.source_item_id });
    const after = fake.playlist(id)!;
    expect(after.setVideoIds).not.toContain(second!.source_item_id);
    expect(after.setVideoIds).toContain(first!.source_item_id);
    expect(after.videoIds.filter((value) => value === videoId)).toHaveLength(1);
    expect(after.videoIds).toHaveLength(items.length - 1);
  });

  it('retries a removal after a lost answer by sending only entries still present', async () => {
    const id = playlistId('Repeat Offenders');
    const items = await allItems(id);
    const duplicated = items.find((track, index) => items.findIndex((other) => other.id === track.id) !== index)!;
    const firstCopy = items.find((track) => track.id === duplicated.id)!;
    const other = items.find((track) => track.id !== duplicated.id)!;
    const asInput = (track: Track) => ({ uri: track.provider_uris['ytmusic']!, target_item_id: track.source_item_id, position: track.position });

    fake.failNext({ kind: 'ambiguous_write', method: 'POST', pathPrefix: EDIT_PATH });
    const lost = await expectPluginError(call('removeTracks', { playlist_id: id, items: [asInput(duplicated)] }), 'ProviderError');
    expect(lost.message).toMatch(/may or may not have been applied/);
    expect(fake.playlist(id)!.setVideoIds).not.toContain(duplicated.source_item_id);

    // The engine retries the job's whole selection: the entry already removed plus one still there.
    const before = fake.requests.length;
    const retried = await call('removeTracks', { playlist_id: id, items: [asInput(duplicated), asInput(other)] });
    expect(retried.results.every((entry) => entry.ok)).toBe(true);
    const edits = editsSince(before);
    expect(edits).toHaveLength(1);
    expect(editActions(edits[0]!)).toEqual([{ action: 'ACTION_REMOVE_VIDEO', removedVideoId: other.id, setVideoId: other.source_item_id }]);
    const after = fake.playlist(id)!;
    expect(after.setVideoIds).toContain(firstCopy.source_item_id);
    expect(after.setVideoIds).not.toContain(other.source_item_id);
    expect(after.videoIds).toHaveLength(items.length - 2);

    // A third attempt has nothing left to send and still reports success.
    const again = fake.requests.length;
    expect((await call('removeTracks', { playlist_id: id, items: [asInput(duplicated), asInput(other)] })).results.every((entry) => entry.ok)).toBe(true);
    expect(editsSince(again)).toHaveLength(0);
  });

  it('moves entries by their setVideoId, keeping them: by the caller\'s entry ids without a read, or by positions after one read', async () => {
    const id = playlistId('Road Trip 2024');
    const items = await allItems(id);
    const before = fake.playlist(id)!;
    // The last entry to the top, by the ids the caller read: one edit, no read of the playlist.
    let from = fake.requests.length;
    await call('moveTracks', { playlist_id: id, range_start: items.length - 1, insert_before: 0, item_id: items.at(-1)!.source_item_id, before_item_id: items[0]!.source_item_id });
    expect(fake.requests.slice(from).map((request) => request.path)).toEqual([EDIT_PATH]);
    expect(editActions(fake.requests.at(-1)!)).toEqual([{ action: 'ACTION_MOVE_VIDEO_BEFORE', setVideoId: items.at(-1)!.source_item_id, movedSetVideoIdSuccessor: items[0]!.source_item_id }]);
    let after = fake.playlist(id)!;
    expect(after.setVideoIds).toEqual([before.setVideoIds.at(-1), ...before.setVideoIds.slice(0, -1)]);
    // Back to the end by positions: the plugin reads the entries once, then moves without a successor.
    from = fake.requests.length;
    await call('moveTracks', { playlist_id: id, range_start: 0, insert_before: items.length });
    expect(editsSince(from)).toHaveLength(1);
    expect(editActions(editsSince(from)[0]!)).toEqual([{ action: 'ACTION_MOVE_VIDEO_BEFORE', setVideoId: before.setVideoIds.at(-1) }]);
    after = fake.playlist(id)!;
    expect(after.setVideoIds).toEqual(before.setVideoIds);
    // A stale entry id is refused by YouTube Music and nothing moves.
    await expectPluginError(call('moveTracks', { playlist_id: id, range_start: 1, insert_before: 0, item_id: 'gone-entry-id', before_item_id: items[0]!.source_item_id }), 'InvalidInput');
    await expectPluginError(call('moveTracks', { playlist_id: id, range_start: 1, insert_before: 0, item_id: items[1]!.source_item_id, before_item_id: 'gone-entry-id' }), 'InvalidInput');
    expect(fake.playlist(id)!.setVideoIds).toEqual(before.setVideoIds);
  });

  it('refuses removals without an entry id, or whose entry id names another song', async () => {
    const id = playlistId('Road Trip 2024');
    const [first, second] = await allItems(id, 5).then((items) => items.slice(0, 2));
    const result = await call('removeTracks', {
      playlist_id: id,
      items: [
        { uri: first!.provider_uris['ytmusic']!, target_item_id: null, position: null },
        { uri: first!.provider_uris['ytmusic']!, target_item_id: second!.source_item_id, position: null },
      ],
    });
    expect(result.results.map((entry) => [entry.ok, entry.error?.type])).toEqual([
      [false, 'InvalidInput'],
      [false, 'InvalidInput'],
    ]);
    expect(fake.playlist(id)!.setVideoIds.slice(0, 2)).toEqual([first!.source_item_id, second!.source_item_id]);
  });

  it('refuses to write to or delete a playlist the account does not own', async () => {
    const id = playlistId('Friends Weekly');
    const [track] = await allItems(id, 5);
    await expectPluginError(call('addTracks', { playlist_id: id, items: [{ uri: track!.provider_uris['ytmusic']! }] }), 'Unsupported');
    const before = fake.requests.length;
    const refused = await expectPluginError(call('deletePlaylist', { playlist_id: id }), 'Unsupported');
    expect(refused.message).toMatch(/owns/);
    expect(fake.playlist(id)).not.toBeNull();
    expect(fake.requests.slice(before).some((request) => request.path === '/youtubei/v1/playlist/delete')).toBe(false);
  });

  it('deletes an owned playlist after a live read', async () => {
    const created = await call('createPlaylist', { name: 'Doomed', description: null, public: true });
    await call('deletePlaylist', { playlist_id: created.playlist_id });
    expect(fake.playlist(created.playlist_id)).toBeNull();
    await expectPluginError(call('deletePlaylist', { playlist_id: created.playlist_id }), 'NotFound');
    await expectPluginError(call('deletePlaylist', { playlist_id: 'LM' }), 'Unsupported');
  });
});

describe('cookie sessions', () => {
  it('signs each request with a SAPISIDHASH of the pasted cookie and never returns the cookie', async () => {
    const cookie = fake.createCookieSession(demo.userId);
    const method = session.manifest.provider!.auth.find((auth) => auth.kind === 'HEADER_PASTE')!;
    const attachments = credentialAttachments(session.manifest, method, { kind: 'headers', headers: { cookie } });
    // The plugin must see the cookie (credential_access) to sign; see the report on credential attachment.
    const ctx: PluginCallContext = { account: { id: 'acct-cookie', label: null }, credentials: attachments.map((attachment) => ({ ...attachment, token: cookie })) };
    const before = fake.requests.length;
    const listed = await callWith(ctx, 'listPlaylists', { cursor: null, limit: 50 });
    expect(listed.items.map((playlist) => playlist.name)).toContain('Road Trip 2024');
    const sent = fake.requests.slice(before);
    expect(sent.every((request) => /^SAPISIDHASH \d+_[0-9a-f]{40}$/.test(request.headers['authorization'] ?? '') && request.headers['cookie'] === cookie)).toBe(true);
    const sapisid = /SAPISID=([^;]+)/.exec(cookie)![1]!;
    expect(JSON.stringify(listed)).not.toContain(sapisid);
    expect(seen.join('\n')).not.toContain(sapisid);
  });

  it('is refused (AuthExpired) when the cookie cannot be signed', async () => {
    const cookie = fake.createCookieSession(demo.userId);
    const ctx: PluginCallContext = { account: { id: 'acct-cookie', label: null }, credentials: [{ origin: MUSIC, headers: { cookie }, token: null }] };
    await expectPluginError(callWith(ctx, 'testConnection', {}), 'AuthExpired');
  });
});

describe('failures', () => {
  it('reports a lasting 429 and a quota answer as RateLimited with the wait', async () => {
    fake.failNext({ kind: 'rate_limit', retryAfterS: 2, times: 5 });
    expect((await expectPluginError(call('listPlaylists', { cursor: null, limit: 5 }), 'RateLimited')).toData().retry_after_s).toBe(2);
    fake.clearFailures();
    fake.failNext({ kind: 'quota', retryAfterS: 3600 });
    expect((await expectPluginError(call('testConnection', {}), 'RateLimited')).toData().retry_after_s).toBe(3600);
  });

  it('reports 5xx as ProviderError, an expired token and a missing scope as AuthExpired', async () => {
    fake.failNext({ kind: 'server_error', status: 500 });
    await expectPluginError(call('readPlaylist', { playlist_id: playlistId('Big Mix') }), 'ProviderError');
    fake.failNext({ kind: 'expired_token' });
    await expectPluginError(call('listLikedTracks', { cursor: null, limit: 5 }), 'AuthExpired');
    const narrow = fake.createAccount({ displayName: 'Narrow', scopes: ['https://www.googleapis.com/auth/youtube.readonly'] });
    await expectPluginError(call('testConnection', {}, narrow), 'AuthExpired');
    const expired = fake.createAccount({ displayName: 'Expired' });
    fake.expireAccessToken(expired.accessToken);
    await expectPluginError(call('testConnection', {}, expired), 'AuthExpired');
  });

  it('fails a lost add loudly, saying it may have been applied', async () => {
    const id = playlistId('Versions');
    const before = fake.playlist(id)!.videoIds.length;
    fake.failNext({ kind: 'ambiguous_write', method: 'POST', pathPrefix: EDIT_PATH });
    const error = await expectPluginError(call('addTracks', { playlist_id: id, items: [{ uri: `https://music.youtube.com/watch?v=${fake.playlist(id)!.videoIds[0]!}` }] }), 'ProviderError');
    expect(error.message).toMatch(/may or may not have been applied/);
    expect(fake.playlist(id)!.videoIds).toHaveLength(before + 1);
  });

  it('reports a request that never gets an answer as ProviderError', async () => {
    const quick = new PluginHost({ originOverrides: fake.originOverrides });
    await quick.start();
    try {
      await quick.load({ ...session.bundle, manifest: { ...session.bundle.manifest, limits: { ...session.bundle.manifest.limits, request_timeout_ms: 800 } } });
      fake.failNext({ kind: 'timeout' });
      const error = await quick.call(PLUGIN_ID, 'testConnection', {}, context(demo)).then(
        () => null,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(PluginError);
      expect((error as PluginError).type).toBe('ProviderError');
    } finally {
      await quick.close();
    }
  });

  it('never hands a credential back', () => {
    const everything = seen.join('\n');
    expect(seen.length).toBeGreaterThan(20);
    expect(everything).not.toContain(demo.accessToken);
    expect(everything).not.toContain(demo.refreshToken);
  });
});
