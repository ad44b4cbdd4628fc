import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { FakeAccountTokens } from '../../../fakes/fake-provider.ts';
import type { SeedLibrary } from '../../../fakes/seed-catalog.ts';
import { startFakeSpotify, type FakeSpotifyServer } from '../../../fakes/spotify/index.ts';
import { startFakeTidal, type FakeTidal } from '../../../fakes/tidal/index.ts';
import { firstPartyPlugins } from '../../support/first-party-plugins.ts';
import { startTestApp, type TestApp } from '../../support/test-app.ts';
import type { JobJson } from '../migration-harness.ts';
import { startWorker, type WorkerProcess } from './worker-process.ts';

/**
 * The setting of the crash and concurrency tests: Spotify (fake) → TIDAL (fake), an HTTP-only
 * engine in the test process that connects the accounts and creates jobs, and worker-only engine
 * processes on the same database that the test starts, kills and restarts.
 */

export interface SplitHarness {
  spotify: FakeSpotifyServer;
  tidal: FakeTidal;
  spotifyUser: FakeAccountTokens;
  tidalUser: FakeAccountTokens;
  spotifyAccount: string;
  tidalAccount: string;
  app: TestApp;
  api(path: string, init?: RequestInit): Promise<{ status: number; json: unknown }>;
  /** The source playlists' ids by name. */
  playlistIds: Record<string, string>;
  /** Creates a Spotify → TIDAL migration of one source playlist; returns the job id. */
  migrate(playlistName: string): Promise<string>;
  job(jobId: string): Promise<JobJson>;
  /** A worker process on this harness's database (not yet ready: await `.ready`; a standby one waits for `.go()`). */
  startWorker(options?: { standby?: boolean }): WorkerProcess;
  close(): Promise<void>;
}

async function connect(baseUrl: string, provider: string): Promise<string> {
  const begin = await fetch(`${baseUrl}/api/auth/${provider}/begin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  expect(begin.status).toBe(200);
  const challenge = (await begin.json()) as { redirect_url: string };
  const authorize = await fetch(challenge.redirect_url, { redirect: 'manual' });
  const landed = await fetch(authorize.headers.get('location')!, { redirect: 'manual' });
  const match = /connected=([0-9a-f-]{36})/.exec(landed.headers.get('location') ?? '');
  expect(match, `connecting ${provider}: ${landed.headers.get('location')}`).not.toBeNull();
  return match![1]!;
}

export async function startSplitHarness(options: { spotifyLibrary: SeedLibrary; leaseSeconds: number; sliceSeconds: number }): Promise<SplitHarness> {
  const spotify = await startFakeSpotify();
  const tidal = await startFakeTidal();
  const spotifyUser = spotify.createAccount({ displayName: 'Source Listener', library: options.spotifyLibrary });
  const tidalUser = tidal.createAccount({ displayName: 'Target Listener', library: {} });
  spotify.setAuthorizeUser(spotifyUser.userId);
  tidal.setAuthorizeUser(tidalUser.userId);
  const plugins = await firstPartyPlugins();
  const workerData = await mkdtemp(join(tmpdir(), 'opl-test-worker-data-'));
  // One vault key for every process: the workers must decrypt the credentials the API stored.
  const vaultKey = randomBytes(32).toString('base64');
  const originOverrides = { ...spotify.originOverrides, ...tidal.originOverrides };
  const clients = { spotify: { client_id: 'opl-demo-client' }, tidal: { client_id: 'opl-demo-client' } };
  const app = await startTestApp({ ...plugins.env, OPL_VAULT_KEY: vaultKey }, { http: true, worker: false }, { providerOriginOverrides: originOverrides, providerClients: clients });
  const address = app.app.http!.server.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const spotifyAccount = await connect(baseUrl, 'spotify');
  const tidalAccount = await connect(baseUrl, 'tidal');
  const api: SplitHarness['api'] = async (path, init = {}) => {
    const response = await fetch(`${baseUrl}${path}`, { ...init, headers: { ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers } });
    const text = await response.text();
    return { status: response.status, json: text ? (JSON.parse(text) as unknown) : null };
  };
  const listed = await api(`/api/playlists?account_id=${spotifyAccount}`);
  const playlistIds = Object.fromEntries((listed.json as { playlists: { id: string; name: string }[] }).playlists.map((playlist) => [playlist.name, playlist.id]));
  const workers = new Set<WorkerProcess>();
  return {
    spotify,
    tidal,
    spotifyUser,
    tidalUser,
    spotifyAccount,
    tidalAccount,
    app,
    api,
    playlistIds,
    async migrate(playlistName) {
      const { status, json } = await api('/api/migrations', {
        method: 'POST',
        body: JSON.stringify({ source_account_id: spotifyAccount, target_provider: 'tidal', target_account_id: tidalAccount, acknowledge_warnings: true, selection: { playlist_ids: [playlistIds[playlistName]] } }),
      });
      expect(status, JSON.stringify(json)).toBe(202);
      return (json as { id: string }).id;
    },
    async job(jobId) {
      return (await api(`/api/migrations/${jobId}`)).json as JobJson;
    },
    startWorker(startOptions = {}) {
      const worker = startWorker({
        standby: startOptions.standby ?? false,
        env: {
          ...plugins.env,
          OPL_DATABASE_URL: app.databaseUrl,
          OPL_DATA_DIR: workerData,
          OPL_VAULT_KEY: vaultKey,
          OPL_LOG_LEVEL: 'info',
        },
        originOverrides,
        clients,
        leaseSeconds: options.leaseSeconds,
        sliceSeconds: options.sliceSeconds,
      });
      workers.add(worker);
      void worker.exited.then(() => workers.delete(worker));
      return worker;
    },
    async close() {
      await Promise.all([...workers].map((worker) => worker.kill()));
      await app.close();
      await plugins.remove();
      await rm(workerData, { recursive: true, force: true });
      await spotify.close();
      await tidal.close();
    },
  };
}
