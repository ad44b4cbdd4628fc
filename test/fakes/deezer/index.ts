import { demoPlaylistEditor, type FailureRule, type FakeAccountTokens, type FakeProviderOptions, type FakeProviderServer, type FakeRequest, randomId, sendReply, serveFake, withDemoListener } from '../kit/index.ts';
import type { SeedLibrary } from '../seed-catalog.ts';
import { DeezerApi } from './deezer-api.routes.ts';
import { API_ORIGIN, CONNECT_ORIGIN, DeezerCatalog } from './deezer-catalog.ts';
import { DeezerOAuth, issueAccessToken } from './deezer-oauth.routes.ts';
import { deezerError, html, send, text, type DeezerErrorName, type Reply } from './deezer-responses.ts';
import { DEMO_CLIENT_ID, DeezerState, type FakePlaylist } from './deezer-state.ts';

/**
 * A stateful fake of Deezer: the API on `https://api.deezer.com` (token as the `access_token`
 * query parameter) and Deezer Connect on `https://connect.deezer.com` (`/oauth/auth.php`,
 * `/oauth/access_token.php`), both on one loopback port. It answers failures as Deezer does —
 * HTTP 200 with `{"error": {"type", "message", "code"}}` (quota code 4, permission 200, invalid
 * token 300, parameters 500/501, no data 800), real 5xx only from the gateway — and keeps Deezer's
 * rules: a playlist holds a track once (adding it again is refused), removal is by track id,
 * only the creator deletes a playlist, paging by `index`/`limit` with `next` links.
 *
 * Demo mode: `await startFakeDeezer({ demo: true })` seeds one "Demo Listener" with
 * `demoLibrary()` and makes the authorize page approve at once as that user (`demoUserId`). The
 * demo app id `opl-demo-client` needs no secret. Plain Node, prints nothing; `close()` ends every
 * connection.
 */

export { DEMO_CLIENT_ID } from './deezer-state.ts';
export { MAX_SONGS_PER_REQUEST } from './deezer-api.routes.ts';

/** Every permission the Deezer plugin can ask for: what `createAccount` grants unless told otherwise. */
export const DEEZER_PLUGIN_PERMS = ['basic_access', 'offline_access', 'manage_library', 'delete_library'] as const;

export interface FakeDeezerOptions extends FakeProviderOptions {
  /** Lifetime of tokens granted without `offline_access`, in seconds (default 3600). */
  readonly tokenLifetimeS?: number;
}

/** What tests read back from a playlist without going through the API. */
export interface FakeDeezerPlaylistView {
  readonly id: string;
  readonly creatorId: string;
  readonly title: string;
  readonly description: string;
  readonly public: boolean;
  readonly checksum: string;
  readonly trackIds: readonly string[];
}

export interface FakeDeezerServer extends FakeProviderServer {
  /** The demo user's id when started with `demo: true`. */
  readonly demoUserId: string | null;
  /** Deezer track id of a seed recording; null when Deezer lacks it. */
  trackIdOf(seedKey: string): string | null;
  albumIdOf(seedKey: string): string;
  artistIdOf(seedKey: string): string;
  playlist(id: string): FakeDeezerPlaylistView | null;
  playlistByTitle(userId: string, title: string): FakeDeezerPlaylistView | null;
  /** Favourites of a user (track, album, artist ids) and the playlist ids of their library. */
  library(userId: string): { tracks: string[]; albums: string[]; artists: string[]; playlists: string[] } | null;
  /** Makes the next matching requests answer one of Deezer's 200-with-error bodies. */
  failNextWithError(error: DeezerErrorName, rule?: { method?: string; pathPrefix?: string; times?: number }): void;
}

function view(state: DeezerState, playlist: FakePlaylist): FakeDeezerPlaylistView {
  return {
    id: String(playlist.id),
    creatorId: String(playlist.creatorId),
    title: playlist.title,
    description: playlist.description,
    public: playlist.public,
    checksum: state.checksum(playlist),
    trackIds: playlist.entries.map((entry) => String(entry.value)),
  };
}

type Failure = FailureRule | { readonly kind: 'deezer_error'; readonly error: DeezerErrorName };

function failureReply(rule: Failure): Reply | null {
  switch (rule.kind) {
    // Deezer paces with its quota answer (HTTP 200, no Retry-After), for bursts and quotas alike.
    case 'rate_limit':
    case 'quota':
      return deezerError('quota');
    case 'server_error': {
      const status = rule.status ?? 503;
      return text(status === 502 ? 'Bad Gateway' : status === 503 ? 'Service Unavailable' : 'Internal Server Error', status);
    }
    case 'expired_token':
      return deezerError('invalidToken');
    case 'deezer_error':
      return deezerError(rule.error);
    default:
      return null;
  }
}

export async function startFakeDeezer(options: FakeDeezerOptions = {}): Promise<FakeDeezerServer> {
  const catalog = new DeezerCatalog();
  const state = new DeezerState(catalog);
  const tokenLifetimeS = options.tokenLifetimeS ?? 3600;
  const oauth = new DeezerOAuth(state, tokenLifetimeS);
  const demoApp = DeezerOAuth.demoApp();
  state.apps.set(demoApp.appId, demoApp);
  const api = new DeezerApi(state);
  // Deezer-specific failures share the queue's matching; the kind rides along here.
  const deezerFailures = new Map<FailureRule, DeezerErrorName>();

  function route(request: FakeRequest): Reply {
    const { method, path } = request;
    if (path === '/oauth/auth.php' && method === 'GET') return oauth.authorize(request);
    if (path === '/oauth/auth.php' && method === 'POST') return oauth.decide(request);
    if (path === '/oauth/access_token.php' && (method === 'GET' || method === 'POST')) return oauth.token(request);
    if (path.startsWith('/oauth/')) return html(404, '<!doctype html><title>Not found</title><p>Not found</p>');
    return api.handle(request);
  }

  const shell = await serveFake({
    origins: [API_ORIGIN, CONNECT_ORIGIN],
    port: options.port,
    host: options.host,
    failure(rule, _request, response) {
      const special = deezerFailures.get(rule);
      return sendReply(send, response, failureReply(special ? { kind: 'deezer_error', error: special } : rule));
    },
    applyLostWrite: (request) => void route(request),
    serve: (request, response) => send(response, route(request)),
  });

  const server: FakeDeezerServer = {
    provider: 'deezer',
    ...shell,
    demoUserId: null,
    registerClient(client) {
      state.apps.set(client.clientId, { appId: client.clientId, secret: client.clientSecret ?? null, redirectUris: [...(client.redirectUris ?? [])] });
    },
    createAccount({ displayName = 'Fake Listener', library, scopes = DEEZER_PLUGIN_PERMS, expiresIn = tokenLifetimeS }: { displayName?: string; library?: SeedLibrary; scopes?: readonly string[]; expiresIn?: number } = {}): FakeAccountTokens {
      const user = state.createUser(displayName);
      if (library) state.seedLibrary(user, library);
      oauth.lastUserId = user.id;
      const issued = issueAccessToken(state, user.id, DEMO_CLIENT_ID, scopes, expiresIn);
      // Deezer issues no refresh tokens; this placeholder is never accepted anywhere.
      return { userId: String(user.id), displayName, accessToken: issued.accessToken, refreshToken: randomId('no-refresh-token-', 12), expiresIn: issued.expires, scopes: [...scopes] };
    },
    setAuthorizeUser(userId) {
      oauth.authorizeUser = userId === null ? null : Number(userId);
    },
    failNextWithError(error, rule = {}) {
      const queued: FailureRule = { kind: 'quota', ...rule };
      deezerFailures.set(queued, error);
      shell.failNext(queued);
    },
    clearFailures() {
      shell.clearFailures();
      deezerFailures.clear();
    },
    expireAccessToken(accessToken) {
      const grant = state.tokens.get(accessToken);
      if (grant) grant.expired = true;
    },
    trackIdOf: (seedKey) => {
      const id = catalog.trackIdOf(seedKey);
      return id === null ? null : String(id);
    },
    albumIdOf: (seedKey) => String(catalog.albumId(seedKey)),
    artistIdOf: (seedKey) => String(catalog.artistId(seedKey)),
    playlist(id) {
      const playlist = state.playlists.get(Number(id));
      return playlist ? view(state, playlist) : null;
    },
    playlistByTitle(userId, title) {
      const playlist = state.findPlaylistByTitle(Number(userId), title);
      return playlist ? view(state, playlist) : null;
    },
    library(userId) {
      const user = state.users.get(Number(userId));
      if (!user) return null;
      return { tracks: user.liked.map((entry) => String(entry.value)), albums: user.albums.map((entry) => String(entry.value)), artists: user.artists.map((entry) => String(entry.value)), playlists: user.playlists.map(String) };
    },
  };
  return withDemoListener(server, options.demo, undefined, (demoUserId) =>
    demoPlaylistEditor({
      find: (id) => {
        const playlist = state.playlists.get(Number(id));
        return playlist && String(playlist.creatorId) === demoUserId && !playlist.isLovedTrack ? playlist : null;
      },
      entries: (playlist) => playlist.entries,
      seedKeyOf: (entry) => catalog.tracksById.get(entry.value)?.key ?? null,
      newEntry(_playlist, seedKey) {
        const id = catalog.trackIdOf(seedKey);
        return id === null ? null : { value: id, timeAdd: Math.floor(Date.now() / 1000) };
      },
      // The checksum follows the track list by itself; `time_mod` moves as on any write.
      touch: (playlist) => void (playlist.modifiedAt = Math.floor(Date.now() / 1000)),
      version: (playlist) => state.checksum(playlist),
    }),
  );
}
