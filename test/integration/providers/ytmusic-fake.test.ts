import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeAccountTokens } from '../../fakes/fake-provider.ts';
import { demoLibrary } from '../../fakes/seed-catalog.ts';
import { DEMO_CLIENT_ID, MAX_EDIT_ACTIONS, sapisidHash, startFakeYtmusic, YOUTUBE_SCOPE, type FakeYtmusicServer } from '../../fakes/ytmusic/index.ts';

/**
 * The YouTube Music fake on its own: the InnerTube rules the plugin relies on (client context,
 * bearer or SAPISIDHASH-signed cookie, atomic edits, the duplicate prompt without
 * DEDUPE_OPTION_SKIP, the edit size limit, owner-only writes, the player's ERROR status for an
 * unknown video) and Google's device flow with its pending / slow_down / denied / expired answers,
 * refresh, and the demo's automatic approval.
 */

let fake: FakeYtmusicServer;
let user: FakeAccountTokens;
const CONTEXT = { client: { clientName: 'WEB_REMIX', clientVersion: '1.20251206.01.00' } };

async function innertube(path: string, body: Record<string, unknown>, headers: Record<string, string> = { authorization: `Bearer ${user.accessToken}` }, context: unknown = CONTEXT) {
  const response = await fetch(`${fake.baseUrl}/youtubei/v1/${path}?prettyPrint=false`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ context, ...body }) });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

async function form(path: string, values: Record<string, string>) {
  const response = await fetch(`${fake.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(values).toString() });
  const text = await response.text();
  return { status: response.status, text, json: (response.headers.get('content-type') ?? '').includes('json') ? (JSON.parse(text) as Record<string, string | number>) : null };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  fake = await startFakeYtmusic({ deviceIntervalS: 1 });
  user = fake.createAccount({ displayName: 'Fake Owner', library: demoLibrary() });
  fake.registerClient({ clientId: 'tv-client.apps.googleusercontent.com', clientSecret: 'tv-secret' });
});

afterAll(async () => {
  await fake?.close();
});

describe('InnerTube', () => {
  it('wants the WEB_REMIX client context and a credential, answering in Google\'s error envelope', async () => {
    expect((await innertube('browse', { browseId: 'FEmusic_liked_playlists' }, undefined, { client: { clientName: 'WEB' } })).status).toBe(400);
    const anonymous = await innertube('browse', { browseId: 'FEmusic_liked_playlists' }, {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.json).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } });
  });

  it('accepts a cookie only with a valid SAPISIDHASH', async () => {
    const cookie = fake.createCookieSession(user.userId);
    const sapisid = /SAPISID=([^;]+)/.exec(cookie)![1]!;
    const now = Math.floor(Date.now() / 1000);
    expect((await innertube('account/account_menu', {}, { cookie, authorization: sapisidHash(sapisid, now) })).status).toBe(200);
    expect((await innertube('account/account_menu', {}, { cookie, authorization: sapisidHash('other', now) })).status).toBe(401);
    expect((await innertube('account/account_menu', {}, { cookie, authorization: sapisidHash(sapisid, now - 7200) })).status).toBe(401);
    expect((await innertube('account/account_menu', {}, { cookie })).status).toBe(401);
  });

  it('gives every occurrence its own setVideoId and asks before adding a duplicate without DEDUPE_OPTION_SKIP', async () => {
    const created = await innertube('playlist/create', { title: 'Dupes', description: '', privacyStatus: 'PRIVATE' });
    const id = created.json['playlistId'] as string;
    const video = fake.videoIdOf('tr0')!;
    const first = await innertube('browse/edit_playlist', { playlistId: id, actions: [{ action: 'ACTION_ADD_VIDEO', addedVideoId: video }] });
    expect(first.json).toMatchObject({ status: 'STATUS_SUCCEEDED' });
    const refused = await innertube('browse/edit_playlist', { playlistId: id, actions: [{ action: 'ACTION_ADD_VIDEO', addedVideoId: video }] });
    expect(refused.json).toMatchObject({ status: 'STATUS_FAILED' });
    expect(fake.playlist(id)!.videoIds).toEqual([video]);
    const allowed = await innertube('browse/edit_playlist', { playlistId: id, actions: [{ action: 'ACTION_ADD_VIDEO', addedVideoId: video, dedupeOption: 'DEDUPE_OPTION_SKIP' }] });
    const added = (allowed.json['playlistEditResults'] as { playlistEditVideoAddedResultData: { setVideoId: string } }[])[0]!.playlistEditVideoAddedResultData.setVideoId;
    const view = fake.playlist(id)!;
    expect(view.videoIds).toEqual([video, video]);
    expect(new Set(view.setVideoIds).size).toBe(2);
    expect(view.setVideoIds[1]).toBe(added);
  });

  it('applies an edit completely or not at all, and limits its size', async () => {
    const id = fake.playlistByName(user.userId, 'Late Night Focus')!.id;
    const before = fake.playlist(id)!;
    const mixed = await innertube('browse/edit_playlist', {
      playlistId: id,
      actions: [
        { action: 'ACTION_REMOVE_VIDEO', removedVideoId: before.videoIds[0], setVideoId: before.setVideoIds[0] },
        { action: 'ACTION_REMOVE_VIDEO', removedVideoId: before.videoIds[1], setVideoId: 'NOPE' },
      ],
    });
    expect(mixed.status).toBe(400);
    expect(fake.playlist(id)!.setVideoIds).toEqual(before.setVideoIds);
    const tooMany = Array.from({ length: MAX_EDIT_ACTIONS + 1 }, () => ({ action: 'ACTION_ADD_VIDEO', addedVideoId: before.videoIds[0], dedupeOption: 'DEDUPE_OPTION_SKIP' }));
    expect((await innertube('browse/edit_playlist', { playlistId: id, actions: tooMany })).json).toMatchObject({ error: { status: 'INVALID_ARGUMENT' } });
  });

  it('lets only the owner edit or delete, and tells owners by the editable header', async () => {
    const followed = fake.playlistByName(user.userId, 'Friends Weekly')!.id;
    expect((await innertube('browse/edit_playlist', { playlistId: followed, actions: [{ action: 'ACTION_SET_PLAYLIST_NAME', playlistName: 'Mine now' }] })).status).toBe(403);
    expect((await innertube('playlist/delete', { playlistId: followed })).status).toBe(403);
    const page = await innertube('browse', { browseId: `VL${followed}` });
    expect(JSON.stringify(page.json)).not.toContain('musicEditablePlaylistDetailHeaderRenderer');
    const own = await innertube('browse', { browseId: `VL${fake.playlistByName(user.userId, 'Road Trip 2024')!.id}` });
    expect(JSON.stringify(own.json)).toContain('musicEditablePlaylistDetailHeaderRenderer');
  });

  it('separates songs from videos in search', async () => {
    const songs = await innertube('search', { query: 'cover', params: 'EgWKAQIIAWoMEA4QChADEAQQCRAF' });
    expect(JSON.stringify(songs.json)).toContain('No results');
    const videos = await innertube('search', { query: 'cover', params: 'EgWKAQIQAWoMEA4QChADEAQQCRAF' });
    expect(JSON.stringify(videos.json)).toContain('MUSIC_VIDEO_TYPE_UGC');
    expect(JSON.stringify(videos.json)).not.toContain('MUSIC_VIDEO_TYPE_ATV');
  });

  it('describes one video on the player endpoint, and an unknown id as an ERROR status, not an HTTP error', async () => {
    const video = fake.videoIdOf('tr0')!;
    const found = await innertube('player', { videoId: video });
    expect(found.status).toBe(200);
    expect(found.json).toMatchObject({ playabilityStatus: { status: 'OK' }, videoDetails: { videoId: video, musicVideoType: 'MUSIC_VIDEO_TYPE_ATV', lengthSeconds: expect.stringMatching(/^\d+$/) as unknown, author: expect.stringMatching(/ - Topic$/) as unknown } });
    const unknown = await innertube('player', { videoId: 'ZZZZZZZZZZZ' });
    expect(unknown.status).toBe(200);
    expect(unknown.json).toMatchObject({ playabilityStatus: { status: 'ERROR', reason: 'Video unavailable' } });
    expect(unknown.json['videoDetails']).toBeUndefined();
    expect((await innertube('player', {})).status).toBe(400);
    expect((await innertube('player', { videoId: video }, {})).status).toBe(401);
  });
});

describe('device flow', () => {
  it('hands out codes, answers pending and slow_down, and issues tokens once the user allows', async () => {
    const started = await form('/device/code', { client_id: 'tv-client.apps.googleusercontent.com', scope: YOUTUBE_SCOPE });
    expect(started.json).toMatchObject({ verification_url: 'https://www.google.com/device', interval: 1, expires_in: 1800 });
    const deviceCode = String(started.json!['device_code']);
    const poll = () => form('/token', { client_id: 'tv-client.apps.googleusercontent.com', client_secret: 'tv-secret', device_code: deviceCode, grant_type: 'urn:ietf:params:oauth:grant-type:device_code' });
    expect(await poll()).toMatchObject({ status: 428, json: { error: 'authorization_pending' } });
    expect(await poll()).toMatchObject({ status: 403, json: { error: 'slow_down' } });
    fake.setVerificationUser(user.userId);
    const page = await fetch(`${fake.baseUrl}/device`);
    expect(await page.text()).toContain('Fake Owner');
    expect((await form('/device', { user_code: String(started.json!['user_code']), decision: 'allow' })).text).toContain('Success');
    await sleep(1_000);
    const done = await poll();
    expect(done.json).toMatchObject({ token_type: 'Bearer', scope: YOUTUBE_SCOPE, expires_in: 3600 });
    const accessToken = String(done.json!['access_token']);
    expect((await innertube('account/account_menu', {}, { authorization: `Bearer ${accessToken}` })).status).toBe(200);
    const refreshed = await form('/token', { client_id: 'tv-client.apps.googleusercontent.com', client_secret: 'tv-secret', refresh_token: String(done.json!['refresh_token']), grant_type: 'refresh_token' });
    expect(refreshed.json).toMatchObject({ token_type: 'Bearer' });
    expect(refreshed.json!['refresh_token']).toBeUndefined();
    expect((await poll()).json).toMatchObject({ error: 'invalid_grant' });
  });

  it('refuses unknown clients and wrong secrets, reports a denial, and accepts the demo client with any secret', async () => {
    expect((await form('/device/code', { client_id: 'nobody', scope: YOUTUBE_SCOPE })).json).toMatchObject({ error: 'invalid_client' });
    const started = await form('/device/code', { client_id: 'tv-client.apps.googleusercontent.com', scope: YOUTUBE_SCOPE });
    const deviceCode = String(started.json!['device_code']);
    expect((await form('/token', { client_id: 'tv-client.apps.googleusercontent.com', client_secret: 'wrong', device_code: deviceCode, grant_type: 'urn:ietf:params:oauth:grant-type:device_code' })).json).toMatchObject({ error: 'invalid_client' });
    await form('/device', { user_code: String(started.json!['user_code']), decision: 'deny' });
    expect((await form('/token', { client_id: 'tv-client.apps.googleusercontent.com', client_secret: 'tv-secret', device_code: deviceCode, grant_type: 'urn:ietf:params:oauth:grant-type:device_code' })).json).toMatchObject({ error: 'access_denied' });
    expect((await form('/device/code', { client_id: DEMO_CLIENT_ID, scope: YOUTUBE_SCOPE })).status).toBe(200);
  });
});

describe('demo mode', () => {
  it('seeds the demo library and approves a device code as the demo user at its first poll', async () => {
    const demo = await startFakeYtmusic({ demo: true, deviceIntervalS: 1 });
    try {
      expect(demo.demoUserId).toBeTruthy();
      expect(demo.playlistByName(demo.demoUserId!, 'Road Trip 2024')!.videoIds.length).toBeGreaterThan(30);
      const post = async (path: string, values: Record<string, string>) => {
        const response = await fetch(`${demo.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(values).toString() });
        return (await response.json()) as Record<string, string>;
      };
      const started = await post('/device/code', { client_id: DEMO_CLIENT_ID, scope: YOUTUBE_SCOPE });
      const poll = () => post('/token', { client_id: DEMO_CLIENT_ID, client_secret: 'anything', device_code: started['device_code']!, grant_type: 'urn:ietf:params:oauth:grant-type:device_code' });
      expect(await poll()).toMatchObject({ error: 'authorization_pending' });
      await sleep(1_000);
      const tokens = await poll();
      expect(tokens['access_token']).toBeTruthy();
      const menu = await fetch(`${demo.baseUrl}/youtubei/v1/account/account_menu`, { method: 'POST', headers: { authorization: `Bearer ${tokens['access_token']}` }, body: JSON.stringify({ context: CONTEXT }) });
      expect(JSON.stringify(await menu.json())).toContain('Demo Listener');
    } finally {
      await demo.close();
    }
  });
});
