import { demoPlaylistEditor, type FailureRule, type FakeAccountTokens, type FakeProviderOptions, type FakeProviderServer, type FakeRequest, sendReply, serveFake, withDemoListener } from '../kit/index.ts';
import type { SeedLibrary } from '../seed-catalog.ts';
import { DEVICE_PAGE_ORIGIN, MUSIC_ORIGIN, OAUTH_ORIGIN, YtCatalog, type VideoType } from './ytmusic-catalog.ts';
import { API_PREFIX, InnerTube } from './ytmusic-innertube.ts';
import { DeviceFlow } from './ytmusic-oauth.ts';
import { googleError, html, MESSAGES, send, type Reply } from './ytmusic-responses.ts';
import { DEMO_CLIENT_ID, setVideoId as setVideoIdFor, YOUTUBE_SCOPE, YtState, type YtPlaylist } from './ytmusic-state.ts';

/**
 * A stateful fake of YouTube Music's InnerTube API (`https://music.youtube.com/youtubei/v1/…`) and
 * of Google's device flow (`https://oauth2.googleapis.com/device/code`, `/token`, and the
 * verification page `https://www.google.com/device`), all on one loopback port. Playlist entries
 * carry their own `setVideoId` (the same video twice is two entries), playlists are owned or not,
 * search separates songs (official audio, ATV) from videos (official videos OMV, uploads UGC), and
 * pages continue with continuation tokens. Failures follow Google's error envelope.
 *
 * Auth: bearer tokens from the device flow, or a browser cookie session (`createCookieSession`)
 * whose requests must carry `authorization: SAPISIDHASH <ts>_<sha1(ts SAPISID origin)>`.
 *
 * Demo mode: `await startFakeYtmusic({ demo: true })` seeds one "Demo Listener" with
 * `demoLibrary()`; a device code is then approved as that user at its first poll (`demoUserId`),
 * with a 2 s polling interval. The engine needs the client `opl-demo-client` (any or no secret).
 * Plain Node, prints nothing; `close()` ends every connection.
 */

export { DEMO_CLIENT_ID, YOUTUBE_SCOPE } from './ytmusic-state.ts';
export { SEARCH_PARAMS, MAX_EDIT_ACTIONS } from './ytmusic-innertube.ts';
export { sapisidHash } from './ytmusic-state.ts';

export interface FakeYtmusicOptions extends FakeProviderOptions {
  /** Access token lifetime in seconds (Google: 3600). */
  readonly tokenLifetimeS?: number;
  /** Device-flow polling interval in seconds (Google: 5). */
  readonly deviceIntervalS?: number;
  /** Entries per playlist page (YouTube Music: 100). */
  readonly playlistPageSize?: number;
  /** Tiles per library grid/shelf page. */
  readonly libraryPageSize?: number;
}

export interface FakeYtmusicPlaylistView {
  readonly id: string;
  readonly ownerId: string;
  readonly title: string;
  readonly description: string;
  readonly privacy: string;
  readonly videoIds: readonly string[];
  readonly setVideoIds: readonly string[];
}

export interface FakeYtmusicServer extends FakeProviderServer {
  readonly demoUserId: string | null;
  /** videoId of a seed recording's official audio (or its episode / upload); null when absent. */
  videoIdOf(seedKey: string): string | null;
  /** videoId of a seed recording's official music video, when it has one. */
  musicVideoIdOf(seedKey: string): string | null;
  /** A user upload's videoId. */
  uploadVideoId(): string;
  videoTypeOf(videoId: string): VideoType | null;
  playlist(id: string): FakeYtmusicPlaylistView | null;
  playlistByName(userId: string, name: string): FakeYtmusicPlaylistView | null;
  /** Creates a playlist owned by `ownerId` (not in anyone's library). */
  createPlaylist(ownerId: string, title: string, videoIds: readonly string[], options?: { privacy?: 'PRIVATE' | 'PUBLIC'; collaborative?: boolean }): string;
  /** Puts someone else's playlist into `userId`'s library (saved, not owned). */
  savePlaylist(userId: string, playlistId: string): void;
  /** Appends entries as the owner would (bypassing the API). */
  appendEntries(playlistId: string, videoIds: readonly string[]): void;
  /** Greys a video out everywhere (no longer playable). */
  makeUnavailable(videoId: string): void;
  /** A logged-in browser session's `cookie` header for `userId`. */
  createCookieSession(userId: string): string;
  revokeRefreshToken(refreshToken: string): void;
  /** Who approves on the device verification page (default: the newest account). */
  setVerificationUser(userId: string | null): void;
  /** Seconds between device-flow polls the fake demands. */
  readonly deviceIntervalS: number;
}

function view(playlist: YtPlaylist): FakeYtmusicPlaylistView {
  return {
    id: playlist.id,
    ownerId: playlist.ownerId,
    title: playlist.title,
    description: playlist.description,
    privacy: playlist.privacy,
    videoIds: playlist.entries.map((entry) => entry.videoId),
    setVideoIds: playlist.entries.map((entry) => entry.setVideoId),
  };
}

function failureReply(rule: FailureRule): Reply | null {
  switch (rule.kind) {
    case 'rate_limit':
      return googleError(429, MESSAGES.rateLimited, { 'retry-after': String(rule.retryAfterS ?? 1) });
    case 'quota':
      return googleError(429, MESSAGES.quota, { 'retry-after': String(rule.retryAfterS ?? 3600) }, 'rateLimitExceeded');
    case 'server_error': {
      const status = rule.status ?? 503;
      return googleError(status, status === 500 ? MESSAGES.internal : MESSAGES.unavailable);
    }
    case 'expired_token':
      return googleError(401, MESSAGES.unauthenticated);
    default:
      return null;
  }
}

export async function startFakeYtmusic(options: FakeYtmusicOptions = {}): Promise<FakeYtmusicServer> {
  const catalog = new YtCatalog();
  const state = new YtState(catalog);
  const tokenLifetimeS = options.tokenLifetimeS ?? 3600;
  // The demo user "approves" at once; a short interval keeps the demo's wait short.
  const deviceIntervalS = options.deviceIntervalS ?? (options.demo ? 2 : 5);
  const innertube = new InnerTube(state, { playlistPageSize: options.playlistPageSize ?? 100, libraryPageSize: options.libraryPageSize ?? 25 });
  const device = new DeviceFlow(state, { tokenLifetimeS, intervalS: deviceIntervalS, codeLifetimeS: 1800 });
  let verificationUserSet = false;

  function route(request: FakeRequest): Reply {
    const { method, path } = request;
    if (path.startsWith(API_PREFIX)) return innertube.handle(request);
    if (path === '/device/code' && method === 'POST') return device.deviceCode(request);
    if (path === '/token' && method === 'POST') return device.token(request);
    if (path === '/device' && method === 'GET') return device.page(request);
    if (path === '/device' && method === 'POST') return device.decide(request);
    return html(404, '<!doctype html><title>Not found</title><p>Not found</p>');
  }

  const shell = await serveFake({
    origins: [MUSIC_ORIGIN, OAUTH_ORIGIN, DEVICE_PAGE_ORIGIN],
    port: options.port,
    host: options.host,
    failure: (rule, _request, response) => sendReply(send, response, failureReply(rule)),
    applyLostWrite: (request) => void route(request),
    serve: (request, response) => send(response, route(request)),
  });

  const server: FakeYtmusicServer = {
    provider: 'ytmusic',
    ...shell,
    demoUserId: null,
    deviceIntervalS,
    registerClient: (client) => state.registerClient(client),
    createAccount({ displayName = 'Fake Listener', library, scopes = [YOUTUBE_SCOPE], expiresIn = tokenLifetimeS }: { displayName?: string; library?: SeedLibrary; scopes?: readonly string[]; expiresIn?: number } = {}): FakeAccountTokens {
      const user = state.createUser(displayName);
      if (library) state.seedLibrary(user, library);
      if (!verificationUserSet) device.pageUser = user.id;
      const { access, refresh } = state.issueTokens(user.id, DEMO_CLIENT_ID, [...scopes], expiresIn);
      return { userId: user.id, displayName, accessToken: access.token, refreshToken: refresh.token, expiresIn, scopes: [...scopes] };
    },
    setAuthorizeUser(userId) {
      device.autoApproveUser = userId;
    },
    setVerificationUser(userId) {
      verificationUserSet = userId !== null;
      device.pageUser = userId;
    },
    expireAccessToken: (accessToken) => state.expireAccessToken(accessToken),
    revokeRefreshToken: (refreshToken) => state.revokeRefreshToken(refreshToken),
    videoIdOf: (seedKey) => catalog.videoIdOf(seedKey),
    musicVideoIdOf: (seedKey) => catalog.musicVideoIdOf(seedKey),
    uploadVideoId: () => catalog.anyUpload().videoId,
    videoTypeOf: (videoId) => catalog.videos.get(videoId)?.videoType ?? null,
    playlist(id) {
      const playlist = state.playlists.get(id);
      return playlist ? view(playlist) : null;
    },
    playlistByName(userId, name) {
      const user = state.users.get(userId);
      const playlist = user?.playlists.map((id) => state.playlists.get(id)).find((candidate) => candidate?.title === name);
      return playlist ? view(playlist) : null;
    },
    createPlaylist(ownerId, title, videoIds, extra = {}) {
      const playlist = state.createPlaylist(ownerId, title, { videoIds, privacy: extra.privacy ?? 'PUBLIC', collaborative: extra.collaborative ?? false });
      state.users.get(ownerId)?.playlists.unshift(playlist.id);
      return playlist.id;
    },
    savePlaylist(userId, playlistId) {
      state.users.get(userId)?.playlists.unshift(playlistId);
    },
    appendEntries(playlistId, videoIds) {
      const playlist = state.playlists.get(playlistId);
      if (!playlist) throw new Error(`no playlist ${playlistId}`);
      for (const videoId of videoIds) playlist.entries.push({ setVideoId: setVideoIdFor(), videoId });
    },
    makeUnavailable(videoId) {
      state.unavailable.add(videoId);
    },
    createCookieSession: (userId) => state.createCookieSession(userId),
  };
  return withDemoListener(server, options.demo, undefined, (demoUserId) =>
    demoPlaylistEditor({
      find: (id) => {
        const playlist = state.playlists.get(id);
        return playlist?.ownerId === demoUserId && id.startsWith('PL') ? playlist : null;
      },
      entries: (playlist) => playlist.entries,
      seedKeyOf: (entry) => catalog.videos.get(entry.videoId)?.seedKey ?? null,
      // A new entry gets its own setVideoId; a moved one keeps its own, as YouTube Music does.
      newEntry(_playlist, seedKey) {
        const videoId = catalog.videoIdOf(seedKey);
        return videoId === null ? null : { setVideoId: setVideoIdFor(), videoId };
      },
      touch: () => undefined,
      // YouTube Music playlists carry no version marker: readers compare the entries.
      version: () => null,
    }),
  );
}
