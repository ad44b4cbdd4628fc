import { expect } from 'vitest';
import type { AppOverrides } from '../../../core/app/index.ts';
import type { FakeAccountTokens } from '../../fakes/fake-provider.ts';
import { startFakeDeezer, type FakeDeezerServer } from '../../fakes/deezer/index.ts';
import { startFakeSpotify, type FakeSpotifyServer } from '../../fakes/spotify/index.ts';
import { startFakeTidal, type FakeTidal } from '../../fakes/tidal/index.ts';
import { startFakeYoutube, type FakeYoutube } from '../../fakes/youtube/index.ts';
import { startFakeYtmusic, type FakeYtmusicServer } from '../../fakes/ytmusic/index.ts';
import type { SeedLibrary } from '../../fakes/seed-catalog.ts';
import { firstPartyPlugins } from '../support/first-party-plugins.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * A real engine (HTTP + worker) with the Spotify and TIDAL plugins in the sandbox, each talking to
 * its stateful fake, and one connected account on each — the setting of the migration tests.
 * With `deezerLibrary`, a Deezer fake and account too (`deezer`, `deezerAccount`); with
 * `ytmusicLibrary`, a YouTube Music fake and account (`ytmusic`, `ytmusicAccount`); with
 * `youtubeLibrary`, a YouTube Data API fake (daily quota per OAuth client `youtubeClientId`) and account.
 */

/** The OAuth client the engine uses for the YouTube Data fake (its quota is counted per client). */
const YOUTUBE_CLIENT = { client_id: 'opl-test-client', client_secret: 'opl-test-secret' };

export interface MigrationHarness {
  spotify: FakeSpotifyServer;
  tidal: FakeTidal;
  spotifyUser: FakeAccountTokens;
  tidalUser: FakeAccountTokens;
  spotifyAccount: string;
  tidalAccount: string;
  /** Only with `deezerLibrary`. */
  deezer?: FakeDeezerServer;
  deezerUser?: FakeAccountTokens;
  deezerAccount?: string;
  /** Only with `ytmusicLibrary`. */
  ytmusic?: FakeYtmusicServer;
  ytmusicUser?: FakeAccountTokens;
  ytmusicAccount?: string;
  /** Only with `youtubeLibrary`. */
  youtube?: FakeYoutube;
  youtubeUser?: FakeAccountTokens;
  youtubeAccount?: string;
  youtubeClientId?: string;
  app: TestApp;
  baseUrl: string;
  api(path: string, init?: RequestInit): Promise<{ status: number; json: unknown; text: string; headers: Headers }>;
  /** Polls the job until `done` holds (or fails the test after `timeoutMs`). */
  waitForJob(jobId: string, done: (job: JobJson) => boolean, timeoutMs?: number): Promise<JobJson>;
  close(): Promise<void>;
}

export interface JobJson {
  id: string;
  status: string;
  outcome: string;
  error: string | null;
  error_code: string | null;
  counts: Record<string, number>;
  collections: { id: string; name: string; target_playlist_id: string | null }[];
  [key: string]: unknown;
}

/** Connects an account through the redirect flow (the fake approves at once); returns its id. */
export async function connectByRedirect(baseUrl: string, provider: string): Promise<string> {
  const begin = await fetch(`${baseUrl}/api/auth/${provider}/begin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  expect(begin.status).toBe(200);
  const challenge = (await begin.json()) as { redirect_url: string };
  const authorize = await fetch(challenge.redirect_url, { redirect: 'manual' });
  const landed = await fetch(authorize.headers.get('location')!, { redirect: 'manual' });
  const match = /connected=([0-9a-f-]{36})/.exec(landed.headers.get('location') ?? '');
  expect(match, `connecting ${provider}: ${landed.headers.get('location')}`).not.toBeNull();
  return match![1]!;
}

/**
 * Connects a YouTube Music account through Google's device flow with the user's own client (the
 * fake approves the code as its authorize user at the first poll); returns its id.
 */
async function connectByDevice(baseUrl: string): Promise<string> {
  const post = (path: string, body: unknown) => fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const begin = await post('/api/auth/ytmusic/begin', { auth_kind: 'OAUTH_DEVICE', client: { client_id: 'opl-demo-client', client_secret: 'any' } });
  expect(begin.status).toBe(200);
  const { state, poll_interval_s: interval } = (await begin.json()) as { state: string; poll_interval_s: number };
  for (let attempt = 0; attempt < 30; attempt++) {
    const outcome = await post('/api/auth/ytmusic/complete', { state });
    if (outcome.status === 200) return ((await outcome.json()) as { account: { id: string } }).account.id;
    expect(outcome.status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, interval * 1000 + 100));
  }
  throw new Error('the YouTube Music device flow never settled');
}

export async function startMigrationHarness(options: {
  spotifyLibrary: SeedLibrary;
  tidalLibrary: SeedLibrary;
  deezerLibrary?: SeedLibrary;
  ytmusicLibrary?: SeedLibrary;
  youtubeLibrary?: SeedLibrary;
  overrides?: Omit<AppOverrides, 'logger'>;
  env?: Record<string, string>;
  /** False: no job runs by itself (tests that drive a worker step by step). */
  worker?: boolean;
  /** A registry of the test's own (e.g. plugins built with another manifest) instead of the first-party setup. */
  plugins?: { env: Record<string, string>; remove(): Promise<void> };
}): Promise<MigrationHarness> {
  const spotify = await startFakeSpotify();
  const tidal = await startFakeTidal();
  const deezer = options.deezerLibrary === undefined ? undefined : await startFakeDeezer();
  const ytmusic = options.ytmusicLibrary === undefined ? undefined : await startFakeYtmusic({ deviceIntervalS: 1 });
  const spotifyUser = spotify.createAccount({ displayName: 'Source Listener', library: options.spotifyLibrary });
  const tidalUser = tidal.createAccount({ displayName: 'Target Listener', library: options.tidalLibrary });
  const deezerUser = deezer?.createAccount({ displayName: 'Deezer Listener', library: options.deezerLibrary });
  spotify.setAuthorizeUser(spotifyUser.userId);
  tidal.setAuthorizeUser(tidalUser.userId);
  if (deezer && deezerUser) deezer.setAuthorizeUser(deezerUser.userId);
  const ytmusicUser = ytmusic?.createAccount({ displayName: 'YouTube Music Listener', library: options.ytmusicLibrary });
  if (ytmusic && ytmusicUser) ytmusic.setAuthorizeUser(ytmusicUser.userId);
  const youtube = options.youtubeLibrary === undefined ? undefined : await startFakeYoutube();
  youtube?.registerClient({ clientId: YOUTUBE_CLIENT.client_id, clientSecret: YOUTUBE_CLIENT.client_secret });
  const youtubeUser = youtube?.createAccount({ displayName: 'YouTube Listener', library: options.youtubeLibrary });
  if (youtube && youtubeUser) youtube.setAuthorizeUser(youtubeUser.userId);
  const plugins = options.plugins ?? (await firstPartyPlugins());
  const app = await startTestApp({ ...plugins.env, ...options.env }, { http: true, worker: options.worker ?? true }, {
    providerOriginOverrides: { ...spotify.originOverrides, ...tidal.originOverrides, ...deezer?.originOverrides, ...ytmusic?.originOverrides, ...youtube?.originOverrides },
    providerClients: { spotify: { client_id: 'opl-demo-client' }, tidal: { client_id: 'opl-demo-client' }, ...(deezer ? { deezer: { client_id: 'opl-demo-client' } } : {}), ...(youtube ? { youtube: YOUTUBE_CLIENT } : {}) },
    ...options.overrides,
  });
  const address = app.app.http!.server.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const spotifyAccount = await connectByRedirect(baseUrl, 'spotify');
  const tidalAccount = await connectByRedirect(baseUrl, 'tidal');
  const deezerAccount = deezer === undefined ? undefined : await connectByRedirect(baseUrl, 'deezer');
  const ytmusicAccount = ytmusic === undefined ? undefined : await connectByDevice(baseUrl);
  const youtubeAccount = youtube === undefined ? undefined : await connectByRedirect(baseUrl, 'youtube');
  const api: MigrationHarness['api'] = async (path, init = {}) => {
    const response = await fetch(`${baseUrl}${path}`, { ...init, headers: { ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers } });
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    return { status: response.status, json, text, headers: response.headers };
  };
  return {
    spotify,
    tidal,
    spotifyUser,
    tidalUser,
    spotifyAccount,
    tidalAccount,
    ...(deezer ? { deezer, deezerUser, deezerAccount } : {}),
    ...(ytmusic ? { ytmusic, ytmusicUser, ytmusicAccount } : {}),
    ...(youtube ? { youtube, youtubeUser, youtubeAccount, youtubeClientId: YOUTUBE_CLIENT.client_id } : {}),
    app,
    baseUrl,
    api,
    async waitForJob(jobId, done, timeoutMs = 60_000) {
      const started = Date.now();
      let last: JobJson | null = null;
      while (Date.now() - started < timeoutMs) {
        const { json } = await api(`/api/migrations/${jobId}`);
        last = json as JobJson;
        if (done(last)) return last;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      throw new Error(`migration ${jobId} did not reach the expected state in ${timeoutMs} ms; last: ${JSON.stringify(last)}`);
    },
    async close() {
      await app.close();
      await plugins.remove();
      await spotify.close();
      await tidal.close();
      await deezer?.close();
      await ytmusic?.close();
      await youtube?.close();
    },
  };
}
