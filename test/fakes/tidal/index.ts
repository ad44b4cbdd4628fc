import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { AuthorizeUsers, demoPlaylistEditor, type FailureRule, type FakeAccountTokens, type FakeProviderOptions, type FakeProviderServer, pickDemoLibrary, seedDemoListener, sendJson, serveFake } from '../kit/index.ts';
import type { SeedLibrary } from '../seed-catalog.ts';
import { sendJsonApi } from './json-api.ts';
import { handleApi } from './tidal-api.routes.ts';
import { handleAuthorize, handleToken } from './tidal-oauth.routes.ts';
import { DEMO_CLIENT_ID, THIRD_PARTY_SCOPES, TidalState, type FakePlaylist, type PlaylistEntry } from './tidal-state.ts';

/**
 * A stateful fake of TIDAL for tests and demo mode: the JSON:API at `https://openapi.tidal.com/v2`,
 * the login page at `https://login.tidal.com/authorize` and the token endpoint at
 * `https://auth.tidal.com/v1/oauth2/token`, all on one loopback port (their paths do not collide,
 * so every origin maps to the port's root).
 *
 * Demo mode: `await startFakeTidal({ demo: true })` seeds one demo user with a small library (two
 * playlists, a few favourites) and makes the authorize page approve at once as that user.
 */

export const TIDAL_API_ORIGIN = 'https://openapi.tidal.com';
/** Every origin the fake answers for: the API, the login (consent) page and the token endpoint. */
const TIDAL_ORIGINS = [TIDAL_API_ORIGIN, 'https://login.tidal.com', 'https://auth.tidal.com'];
export { DEMO_CLIENT_ID, THIRD_PARTY_SCOPES } from './tidal-state.ts';

export interface FakeTidalOptions extends FakeProviderOptions {
  /** Entries per page of every collection (the provider's pages hold 20). */
  readonly pageSize?: number;
  /** Seconds an access token lives (default 3600). */
  readonly accessTokenTtlS?: number;
}

export interface FakeTidal extends FakeProviderServer {
  /** The fake's whole state, for assertions and for arranging unusual cases. */
  readonly state: TidalState;
  /** The demo user's tokens (demo mode only). */
  readonly demoAccount: FakeAccountTokens | null;
  /** TIDAL's id of a seed recording, album or artist (null when TIDAL lacks it). */
  trackId(seedKey: string): string | null;
  /** The entries of a playlist in order (a copy), or null when it does not exist. */
  playlistEntries(playlistId: string): PlaylistEntry[] | null;
  /** The playlists a user owns, in creation order. */
  playlistsOf(userId: string): FakePlaylist[];
}

export async function startFakeTidal(options: FakeTidalOptions = {}): Promise<FakeTidal> {
  const state = new TidalState();
  const accessTokenTtlS = options.accessTokenTtlS ?? 3600;
  const pageSize = options.pageSize ?? 20;
  const users = new AuthorizeUsers(() => state.createUser('TIDAL Listener').id);
  const oauth = { accessTokenTtlS, authorizeUserId: users.authorizeUserId, consentUserId: users.consentUserId };
  const { setAuthorizeUser } = users;

  function failure(rule: FailureRule, response: ServerResponse): boolean {
    switch (rule.kind) {
      case 'rate_limit':
      case 'quota':
        // TIDAL has one answer for both: 429 with Retry-After.
        sendJsonApi(response, 429, { errors: [{ id: randomUUID(), status: '429', code: 'TOO_MANY_REQUESTS', detail: 'Rate limit exceeded' }] }, { 'retry-after': String(rule.retryAfterS ?? 1) });
        return true;
      case 'server_error': {
        const status = rule.status ?? 503;
        sendJsonApi(response, status, { errors: [{ id: randomUUID(), status: String(status), detail: status === 503 ? 'Service temporarily unavailable' : 'Internal server error' }] });
        return true;
      }
      case 'expired_token':
        sendJsonApi(response, 401, { errors: [{ id: randomUUID(), status: '401', code: 'UNAUTHORIZED', detail: 'The access token has expired' }] }, { 'www-authenticate': 'Bearer error="invalid_token"' });
        return true;
      default:
        return false;
    }
  }

  const shell = await serveFake({
    origins: TIDAL_ORIGINS,
    port: options.port ?? 0,
    host: options.host,
    failure: (rule, _request, response) => failure(rule, response),
    applyLostWrite(request) {
      if (request.path.startsWith('/v2/')) handleApi(state, { pageSize }, request);
    },
    serve(request, response) {
      if (request.path === '/authorize') return handleAuthorize(state, oauth, request, response);
      if (request.path === '/v1/oauth2/token') return handleToken(state, oauth, request, response);
      if (request.path.startsWith('/v2/')) {
        const result = handleApi(state, { pageSize }, request);
        return sendJsonApi(response, result.status, result.body, result.headers ?? {});
      }
      sendJson(response, 404, { error: 'not found' });
    },
  });

  function createAccount(account: { displayName?: string; library?: SeedLibrary; scopes?: readonly string[]; expiresIn?: number } = {}): FakeAccountTokens {
    const user = state.createUser(account.displayName ?? `TIDAL User ${state.users.size + 1}`);
    if (account.library) state.seedLibrary(user.id, account.library);
    users.accountCreated(user.id);
    const scopes = account.scopes ?? [...THIRD_PARTY_SCOPES];
    const expiresIn = account.expiresIn ?? accessTokenTtlS;
    const { access, refresh } = state.issueTokens(user.id, DEMO_CLIENT_ID, scopes, expiresIn);
    return { userId: user.id, displayName: user.username, accessToken: access.token, refreshToken: refresh.token, expiresIn, scopes };
  }

  let demoAccount: FakeAccountTokens | null = null;
  if (options.demo) {
    // The demo user's small library: two playlists (one with a repeat and a music video) and a few favourites.
    demoAccount = seedDemoListener({ createAccount, setAuthorizeUser }, pickDemoLibrary({ playlists: ['Late Night Focus', 'Repeat Offenders'], liked: 10, albums: 3, artists: 3 }));
    // A music video in a playlist: readable, never migratable.
    const focus = [...state.playlists.values()].find((playlist) => playlist.ownerId === demoAccount!.userId && playlist.name === 'Late Night Focus');
    const video = [...state.catalog.videos.keys()][0];
    if (focus && video) focus.items.splice(3, 0, state.newEntry('videos', video, focus.items[2]?.addedAt));
  }

  return {
    provider: 'tidal',
    ...shell,
    state,
    demoAccount,
    ...(demoAccount ? { demoEdit: tidalDemoEditor(state, demoAccount.userId).demoEdit } : {}),
    registerClient: (client) => state.registerClient(client),
    createAccount,
    setAuthorizeUser,
    expireAccessToken: (accessToken) => state.expireAccessToken(accessToken),
    trackId(seedKey) {
      return state.catalog.idOf(seedKey);
    },
    playlistEntries(playlistId) {
      const playlist = state.playlists.get(playlistId);
      return playlist ? [...playlist.items] : null;
    },
    playlistsOf(userId) {
      return [...state.playlists.values()].filter((playlist) => playlist.ownerId === userId);
    },
  };
}

/** Demo edits of the demo user's playlists: `lastModifiedAt` (TIDAL's version marker) moves with each. */
function tidalDemoEditor(state: TidalState, demoUserId: string) {
  return demoPlaylistEditor<FakePlaylist, PlaylistEntry>({
    find: (id) => {
      const playlist = state.playlists.get(id);
      return playlist?.ownerId === demoUserId ? playlist : null;
    },
    entries: (playlist) => playlist.items,
    seedKeyOf: (entry) => (entry.type === 'tracks' ? (state.catalog.tracks.get(entry.id)?.seedKey ?? null) : null),
    newEntry(_playlist, seedKey) {
      const id = state.catalog.idOf(seedKey);
      return id !== null && state.catalog.tracks.has(id) ? state.newEntry('tracks', id) : null;
    },
    touch: (playlist) => void (playlist.lastModifiedAt = state.timestamp()),
    version: (playlist) => playlist.lastModifiedAt,
  });
}
