import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAppleMusic, type FakeAppleMusic } from '../../fakes/applemusic/index.ts';
import { startFakeDeezer, type FakeDeezerServer } from '../../fakes/deezer/index.ts';
import type { FakeAccountTokens } from '../../fakes/fake-provider.ts';
import { isAvailableOn, seedCatalog } from '../../fakes/seed-catalog.ts';
import { startFakeYoutube, type FakeYoutube } from '../../fakes/youtube/index.ts';
import { connectByRedirect } from '../migrations/migration-harness.ts';
import { firstPartyPlugins } from '../support/first-party-plugins.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { organizerClient } from './organizer-harness.ts';

/**
 * The provider table's remaining rows through HTTP against the fakes: Deezer (safe removal of
 * others' playlists from the favourites, deletion on a live read of the creator, song removal by
 * track id), the YouTube Data API (deletion for playlists of `mine=true`, song removal by playlist
 * item id) and Apple Music (nothing: every action is refused with its reason, and nothing is sent).
 */

const YOUTUBE_CLIENT = { client_id: 'opl-test-client', client_secret: 'opl-test-secret' };
const catalog = seedCatalog();
const tracksOn = (provider: string) => [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, provider)).map((track) => track.key);
const dz = tracksOn('deezer');
const yt = tracksOn('youtube');
const am = tracksOn('applemusic');

let deezer: FakeDeezerServer;
let youtube: FakeYoutube;
let apple: FakeAppleMusic;
let deezerUser: FakeAccountTokens;
let youtubeUser: FakeAccountTokens;
let appleUser: FakeAccountTokens;
let plugins: Awaited<ReturnType<typeof firstPartyPlugins>>;
let app: TestApp;
let baseUrl = '';
let deezerAccount = '';
let youtubeAccount = '';
let appleAccount = '';

async function api(path: string, init: RequestInit = {}): Promise<{ status: number; json: unknown; text: string }> {
  const response = await fetch(`${baseUrl}${path}`, { ...init, headers: { ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers } });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: response.status, json, text };
}
const client = organizerClient({ api: api as never });

interface ListedRow {
  id: string;
  name: string;
  relation: string;
  actions: Record<string, { available: boolean; reason: string | null }>;
}

async function listed(accountId: string): Promise<ListedRow[]> {
  const answer = await client.playlists(accountId);
  expect(answer.status, answer.text).toBe(200);
  return (answer.json as { playlists: ListedRow[] }).playlists;
}

/** The playlist's entries as the engine reads them: the URI and entry id a client sends back. */
async function entriesOf(accountId: string, provider: string, playlistId: string): Promise<{ uri: string; entry_id: string | null }[]> {
  const answer = await api(`/api/playlists/${encodeURIComponent(playlistId)}?account_id=${accountId}&refresh=true`);
  expect(answer.status, answer.text).toBe(200);
  const tracks = (answer.json as { playlist: { tracks: { provider_uris: Record<string, string>; source_item_id: string | null }[] } }).playlist.tracks;
  return tracks.map((track) => ({ uri: track.provider_uris[provider]!, entry_id: track.source_item_id }));
}

beforeAll(async () => {
  deezer = await startFakeDeezer();
  youtube = await startFakeYoutube();
  apple = await startFakeAppleMusic();
  youtube.registerClient({ clientId: YOUTUBE_CLIENT.client_id, clientSecret: YOUTUBE_CLIENT.client_secret });
  deezerUser = deezer.createAccount({
    displayName: 'Deezer Organizer',
    library: {
      playlists: [
        { name: 'Deezer Drafts', trackKeys: [dz[0]!, dz[1]!] },
        { name: 'Deezer Trim', trackKeys: [dz[2]!, dz[3]!, dz[4]!, dz[5]!] },
        { name: 'Deezer Flaky', trackKeys: [dz[6]!, dz[7]!, dz[8]!] },
      ],
      followed: [{ name: 'Editor Picks', trackKeys: [dz[9]!] }, { name: 'Editor Busy', trackKeys: [dz[10]!] }],
    },
  });
  deezer.setAuthorizeUser(deezerUser.userId);
  youtubeUser = youtube.createAccount({
    displayName: 'YouTube Organizer',
    library: {
      playlists: [
        { name: 'Video Drafts', trackKeys: [yt[0]!] },
        { name: 'Video Repeats', trackKeys: [yt[1]!, yt[2]!, yt[1]!, yt[3]!] },
        { name: 'Video Flaky', trackKeys: [yt[4]!, yt[5]!] },
      ],
      followed: [{ name: 'Public Channel Mix', trackKeys: [yt[6]!], public: true }],
    },
  });
  youtube.setAuthorizeUser(youtubeUser.userId);
  appleUser = apple.createAccount({ displayName: 'Apple Organizer', library: { playlists: [{ name: 'Apple Keeps', trackKeys: [am[0]!, am[1]!, am[0]!] }] } });
  plugins = await firstPartyPlugins();
  app = await startTestApp(plugins.env, { http: true, worker: true }, {
    providerOriginOverrides: { ...deezer.originOverrides, ...youtube.originOverrides, ...apple.originOverrides },
    providerClients: { deezer: { client_id: 'opl-demo-client' }, youtube: YOUTUBE_CLIENT, applemusic: { developer_key: apple.developerKey } },
  });
  const address = app.app.http!.server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  deezerAccount = await connectByRedirect(baseUrl, 'deezer');
  youtubeAccount = await connectByRedirect(baseUrl, 'youtube');
  const begin = await api('/api/auth/applemusic/begin', { method: 'POST', body: '{}' });
  const completed = await api('/api/auth/applemusic/complete', { method: 'POST', body: JSON.stringify({ state: (begin.json as { state: string }).state, values: { music_user_token: appleUser.accessToken } }) });
  expect(completed.status, completed.text).toBe(200);
  appleAccount = (completed.json as { account: { id: string } }).account.id;
}, 300_000);

afterAll(async () => {
  await app?.close();
  await plugins?.remove();
  await deezer?.close();
  await youtube?.close();
  await apple?.close();
});

describe('Deezer', () => {
  const own = (title: string) => deezer.playlistByTitle(deezerUser.userId, title)!;
  const favourites = () => deezer.library(deezerUser.userId)!.playlists;
  const rowNamed = async (name: string) => (await listed(deezerAccount)).find((row) => row.name === name)!;

  it('lists its own playlists as owned and the editor’s as followed, with what each allows', async () => {
    const rows = await listed(deezerAccount);
    const drafts = rows.find((row) => row.name === 'Deezer Drafts')!;
    const picks = rows.find((row) => row.name === 'Editor Picks')!;
    expect(drafts.relation).toBe('owned');
    expect(drafts.actions['unfollow_playlist']!.available).toBe(false);
    expect(drafts.actions['delete_playlist']!.available).toBe(true);
    expect(drafts.actions['remove_tracks']!.available).toBe(true);
    expect(picks.relation).toBe('followed');
    expect(picks.actions['unfollow_playlist']!.available).toBe(true);
    expect(picks.actions['delete_playlist']!.available).toBe(false);
    expect(picks.actions['remove_tracks']!.available).toBe(false);
  });

  it('removes a followed playlist from the favourites only; the playlist itself stays', async () => {
    const picks = await rowNamed('Editor Picks');
    const { preflight, job } = await client.run({ account_id: deezerAccount, action: 'unfollow_playlist', playlist_ids: [picks.id] });
    expect(preflight.playlists[0]!.effect).toBeTruthy();
    expect(job.status, JSON.stringify(job)).toBe('completed');
    expect(favourites()).not.toContain(picks.id);
    expect(deezer.playlist(picks.id)).not.toBeNull();
    expect(deezer.requests.filter((request) => request.method === 'DELETE' && request.path === `/playlist/${picks.id}`)).toEqual([]);
  });

  it('refuses to delete a playlist the account did not create, and to remove an owned one only from the library', async () => {
    const busy = await rowNamed('Editor Busy');
    const deleting = await client.preflight({ account_id: deezerAccount, action: 'delete_playlist', playlist_ids: [busy.id] });
    expect(deleting.status).toBe(422);
    expect(deleting.json).toMatchObject({ code: 'organizer_unsupported' });
    const drafts = own('Deezer Drafts');
    const unfollowing = await client.preflight({ account_id: deezerAccount, action: 'unfollow_playlist', playlist_ids: [drafts.id] });
    expect(unfollowing.status).toBe(422);
    expect(deezer.playlist(busy.id)).not.toBeNull();
    expect(favourites()).toContain(busy.id);
    expect(favourites()).toContain(drafts.id);
  });

  it('deletes an owned playlist after a live read shows the account created it, with its name typed', async () => {
    const drafts = own('Deezer Drafts');
    const preflight = await client.preflightOk({ account_id: deezerAccount, action: 'delete_playlist', playlist_ids: [drafts.id] });
    expect(preflight.confirmation_phrase).toBe('Deezer Drafts');
    expect(preflight.playlists[0]!.ownership).toMatchObject({ check: 'live_read' });
    const wrong = await client.createJob({ preflight_token: preflight.token, confirmation: 'deezer drafts' });
    expect(wrong.status).toBe(422);
    expect(deezer.playlist(drafts.id)).not.toBeNull();
    const started = await client.createJob({ preflight_token: preflight.token, confirmation: 'Deezer Drafts' });
    expect(started.status, started.text).toBe(202);
    const job = await client.waitForJob((started.json as { id: string }).id);
    expect(job.status, JSON.stringify(job)).toBe('completed');
    expect(deezer.playlist(drafts.id)).toBeNull();
  });

  it('removes songs by track id, through Deezer’s quota answer (retried by itself)', async () => {
    const trim = own('Deezer Trim');
    const entries = await entriesOf(deezerAccount, 'deezer', trim.id);
    deezer.failNextWithError('quota', { method: 'DELETE', pathPrefix: `/playlist/${trim.id}/tracks` });
    const { job } = await client.run({ account_id: deezerAccount, action: 'remove_tracks', playlist_id: trim.id, entries: [{ position: 1, ...entries[1]! }, { position: 3, ...entries[3]! }] });
    expect(job.status, JSON.stringify(job)).toBe('completed');
    expect(own('Deezer Trim').trackIds).toEqual([trim.trackIds[0], trim.trackIds[2]]);
    expect(job.items[0]!.removed_entries).toEqual([expect.objectContaining({ position: 1, uri: entries[1]!.uri }), expect.objectContaining({ position: 3, uri: entries[3]!.uri })]);
    // Deezer's quota answer was met once and the call repeated; one removal went through.
    expect(deezer.requests.filter((request) => request.method === 'DELETE' && request.path === `/playlist/${trim.id}/tracks`).length).toBeGreaterThanOrEqual(2);
  });

  it('leaves a removal Deezer answered with 5xx retryable, and the retry removes it once', async () => {
    const flaky = own('Deezer Flaky');
    const entries = await entriesOf(deezerAccount, 'deezer', flaky.id);
    deezer.failNext({ kind: 'server_error', status: 503, method: 'DELETE', pathPrefix: `/playlist/${flaky.id}/tracks`, times: 20 });
    const { job } = await client.run({ account_id: deezerAccount, action: 'remove_tracks', playlist_id: flaky.id, entries: [{ position: 0, ...entries[0]! }] });
    expect(job.status).toBe('failed');
    expect(job.items[0]).toMatchObject({ status: 'failed', retryable: true });
    expect(own('Deezer Flaky').trackIds).toEqual(flaky.trackIds);
    deezer.clearFailures();
    const retried = await client.retry(job.id);
    expect(retried.status, retried.text).toBe(202);
    expect((await client.waitForJob(job.id)).status).toBe('completed');
    expect(own('Deezer Flaky').trackIds).toEqual(flaky.trackIds.slice(1));
  });
});

describe('the YouTube Data API', () => {
  const own = (title: string) => youtube.playlistsOf(youtubeUser.userId).find((playlist) => playlist.title === title)!;
  const writes = () => youtube.requests.filter((request) => request.method !== 'GET');

  it('offers no safe removal and says why; lists its own playlists as owned', async () => {
    const rows = await listed(youtubeAccount);
    const drafts = rows.find((row) => row.name === 'Video Drafts')!;
    expect(drafts.relation).toBe('owned');
    expect(drafts.actions['unfollow_playlist']).toMatchObject({ available: false, reason: expect.stringMatching(/no operation/) });
    expect(drafts.actions['delete_playlist']!.available).toBe(true);
    expect(drafts.actions['remove_tracks']!.available).toBe(true);
    const answer = await client.preflight({ account_id: youtubeAccount, action: 'unfollow_playlist', playlist_ids: [drafts.id] });
    expect(answer.status).toBe(422);
    expect((answer.json as { detail: string }).detail).toMatch(/no operation/);
  });

  it('refuses to delete another channel’s public playlist, which is not in the account’s own listing', async () => {
    const other = [...youtube.state.playlists.values()].find((playlist) => playlist.title === 'Public Channel Mix')!;
    const before = writes().length;
    const answer = await client.preflight({ account_id: youtubeAccount, action: 'delete_playlist', playlist_ids: [other.id] });
    expect(answer.status).toBe(422);
    expect(answer.json).toMatchObject({ code: 'organizer_unsupported' });
    expect(youtube.state.playlists.has(other.id)).toBe(true);
    expect(writes()).toHaveLength(before);
  });

  it('deletes a playlist of `mine=true` with its name typed, through a 429 with Retry-After', async () => {
    const drafts = own('Video Drafts');
    youtube.failNext({ kind: 'rate_limit', method: 'DELETE', pathPrefix: '/youtube/v3/playlists', retryAfterS: 1 });
    const { preflight, job } = await client.run({ account_id: youtubeAccount, action: 'delete_playlist', playlist_ids: [drafts.id] });
    expect(preflight.playlists[0]!.ownership).toMatchObject({ check: 'owner_filtered_listing' });
    expect(job.status, JSON.stringify(job)).toBe('completed');
    expect(youtube.state.playlists.has(drafts.id)).toBe(false);
  });

  it('removes exactly the chosen occurrence by its playlist item id; the other copy stays', async () => {
    const repeats = own('Video Repeats');
    const before = repeats.items.map((item) => ({ ...item }));
    const entries = await entriesOf(youtubeAccount, 'youtube', repeats.id);
    expect(entries.map((entry) => entry.entry_id)).toEqual(before.map((item) => item.id));
    const { preflight, job } = await client.run({ account_id: youtubeAccount, action: 'remove_tracks', playlist_id: repeats.id, entries: [{ position: 2, ...entries[2]! }] });
    expect(preflight.playlists[0]!.warnings).toContainEqual(expect.objectContaining({ code: 'unselected_copies_stay', positions: [0] }));
    expect(job.status, JSON.stringify(job)).toBe('completed');
    expect(own('Video Repeats').items.map((item) => item.id)).toEqual([before[0]!.id, before[1]!.id, before[3]!.id]);
    const deletes = youtube.requests.filter((request) => request.method === 'DELETE' && request.path.startsWith('/youtube/v3/playlistItems'));
    expect(deletes).toHaveLength(1);
  });

  it('refuses an entry id that is not the entry at that position, removing nothing', async () => {
    const repeats = own('Video Repeats');
    const entries = await entriesOf(youtubeAccount, 'youtube', repeats.id);
    const answer = await client.preflight({ account_id: youtubeAccount, action: 'remove_tracks', playlist_id: repeats.id, entries: [{ position: 0, uri: entries[0]!.uri, entry_id: entries[1]!.entry_id }] });
    expect(answer.status).toBe(422);
    expect(own('Video Repeats').items).toHaveLength(3);
  });

  it('leaves a removal answered with 5xx retryable, and the retry removes it once', async () => {
    const flaky = own('Video Flaky');
    const ids = flaky.items.map((item) => item.id);
    const entries = await entriesOf(youtubeAccount, 'youtube', flaky.id);
    youtube.failNext({ kind: 'server_error', status: 503, method: 'DELETE', pathPrefix: '/youtube/v3/playlistItems', times: 20 });
    const { job } = await client.run({ account_id: youtubeAccount, action: 'remove_tracks', playlist_id: flaky.id, entries: [{ position: 1, ...entries[1]! }] });
    expect(job.status).toBe('failed');
    expect(job.items[0]).toMatchObject({ status: 'failed', retryable: true });
    expect(own('Video Flaky').items.map((item) => item.id)).toEqual(ids);
    youtube.clearFailures();
    expect((await client.retry(job.id)).status).toBe(202);
    expect((await client.waitForJob(job.id)).status).toBe('completed');
    expect(own('Video Flaky').items.map((item) => item.id)).toEqual([ids[0]]);
  });
});

describe('Apple Music', () => {
  it('lists every action as unavailable with its reason', async () => {
    const keeps = (await listed(appleAccount)).find((row) => row.name === 'Apple Keeps')!;
    expect(keeps.actions['unfollow_playlist']).toMatchObject({ available: false, reason: expect.stringMatching(/no way to remove a playlist from the library/) });
    expect(keeps.actions['delete_playlist']).toMatchObject({ available: false, reason: expect.stringMatching(/no way to delete a playlist/) });
    expect(keeps.actions['remove_tracks']).toMatchObject({ available: false, reason: expect.stringMatching(/no way to remove songs/) });
  });

  it('refuses every action with its reason, and nothing but reads reaches Apple', async () => {
    const keeps = apple.playlistsOf(appleUser.userId).find((playlist) => playlist.name === 'Apple Keeps')!;
    const songs = apple.playlistCatalogIds(keeps.id);
    const entries = await entriesOf(appleAccount, 'applemusic', keeps.id);
    const attempts = [
      { body: { account_id: appleAccount, action: 'unfollow_playlist', playlist_ids: [keeps.id] }, reason: /no way to remove a playlist from the library/ },
      { body: { account_id: appleAccount, action: 'delete_playlist', playlist_ids: [keeps.id] }, reason: /no way to delete a playlist/ },
      { body: { account_id: appleAccount, action: 'remove_tracks', playlist_id: keeps.id, entries: [{ position: 2, uri: entries[2]!.uri, entry_id: entries[2]!.entry_id }] }, reason: /no way to remove songs/ },
    ];
    for (const attempt of attempts) {
      const answer = await client.preflight(attempt.body);
      expect(answer.status, answer.text).toBe(422);
      expect(answer.json).toMatchObject({ code: 'organizer_unsupported' });
      expect((answer.json as { detail: string }).detail).toMatch(attempt.reason);
    }
    expect(apple.requests.filter((request) => request.method !== 'GET')).toEqual([]);
    expect(apple.playlistCatalogIds(keeps.id)).toEqual(songs);
  });
});
