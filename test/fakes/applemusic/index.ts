import type { ServerResponse } from 'node:http';
import { DEMO_LISTENER, demoPlaylistEditor, type FailureRule, type FakeAccountTokens, type FakeProviderOptions, type FakeProviderServer, pickDemoLibrary, sendJson, serveFake } from '../kit/index.ts';
import type { SeedLibrary } from '../seed-catalog.ts';
import { handleApi, type ApiResult } from './applemusic-api.routes.ts';
import { STOREFRONTS } from './applemusic-catalog.ts';
import { errors } from './applemusic-resources.ts';
import { AppleMusicState, type LibraryItem, type LibraryPlaylist } from './applemusic-state.ts';
import { generateDeveloperKey, signDeveloperToken, trustedKeyFromPem, type DeveloperKeyMaterial, type TrustedKey } from './developer-token.ts';

/**
 * A stateful fake of the Apple Music API (`https://api.music.apple.com`) for tests and demo mode.
 * Apple has no OAuth: the engine signs a developer token (ES256 JWT) with its developer key, and
 * the user's music user token comes from MusicKit in the browser (or is pasted). The fake
 * generates a developer key at start (`developerKey`, to configure the engine with) and trusts it;
 * `createAccount` mints a music user token for a new user with a library.
 *
 * Demo mode: `await startFakeAppleMusic({ demo: true })` seeds a small library for one demo user;
 * the engine connects it when the user submits `demoUserToken` in the connect form. Plain Node,
 * prints nothing; `close()` ends every connection.
 */

export const APPLE_MUSIC_API_ORIGIN = 'https://api.music.apple.com';
export { MAX_APPEND } from './applemusic-api.routes.ts';
export { signDeveloperToken, type DeveloperKeyMaterial } from './developer-token.ts';

/** The demo user's music user token: public, it opens only the in-process demo fake. */
export const DEMO_USER_TOKEN = 'mut-opl-demo-listener';

/** Apple's music user tokens last about six months. */
const USER_TOKEN_LIFETIME_S = 180 * 24 * 60 * 60;

export interface FakeAppleMusicOptions extends FakeProviderOptions {
  /** Reads of a playlist's tracks before an accepted append shows up (default 2; 0: at once). */
  readonly appendVisibleAfterReads?: number;
  /** Storefront of accounts created without one (default `us`). */
  readonly storefront?: string;
}

export interface FakeAppleMusic extends FakeProviderServer {
  readonly state: AppleMusicState;
  /** The developer key the fake trusts, in the shape `OPL_PROVIDER_CLIENTS_FILE` takes (`developer_key`). */
  readonly developerKey: DeveloperKeyMaterial;
  /** A freshly signed developer token for `developerKey` (tests; the engine signs its own). */
  developerToken(): string;
  /** Trusts another developer key (a test's own). */
  trustDeveloperKey(key: { team_id: string; key_id: string; public_key_pem: string }): void;
  /** The demo user's music user token (demo mode only): what the demo's connect form takes. */
  readonly demoUserToken: string | null;
  readonly demoAccount: FakeAccountTokens | null;
  /** Reads before an append shows; tests may change it between steps. */
  appendVisibleAfterReads: number;
  /** A new music user token for an existing user (signing in again with MusicKit); the old one keeps working until expired. */
  issueUserToken(userId: string): string;
  /** Like `failNext`, but lets the first `skip` matching requests through (fail the second append of a call). */
  failLater(rule: FailureRule, skip: number): void;
  /** Creates an account in a given storefront. */
  createAccountIn(storefront: string, options?: { displayName?: string; library?: SeedLibrary }): FakeAccountTokens;
  /** Apple's catalog id of a seed recording (null when Apple lacks it). */
  songId(seedKey: string): string | null;
  /** The visible entries of a library playlist (catalog ids, or `library:<id>` for uploads), or null. */
  playlistCatalogIds(playlistId: string): string[] | null;
  /** Entries accepted but not yet visible. */
  pendingCount(playlistId: string): number;
  /** The library playlists of a user (by the fake's user handle). */
  playlistsOf(userId: string): LibraryPlaylist[];
  /** Puts a music video or an unmatched upload into a playlist (for mapping tests). */
  addToPlaylist(playlistId: string, item: { musicVideoOf?: string; upload?: NonNullable<LibraryItem['upload']> }): void;
}

export async function startFakeAppleMusic(options: FakeAppleMusicOptions = {}): Promise<FakeAppleMusic> {
  const state = new AppleMusicState();
  const generated = generateDeveloperKey('OPLTEAM001', 'OPLKEY0001');
  const trusted: TrustedKey[] = [generated.trusted];
  const defaultStorefront = options.storefront ?? 'us';
  const apiOptions = { trustedKeys: () => trusted, appendVisibleAfterReads: () => fake.appendVisibleAfterReads };

  function send(response: ServerResponse, result: ApiResult): void {
    sendJson(response, result.status, result.body, result.headers ?? {});
  }

  /** Apple's own answers to the failure rules. */
  function failure(rule: FailureRule, response: ServerResponse): boolean {
    switch (rule.kind) {
      case 'rate_limit':
      case 'quota': {
        // Apple has no daily quota for this API: both are its 429.
        const error = errors.rateLimited(rule.retryAfterS ?? 1);
        send(response, { status: error.status, body: error.body, headers: error.headers });
        return true;
      }
      case 'server_error': {
        const error = errors.server(rule.status ?? 503);
        send(response, { status: error.status, body: error.body });
        return true;
      }
      case 'expired_token': {
        // An expired music user token: Apple answers 403 (the developer token is the 401 case).
        const error = errors.forbidden('Invalid or expired music user token');
        send(response, { status: error.status, body: error.body });
        return true;
      }
      default:
        return false;
    }
  }

  const later: { rule: FailureRule; skip: number }[] = [];
  const shell = await serveFake({
    origins: [APPLE_MUSIC_API_ORIGIN],
    port: options.port ?? 0,
    host: options.host,
    // A delayed rule joins the queue once the requests it lets through have passed.
    arrive(request) {
      const entry = later.find(({ rule }) => (!rule.method || rule.method === request.method) && (!rule.pathPrefix || request.path.startsWith(rule.pathPrefix)));
      if (!entry) return;
      if (entry.skip > 0) entry.skip -= 1;
      else {
        later.splice(later.indexOf(entry), 1);
        shell.failNext(entry.rule);
      }
    },
    failure: (rule, _request, response) => failure(rule, response),
    applyLostWrite: (request) => void handleApi(state, apiOptions, request),
    serve(request, response) {
      if (request.path.startsWith('/v1/')) return send(response, handleApi(state, apiOptions, request));
      sendJson(response, 404, { errors: [{ status: '404', code: '40400', title: 'Resource Not Found', detail: 'No such endpoint' }] });
    },
  });

  function createAccountIn(storefront: string, account: { displayName?: string; library?: SeedLibrary; userToken?: string } = {}): FakeAccountTokens {
    if (!Object.hasOwn(STOREFRONTS, storefront)) throw new Error(`the fake has no storefront ${storefront}`);
    const user = state.createUser(account.displayName ?? `Apple Music User ${state.users.size + 1}`, storefront, account.userToken);
    if (account.library) state.seedLibrary(user.id, account.library);
    return { userId: user.id, displayName: user.displayName, accessToken: user.userToken, refreshToken: user.placeholderRefresh, expiresIn: USER_TOKEN_LIFETIME_S, scopes: [] };
  }

  let demoAccount: FakeAccountTokens | null = null;
  if (options.demo) {
    // A fixed, public token: the demo shows it to the user to paste, so it is no secret (and not in the secret ledger).
    // The demo user's small library: two playlists and a few library songs.
    const library = pickDemoLibrary({ playlists: ['Road Trip 2024', 'Versions'], liked: 12 });
    demoAccount = createAccountIn(defaultStorefront, { displayName: DEMO_LISTENER, library, userToken: DEMO_USER_TOKEN });
    const roadTrip = [...state.playlists.values()].find((playlist) => playlist.ownerId === demoAccount!.userId && playlist.name === 'Road Trip 2024');
    const video = [...state.catalog.musicVideos.keys()][0];
    // A music video in a playlist: readable, never migratable.
    if (roadTrip && video) roadTrip.items.splice(2, 0, state.libraryItemFor(demoAccount.userId, 'music-video', video));
  }

  const fake: FakeAppleMusic = {
    provider: 'applemusic',
    ...shell,
    state,
    developerKey: generated.material,
    developerToken: () => signDeveloperToken(generated.material),
    trustDeveloperKey(key) {
      trusted.push(trustedKeyFromPem(key.team_id, key.key_id, key.public_key_pem));
    },
    demoUserToken: demoAccount?.accessToken ?? null,
    demoAccount,
    ...(demoAccount ? { demoEdit: appleDemoEditor(state, demoAccount.userId).demoEdit } : {}),
    appendVisibleAfterReads: options.appendVisibleAfterReads ?? 2,
    // Apple has no OAuth clients and no authorize page: the music user token comes from MusicKit.
    registerClient() {},
    createAccount: (account) => createAccountIn(defaultStorefront, account),
    createAccountIn,
    issueUserToken(userId) {
      const user = state.users.get(userId);
      if (!user) throw new Error(`no user ${userId}`);
      return state.addUserToken(user);
    },
    setAuthorizeUser() {},
    failLater(rule, skip) {
      later.push({ rule, skip });
    },
    clearFailures() {
      shell.clearFailures();
      later.length = 0;
    },
    expireAccessToken(accessToken) {
      state.expiredTokens.add(accessToken);
    },
    songId: (seedKey) => state.catalog.idOf(seedKey),
    playlistCatalogIds(playlistId) {
      const playlist = state.playlists.get(playlistId);
      return playlist ? playlist.items.map((item) => item.catalogId ?? `library:${item.libraryId}`) : null;
    },
    pendingCount(playlistId) {
      return state.playlists.get(playlistId)?.pending.reduce((total, pending) => total + pending.items.length, 0) ?? 0;
    },
    playlistsOf: (userId) => [...state.playlists.values()].filter((playlist) => playlist.ownerId === userId),
    addToPlaylist(playlistId, item) {
      const playlist = state.playlists.get(playlistId);
      if (!playlist) throw new Error(`no playlist ${playlistId}`);
      if (item.musicVideoOf) {
        const song = state.catalog.idOf(item.musicVideoOf);
        const video = state.catalog.idOf(`video:${state.catalog.songs.get(song ?? '')?.seedKey ?? ''}`) ?? [...state.catalog.musicVideos.keys()][0]!;
        playlist.items.push(state.libraryItemFor(playlist.ownerId, 'music-video', video));
      }
      if (item.upload) playlist.items.push(state.addUpload(playlist.ownerId, item.upload));
    },
  };
  return fake;
}

/**
 * Demo edits of the demo user's editable library playlists. The change shows at once (the delayed
 * appends are for the API's own writes) and `lastModifiedDate` moves to a later second.
 */
function appleDemoEditor(state: AppleMusicState, demoUserId: string) {
  const storefront = state.users.get(demoUserId)!.storefront;
  return demoPlaylistEditor<LibraryPlaylist, LibraryItem>({
    find: (id) => {
      const playlist = state.playlists.get(id);
      return playlist?.ownerId === demoUserId && playlist.canEdit ? playlist : null;
    },
    entries: (playlist) => playlist.items,
    seedKeyOf: (item) => (item.kind === 'song' && item.catalogId !== null ? (state.catalog.songs.get(item.catalogId)?.seedKey ?? null) : null),
    newEntry(_playlist, seedKey) {
      const id = state.catalog.idOf(seedKey);
      const song = id === null ? undefined : state.catalog.songs.get(id);
      return song && state.catalog.inStorefront(song, storefront) ? state.libraryItemFor(demoUserId, 'song', song.id) : null;
    },
    touch: (playlist) => void (playlist.lastModifiedDate = state.laterTimestamp(playlist.lastModifiedDate)),
    version: (playlist) => playlist.lastModifiedDate,
  });
}
