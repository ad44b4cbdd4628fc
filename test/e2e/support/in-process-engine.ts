import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type App } from '../../../core/app/index.ts';
import { loadConfig } from '../../../core/config/index.ts';
import { startFakeSpotify, type FakeSpotifyServer } from '../../fakes/spotify/index.ts';
import { connectByRedirect } from '../../integration/migrations/migration-harness.ts';
import { firstPartyPlugins } from '../../integration/support/first-party-plugins.ts';
import { inject } from 'vitest';
import { createSharedDatabase, type SharedDatabase } from '../../support/shared-postgres.ts';
import '../../integration/support/provided-context.ts';

/** A provider fake the engine talks to instead of the real service. */
interface ProviderFake {
  readonly originOverrides: Readonly<Record<string, string>>;
}

export interface InProcessEngine {
  readonly app: App;
  /** Where the browser reaches it (`http://127.0.0.1:<port>`). */
  readonly baseUrl: string;
  /** Stops the engine and removes its plugins and data directory. */
  stop(): Promise<void>;
}

/**
 * A real engine in the test's own process (HTTP, a database of its own on the run's shared
 * PostgreSQL server, the signed first-party plugins in their sandboxes) whose providers are the
 * test's stateful fakes, for browser tests that reach into it (quarantine a plugin, fill its
 * temporary directory) or steer the fakes.
 * `providers` names the fakes' provider keys; each gets the demo OAuth client.
 */
export async function startInProcessEngine(options: {
  /** Names the data directory (`opl-e2e-<name>-…`). */
  readonly name: string;
  readonly fakes: readonly ProviderFake[];
  readonly providers: readonly string[];
  readonly worker?: boolean;
  readonly env?: Readonly<Record<string, string>>;
}): Promise<InProcessEngine> {
  const plugins = await firstPartyPlugins();
  const dataDir = await mkdtemp(join(tmpdir(), `opl-e2e-${options.name}-`));
  let database: SharedDatabase | undefined;
  let app: App | undefined;
  const stop = async () => {
    await app?.stop();
    await database?.drop();
    await plugins.remove();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    database = await createSharedDatabase(inject('oplTestAdminUrl'), 'opl_e2e');
    const config = loadConfig({
      OPL_DATA_DIR: dataDir,
      OPL_HOST: '127.0.0.1',
      OPL_PORT: '0',
      OPL_DATABASE_URL: database.url,
      OPL_LOG_LEVEL: 'silent',
      ...options.env,
      ...plugins.env,
    });
    app = await createApp(
      config,
      { http: true, worker: options.worker ?? false },
      {
        providerOriginOverrides: Object.assign({}, ...options.fakes.map((fake) => fake.originOverrides)) as Record<string, string>,
        providerClients: Object.fromEntries(options.providers.map((provider) => [provider, { client_id: 'opl-demo-client' }])),
        ...(options.worker ? { workerPollingIntervalSeconds: 0.5 } : {}),
      },
    );
    const baseUrl = (await app.start())!.replace('localhost', '127.0.0.1');
    return { app, baseUrl, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

export interface SpotifyListenerEngine extends InProcessEngine {
  readonly spotify: FakeSpotifyServer;
}

/**
 * The Export page tests' setting: Spotify's fake with one listener whose library holds
 * `playlists`, an engine in this process whose Spotify it is, and that account connected the way
 * a user connects it (the authorization redirect). `stop()` also closes the fake.
 */
export async function startSpotifyListenerEngine(options: {
  readonly name: string;
  readonly displayName: string;
  readonly playlists: readonly { readonly name: string; readonly trackKeys: readonly string[] }[];
  readonly env?: Readonly<Record<string, string>>;
}): Promise<SpotifyListenerEngine> {
  const spotify = await startFakeSpotify();
  let engine: InProcessEngine | undefined;
  const stop = async () => {
    await engine?.stop();
    await spotify.close();
  };
  try {
    const listener = spotify.createAccount({ displayName: options.displayName, library: { playlists: options.playlists.map((playlist) => ({ name: playlist.name, trackKeys: [...playlist.trackKeys] })) } });
    spotify.setAuthorizeUser(listener.userId);
    engine = await startInProcessEngine({ name: options.name, fakes: [spotify], providers: ['spotify'], ...(options.env ? { env: options.env } : {}) });
    await connectByRedirect(engine.baseUrl, 'spotify');
    return { app: engine.app, baseUrl: engine.baseUrl, spotify, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
