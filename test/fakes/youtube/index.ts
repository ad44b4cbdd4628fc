import type { ServerResponse } from 'node:http';
import { answerFailure, AuthorizeUsers, bearerToken, type FailureRule, type FakeAccountTokens, type FakeProviderOptions, type FakeProviderServer, type FakeRequest, pickDemoLibrary, seedDemoListener, sendJson, serveFake } from '../kit/index.ts';
import type { SeedLibrary } from '../seed-catalog.ts';
import { API_PREFIX, handleApi, quotaCost, type ApiResult } from './youtube-api.routes.ts';
import { errors, sendGoogleError } from './youtube-errors.ts';
import { handleAuthorize, handleRevoke, handleToken } from './youtube-oauth.routes.ts';
import { DEMO_CLIENT_ID, SCOPE_YOUTUBE, YoutubeState, type FakePlaylist, type FakePlaylistItem, type QuotaDay } from './youtube-state.ts';

/**
 * A stateful fake of the YouTube Data API v3 for tests and demo mode: the API at
 * `https://www.googleapis.com/youtube/v3`, Google's consent page at
 * `https://accounts.google.com/o/oauth2/v2/auth` and the token endpoint at
 * `https://oauth2.googleapis.com/token`, all on one loopback port (their paths do not collide).
 *
 * The daily quota is per OAuth client (a Google Cloud project), as on YouTube: `dailyUnits`
 * (default 10,000) for every method but search.list, which has its own `dailySearches` calls
 * (default 100); it resets at midnight Pacific time. Tests shrink the budgets to exhaust them.
 *
 * Demo mode: `await startFakeYoutube({ demo: true })` seeds one demo channel with a few playlists
 * (one holding a music video and a vlog) and liked videos, and makes the consent page approve at
 * once as that channel.
 */

export const YOUTUBE_API_ORIGIN = 'https://www.googleapis.com';
/** Every origin the fake answers for: the API, the consent page and the token endpoint. */
const GOOGLE_ORIGINS = [YOUTUBE_API_ORIGIN, 'https://accounts.google.com', 'https://oauth2.googleapis.com'];
export { DEMO_CLIENT_ID, SCOPE_READONLY, SCOPE_YOUTUBE } from './youtube-state.ts';

export interface FakeYoutubeOptions extends FakeProviderOptions {
  /** Quota units per day for every method but search.list (default 10,000). */
  readonly dailyUnits?: number;
  /** search.list calls per day (default 100). */
  readonly dailySearches?: number;
  /** Seconds an access token lives (default 3599, as Google answers). */
  readonly accessTokenTtlS?: number;
}

export interface FakeYoutube extends FakeProviderServer {
  readonly state: YoutubeState;
  readonly demoAccount: FakeAccountTokens | null;
  /** The art-track video id of a seed recording (null when YouTube lacks it). */
  trackId(seedKey: string): string | null;
  /** The official music video of a seed recording, if it has one. */
  musicVideoId(seedKey: string): string | null;
  /** The non-music user uploads of the catalogue. */
  uploadIds(): readonly string[];
  playlistEntries(playlistId: string): FakePlaylistItem[] | null;
  playlistsOf(userId: string): FakePlaylist[];
  /** Today's quota usage of an OAuth client (default: the demo/test client). */
  quotaUsed(clientId?: string): QuotaDay;
  /** Sets today's usage (to start a test near the limit). */
  setQuotaUsed(usage: { units?: number; searches?: number }, clientId?: string): void;
}

export async function startFakeYoutube(options: FakeYoutubeOptions = {}): Promise<FakeYoutube> {
  const state = new YoutubeState({ dailyUnits: options.dailyUnits ?? 10_000, dailySearches: options.dailySearches ?? 100 });
  const accessTokenTtlS = options.accessTokenTtlS ?? 3599;
  const users = new AuthorizeUsers(() => state.createChannel('YouTube Viewer').id);
  const oauth = { accessTokenTtlS, authorizeUserId: users.authorizeUserId, consentUserId: users.consentUserId };
  const { setAuthorizeUser } = users;

  function sendResult(response: ServerResponse, result: ApiResult): void {
    if (result.error) return sendGoogleError(response, result.error);
    if (result.status === 204) {
      response.writeHead(204);
      response.end();
      return;
    }
    sendJson(response, result.status, result.body);
  }

  /** YouTube's own answers to the failure rules. */
  function failure(rule: FailureRule, response: ServerResponse): boolean {
    switch (rule.kind) {
      case 'rate_limit':
        // 429 carries Retry-After; YouTube's older answer is 403 rateLimitExceeded without one.
        sendGoogleError(response, errors.rateLimitExceeded(rule.status === 403 ? 403 : 429, rule.status === 403 ? null : (rule.retryAfterS ?? 1)));
        return true;
      case 'quota':
        sendGoogleError(response, errors.quotaExceeded());
        return true;
      case 'server_error':
        sendGoogleError(response, errors.backendError(rule.status ?? 503));
        return true;
      case 'expired_token':
        sendGoogleError(response, errors.authError());
        return true;
      default:
        return false;
    }
  }

  /** Authenticates, charges the client's quota, then answers (or fails as a rule says). */
  function api(request: FakeRequest, response: ServerResponse, rule: FailureRule | null): void {
    const presented = bearerToken(request.headers);
    const token = presented ? state.accessTokens.get(presented) : undefined;
    const expired = !token || token.expired || token.expiresAt < Date.now();
    const lostWrite = (apply: () => void) => ({ failure: (failed: FailureRule, _request: FakeRequest, answer: ServerResponse) => failure(failed, answer), applyLostWrite: apply });
    if (rule && (rule.kind !== 'ambiguous_write' || expired)) return void answerFailure(lostWrite(() => undefined), rule, request, response);
    if (expired) return sendGoogleError(response, errors.authError());
    const resource = request.path.slice(API_PREFIX.length).replace(/\/$/, '');
    const cost = quotaCost(request.method, resource);
    const usage = state.quotaOf(token.clientId);
    if (cost.search ? usage.searches + 1 > state.limits.dailySearches : usage.units + cost.units > state.limits.dailyUnits) return sendGoogleError(response, errors.quotaExceeded());
    if (cost.search) usage.searches += 1;
    else usage.units += cost.units;
    if (rule) return void answerFailure(lostWrite(() => handleApi(state, token, request)), rule, request, response);
    sendResult(response, handleApi(state, token, request));
  }

  const shell = await serveFake({
    origins: GOOGLE_ORIGINS,
    port: options.port ?? 0,
    host: options.host,
    // The API authenticates and charges the quota before any failure: a failed call still costs.
    preempt(request, response, rule) {
      if (!request.path.startsWith(API_PREFIX)) return false;
      api(request, response, rule);
      return true;
    },
    failure: (rule, _request, response) => failure(rule, response),
    // Outside the API nothing is written.
    applyLostWrite: () => undefined,
    serve(request, response) {
      if (request.path === '/o/oauth2/v2/auth') return handleAuthorize(state, oauth, request, response);
      if (request.path === '/token') return handleToken(state, oauth, request, response);
      if (request.path === '/revoke') return handleRevoke(state, request, response);
      sendJson(response, 404, { error: 'not found' });
    },
  });

  function createAccount(account: { displayName?: string; library?: SeedLibrary; scopes?: readonly string[]; expiresIn?: number } = {}): FakeAccountTokens {
    const channel = state.createChannel(account.displayName ?? `YouTube Viewer ${state.channels.size + 1}`);
    if (account.library) state.seedLibrary(channel.id, account.library);
    users.accountCreated(channel.id);
    const scopes = account.scopes ?? [SCOPE_YOUTUBE];
    const expiresIn = account.expiresIn ?? accessTokenTtlS;
    const { access, refresh } = state.issueTokens(channel.id, DEMO_CLIENT_ID, scopes, expiresIn);
    return { userId: channel.id, displayName: channel.title, accessToken: access.token, refreshToken: refresh.token, expiresIn, scopes };
  }

  let demoAccount: FakeAccountTokens | null = null;
  if (options.demo) {
    demoAccount = seedDemoListener({ createAccount, setAuthorizeUser }, pickDemoLibrary({ playlists: ['Road Trip 2024', 'Repeat Offenders', 'Empty For Now'], liked: 12 }));
    // A music video and a vlog in a playlist: readable, only the first is music.
    const trip = state.playlistsOf(demoAccount.userId).find((playlist) => playlist.title === 'Road Trip 2024');
    const video = [...state.catalog.videos.values()].find((candidate) => candidate.kind === 'music_video');
    if (trip && video) trip.items.splice(2, 0, state.newItem(video.id));
    if (trip && state.catalog.uploads[0]) trip.items.splice(5, 0, state.newItem(state.catalog.uploads[0]));
  }

  return {
    provider: 'youtube',
    ...shell,
    state,
    demoAccount,
    registerClient: (client) => state.registerClient(client),
    createAccount,
    setAuthorizeUser,
    expireAccessToken: (accessToken) => state.expireAccessToken(accessToken),
    trackId: (seedKey) => state.catalog.artTrackOf(seedKey),
    musicVideoId: (seedKey) => state.catalog.musicVideoOf(seedKey),
    uploadIds: () => state.catalog.uploads,
    playlistEntries(playlistId) {
      const playlist = state.playlists.get(playlistId);
      return playlist ? [...playlist.items] : null;
    },
    playlistsOf: (userId) => state.playlistsOf(userId),
    quotaUsed: (clientId = DEMO_CLIENT_ID) => ({ ...state.quotaOf(clientId) }),
    setQuotaUsed(usage, clientId = DEMO_CLIENT_ID) {
      const today = state.quotaOf(clientId);
      if (usage.units !== undefined) today.units = usage.units;
      if (usage.searches !== undefined) today.searches = usage.searches;
    },
  };
}
