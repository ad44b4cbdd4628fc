import { demoPlaylistEditor, type FailureRule, type FakeAccountTokens, type FakeProviderOptions, type FakeProviderServer, type FakeRequest, sendReply, serveFake, withDemoListener } from '../kit/index.ts';
import type { SeedLibrary } from '../seed-catalog.ts';
import { SpotifyApi } from './spotify-api.ts';
import { ACCOUNTS_ORIGIN, API_ORIGIN, SpotifyCatalog } from './spotify-catalog.ts';
import { SPOTIFY_PLUGIN_SCOPES, SpotifyOAuth } from './spotify-oauth.ts';
import { apiError, html, MESSAGES, send, serverErrorMessage, type Reply } from './spotify-responses.ts';
import { DEMO_CLIENT_ID, SpotifyState, type FakePlaylist } from './spotify-state.ts';

/**
 * A stateful fake of Spotify (Web API on `https://api.spotify.com` and the accounts service on
 * `https://accounts.spotify.com`, both on one loopback port: their paths do not collide). It
 * follows the published Web API description of February 2026 — playlist contents under
 * `/playlists/{id}/items`, the generic `/me/library` endpoint — including its limits (100 items per
 * playlist write, 40 URIs per library call, search `limit` ≤ 10, page `limit` ≤ 50) and failures.
 *
 * Demo mode: `await startFakeSpotify({ demo: true })` seeds one "Demo Listener" with
 * `demoLibrary()` and makes the authorize page approve at once as that user (`demoUserId`). Plain
 * Node, prints nothing; `close()` ends every connection.
 */

export { DEMO_CLIENT_ID } from './spotify-state.ts';

export { SPOTIFY_PLUGIN_SCOPES } from './spotify-oauth.ts';

export interface FakeSpotifyOptions extends FakeProviderOptions {
  /** Access token lifetime in seconds (default 3600, as Spotify). */
  readonly tokenLifetimeS?: number;
  /** Refresh answers include a new refresh token (default true). */
  readonly rotateRefreshTokens?: boolean;
  /** A rotated refresh token stops working (default false). */
  readonly revokeRotatedRefreshTokens?: boolean;
}

/** What tests read back from a playlist without going through the API. */
export interface FakeSpotifyPlaylistView {
  readonly id: string;
  readonly ownerId: string;
  readonly name: string;
  readonly description: string;
  readonly public: boolean;
  readonly collaborative: boolean;
  readonly snapshotId: string;
  readonly uris: readonly string[];
}

export interface FakeSpotifyServer extends FakeProviderServer {
  /** The demo user's id when started with `demo: true`. */
  readonly demoUserId: string | null;
  /** `spotify:track:…` (or episode/local URI) of a seed recording; null when Spotify lacks it. */
  uriOf(seedKey: string): string | null;
  /** Spotify album id of a seed album. */
  albumIdOf(seedKey: string): string;
  /** Spotify artist id of a seed artist. */
  artistIdOf(seedKey: string): string;
  playlist(id: string): FakeSpotifyPlaylistView | null;
  /** A playlist in `userId`'s library by name. */
  playlistByName(userId: string, name: string): FakeSpotifyPlaylistView | null;
  /** Library contents of a user (liked track URIs, saved album ids, followed artist ids, playlist ids). */
  library(userId: string): { liked: string[]; savedAlbums: string[]; followedArtists: string[]; playlists: string[] } | null;
  /** Invalidates a refresh token, as when the user removes the app's access. */
  revokeRefreshToken(refreshToken: string): void;
  /** The user removes the app's access: every access and refresh token issued to them so far stops working. */
  revokeUser(userId: string): void;
}

function view(playlist: FakePlaylist): FakeSpotifyPlaylistView {
  return {
    id: playlist.id,
    ownerId: playlist.ownerId,
    name: playlist.name,
    description: playlist.description,
    public: playlist.public,
    collaborative: playlist.collaborative,
    snapshotId: playlist.snapshotId,
    uris: playlist.entries.map((entry) => entry.uri),
  };
}

function failureReply(rule: FailureRule): Reply | null {
  switch (rule.kind) {
    case 'rate_limit':
      return apiError(429, MESSAGES.rateLimited, { 'retry-after': String(rule.retryAfterS ?? 1) });
    case 'quota':
      // The app's quota is spent: a long wait, and a `reason` that tells it apart from pacing.
      return apiError(429, MESSAGES.quota, { 'retry-after': String(rule.retryAfterS ?? 3600) }, { reason: 'QUOTA_EXCEEDED' });
    case 'server_error': {
      const status = rule.status ?? 503;
      return apiError(status, serverErrorMessage(status));
    }
    case 'expired_token':
      return apiError(401, MESSAGES.expiredToken);
    default:
      return null;
  }
}

export async function startFakeSpotify(options: FakeSpotifyOptions = {}): Promise<FakeSpotifyServer> {
  const catalog = new SpotifyCatalog();
  const state = new SpotifyState(catalog);
  const tokenLifetimeS = options.tokenLifetimeS ?? 3600;
  const oauth = new SpotifyOAuth(state, {
    tokenLifetimeS,
    rotateRefreshTokens: options.rotateRefreshTokens ?? true,
    revokeRotatedRefreshTokens: options.revokeRotatedRefreshTokens ?? false,
  });
  const api = new SpotifyApi(state);

  function route(request: FakeRequest): Reply {
    const { method, path } = request;
    if (path === '/authorize' && method === 'GET') return oauth.authorize(request);
    if (path === '/authorize' && method === 'POST') return oauth.decide(request);
    if (path === '/api/token' && method === 'POST') return oauth.token(request);
    if (path.startsWith('/v1/')) return api.handle(request);
    return html(404, '<!doctype html><title>Not found</title><p>Not found</p>');
  }

  const shell = await serveFake({
    origins: [API_ORIGIN, ACCOUNTS_ORIGIN],
    port: options.port,
    host: options.host,
    failure: (rule, _request, response) => sendReply(send, response, failureReply(rule)),
    applyLostWrite: (request) => void route(request),
    serve: (request, response) => send(response, route(request)),
  });

  const server: FakeSpotifyServer = {
    provider: 'spotify',
    ...shell,
    demoUserId: null,
    registerClient: (client) => state.registerClient(client),
    createAccount({ displayName = 'Fake Listener', library, scopes = SPOTIFY_PLUGIN_SCOPES, expiresIn = tokenLifetimeS }: { displayName?: string; library?: SeedLibrary; scopes?: readonly string[]; expiresIn?: number } = {}): FakeAccountTokens {
      const user = state.createUser(displayName);
      if (library) state.seedLibrary(user, library);
      const { access, refresh } = state.issueTokens(user.id, DEMO_CLIENT_ID, [...scopes], expiresIn);
      return { userId: user.id, displayName, accessToken: access.token, refreshToken: refresh.token, expiresIn, scopes: [...scopes] };
    },
    setAuthorizeUser(userId) {
      oauth.authorizeUser = userId;
    },
    expireAccessToken: (accessToken) => state.expireAccessToken(accessToken),
    revokeRefreshToken: (refreshToken) => state.revokeRefreshToken(refreshToken),
    revokeUser: (userId) => state.revokeUser(userId),
    uriOf: (seedKey) => catalog.entryForKey(seedKey)?.uri ?? null,
    albumIdOf: (seedKey) => catalog.albumId(seedKey),
    artistIdOf: (seedKey) => catalog.artistId(seedKey),
    playlist(id) {
      const playlist = state.playlists.get(id);
      return playlist ? view(playlist) : null;
    },
    playlistByName(userId, name) {
      const playlist = state.findPlaylistByName(userId, name);
      return playlist ? view(playlist) : null;
    },
    library(userId) {
      const user = state.users.get(userId);
      if (!user) return null;
      return { liked: user.liked.map((entry) => entry.value), savedAlbums: user.savedAlbums.map((entry) => entry.value), followedArtists: [...user.followedArtists], playlists: [...user.playlists] };
    },
  };
  return withDemoListener(server, options.demo, undefined, (demoUserId) =>
    demoPlaylistEditor({
      find: (id) => {
        const playlist = state.playlists.get(id);
        return playlist?.ownerId === demoUserId ? playlist : null;
      },
      entries: (playlist) => playlist.entries,
      seedKeyOf: (entry) => catalog.entryForUri(entry.uri)?.seed.key ?? null,
      newEntry(_playlist, seedKey) {
        const entry = catalog.entryForKey(seedKey);
        return entry?.kind === 'track' ? { uri: entry.uri, addedAt: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'), addedBy: demoUserId } : null;
      },
      // Every write gets a new snapshot id, as on Spotify.
      touch: (playlist) => void state.touch(playlist),
      version: (playlist) => playlist.snapshotId,
    }),
  );
}
