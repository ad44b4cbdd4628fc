import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Manifest, type Track } from '@opl/plugin-sdk';
import { PluginHost, type PluginCallContext } from '../../../core/plugin-host/index.ts';
import { credentialAttachments } from '../../../core/services/connections/credential-attachment.ts';
import type { FakeAccountTokens } from '../../fakes/fake-provider.ts';
import { isAvailableOn, seedCatalog, type SeedTrack } from '../../fakes/seed-catalog.ts';
import { startFakeYtmusic, type FakeYtmusicServer } from '../../fakes/ytmusic/index.ts';
import { channelIdOf } from '../../fakes/ytmusic/ytmusic-catalog.ts';
import { buildPluginBundle } from '../support/build-plugin.ts';
import { expectPluginError } from '../support/plugin-errors.ts';

/**
 * `lookupTracks` of the built YouTube Music plugin in the real sandbox against the fake's `player`
 * endpoint: one answer per URI in order, each distinct video read once, links and the plugin's
 * own URIs alike, null for unknown videos and (without a request) for anything that is not a
 * video, the video types mapped as playlist entries are, and the usual typed failures.
 */

const PLUGIN_ID = 'opl.provider.ytmusic';
const PLAYER_PATH = '/youtubei/v1/player';
const { tracks: seedTracks, artists: seedArtists } = seedCatalog();
const music = [...seedTracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'ytmusic'));
const watch = (videoId: string) => `https://music.youtube.com/watch?v=${videoId}`;

let fake: FakeYtmusicServer;
let host: PluginHost;
let manifest: Manifest;
let listener: FakeAccountTokens;

function context(tokens: FakeAccountTokens): PluginCallContext {
  const method = manifest.provider!.auth.find((auth) => auth.kind === 'OAUTH_DEVICE')!;
  return { account: { id: `acct-${tokens.userId}`, label: null }, credentials: credentialAttachments(manifest, method, { kind: 'token', access_token: tokens.accessToken }) };
}

const lookup = (uris: string[], tokens: FakeAccountTokens = listener) => host.call(PLUGIN_ID, 'lookupTracks', { uris }, context(tokens));

/** The videoIds the player was asked for since `from`, in order. */
function playerReadsSince(from: number): string[] {
  return fake.requests
    .slice(from)
    .filter((request) => request.path === PLAYER_PATH)
    .map((request) => (JSON.parse(request.body) as { videoId: string }).videoId);
}

function audioOf(seed: SeedTrack): string {
  const videoId = fake.videoIdOf(seed.key);
  expect(videoId, seed.key).not.toBeNull();
  return videoId!;
}

/** An Art Track as the player describes it: its primary artist only (no " - Topic"), no album. */
function expectArtTrack(track: Track | null, seed: SeedTrack) {
  const videoId = audioOf(seed);
  const primary = seedArtists.get(seed.artistKeys[0]!)!.name;
  expect(track, seed.key).toMatchObject({
    id: videoId,
    title: seed.title,
    artist: primary,
    artists: [primary],
    album: null,
    duration_s: Math.round(seed.durationMs / 1000),
    isrc: null,
    explicit: null,
    media_type: 'track',
    is_local: false,
    is_migratable: true,
    unsupported_reason: null,
    artwork_uri: `https://i.ytimg.com/vi/${videoId}/maxresdefault.jpg`,
    provider_uris: { ytmusic: watch(videoId) },
    position: null,
    source_item_id: null,
    provider_metadata: { videoType: 'MUSIC_VIDEO_TYPE_ATV', artistChannelIds: [channelIdOf(seed.artistKeys[0]!)] },
  });
}

beforeAll(async () => {
  fake = await startFakeYtmusic();
  const bundle = await buildPluginBundle('plugins/providers/ytmusic');
  manifest = bundle.manifest;
  host = new PluginHost({ originOverrides: fake.originOverrides });
  await host.start();
  await host.load(bundle);
  listener = fake.createAccount({ displayName: 'Lookup Listener' });
});

afterAll(async () => {
  await host?.close();
  await fake?.close();
});

describe('lookupTracks', () => {
  it('answers every URI in order, links and URIs alike, reading each distinct video once', async () => {
    const several = music.find((track) => track.artistKeys.length > 1)!;
    const [b, c] = music.filter((track) => track !== several).slice(10, 12);
    const clipSeed = music.find((track) => fake.musicVideoIdOf(track.key) !== null)!;
    const clip = fake.musicVideoIdOf(clipSeed.key)!;
    const a = audioOf(several);
    const uris = [
      watch(a),
      `https://music.youtube.com/watch?v=${clip}&list=RDAMVM${clip}&si=Sh4r3dL1nk`,
      `https://www.youtube.com/watch?v=${audioOf(b!)}`,
      `https://youtu.be/${audioOf(c!)}?si=x`,
      watch('ZZZZZZZZZZZ'),
      'spotify:track:4uLU6hMCjMI75M1A2tKUQC',
      `youtube:video:${a}`,
      'https://music.youtube.com/playlist?list=PLnosuchplaylist',
      'https://www.deezer.com/track/3135556',
      `https://music.youtube.com/watch?v=${a}&feature=share`,
    ];
    const before = fake.requests.length;
    const { tracks } = await lookup(uris);
    expect(tracks).toHaveLength(uris.length);
    expectArtTrack(tracks[0]!, several);
    // An official music video is a release: migratable, kept apart by its video type.
    expect(tracks[1]).toMatchObject({ id: clip, title: clipSeed.title, artist: seedArtists.get(clipSeed.artistKeys[0]!)!.name, album: null, media_type: 'track', is_migratable: true, provider_uris: { ytmusic: watch(clip) }, provider_metadata: { videoType: 'MUSIC_VIDEO_TYPE_OMV' } });
    expectArtTrack(tracks[2]!, b!);
    expectArtTrack(tracks[3]!, c!);
    expect(tracks.slice(4, 9)).toEqual([null, null, null, null, null]);
    expect(tracks[9]).toEqual(tracks[0]);
    // One player read per distinct video, in first-seen order; nothing for the URIs that name none.
    expect(playerReadsSince(before)).toEqual([a, clip, audioOf(b!), audioOf(c!), 'ZZZZZZZZZZZ']);
    const sent = fake.requests.slice(before);
    expect(sent.every((request) => request.method === 'POST' && request.path === PLAYER_PATH && request.status === 200)).toBe(true);
    expect(JSON.parse(sent[0]!.body)).toEqual({ context: expect.objectContaining({ client: expect.objectContaining({ clientName: 'WEB_REMIX' }) }) as unknown, videoId: a });
  });

  it('sends nothing when no URI names a video', async () => {
    const before = fake.requests.length;
    expect(await lookup(['https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC', 'https://music.youtube.com/channel/UCaaaaaaaaaaaaaaaaaaaaaa', 'https://youtu.be/short'])).toEqual({ tracks: [null, null, null] });
    expect(fake.requests.length).toBe(before);
  });

  it('answers uploads as not migratable and a greyed-out song as unavailable but migratable', async () => {
    const upload = fake.uploadVideoId();
    const greyedSeed = music[40]!;
    const greyed = audioOf(greyedSeed);
    fake.makeUnavailable(greyed);
    const { tracks } = await lookup([watch(upload), watch(greyed)]);
    expect(tracks[0]).toMatchObject({ id: upload, media_type: 'video', is_migratable: false, provider_metadata: { videoType: 'MUSIC_VIDEO_TYPE_UGC' } });
    expect(tracks[0]!.unsupported_reason).toMatch(/user-uploaded video/);
    expect(tracks[0]!.artist).not.toMatch(/Topic/);
    expect(tracks[1]).toMatchObject({ id: greyed, title: greyedSeed.title, is_migratable: true, provider_metadata: { unavailable: true, videoType: 'MUSIC_VIDEO_TYPE_ATV' } });
  });

  it('turns a 429, an expired sign-in and a 503 into the usual typed errors', async () => {
    const uris = [watch(audioOf(music[3]!))];
    // A wait longer than the host's own 429 retries cover comes back to the plugin at once.
    fake.failNext({ kind: 'rate_limit', retryAfterS: 120, method: 'POST', pathPrefix: PLAYER_PATH });
    const limited = await expectPluginError(lookup(uris), 'RateLimited');
    expect(limited.toData().retry_after_s).toBe(120);
    expect(limited.message).toContain('looking up a song');
    fake.failNext({ kind: 'expired_token', method: 'POST', pathPrefix: PLAYER_PATH });
    await expectPluginError(lookup(uris), 'AuthExpired');
    fake.failNext({ kind: 'server_error', status: 503, method: 'POST', pathPrefix: PLAYER_PATH });
    await expectPluginError(lookup(uris), 'ProviderError');
    const expired = fake.createAccount({ displayName: 'Expired' });
    fake.expireAccessToken(expired.accessToken);
    await expectPluginError(lookup(uris, expired), 'AuthExpired');
    expectArtTrack((await lookup(uris)).tracks[0]!, music[3]!);
  });

  it('stops at the first failure, asking nothing more', async () => {
    const [first, second] = [audioOf(music[5]!), audioOf(music[6]!)];
    fake.failNext({ kind: 'server_error', status: 503, method: 'POST', pathPrefix: PLAYER_PATH });
    // The first read takes the failure; the second is never asked.
    const before = fake.requests.length;
    await expectPluginError(lookup([watch(first), watch(second)]), 'ProviderError');
    expect(playerReadsSince(before)).toEqual([first]);
  });
});
