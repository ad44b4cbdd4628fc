import type { Logger } from '../logging/logger.ts';
import { DEMO_CLIENT_ID, type ProviderClients } from '../services/connections/provider-clients.ts';

/**
 * Demo mode (`OPL_DEMO=1`): the fake Spotify and TIDAL servers of the test suite run inside the
 * engine with seeded, made-up libraries, and the real provider plugins talk to them through origin
 * overrides. Nothing reaches a real service; every provider, account and page says "demo".
 * The fakes live in `test/fakes/` and are loaded only when demo mode is on.
 */

export interface DemoProviders {
  readonly originOverrides: Record<string, string>;
  readonly providers: ReadonlySet<string>;
  readonly clients: ProviderClients;
  close(): Promise<void>;
}

interface DemoFake {
  readonly provider: string;
  readonly originOverrides: Readonly<Record<string, string>>;
  close(): Promise<void>;
}

export async function startDemoProviders(logger: Logger): Promise<DemoProviders> {
  const started: DemoFake[] = [];
  try {
    const spotify = await import('../../test/fakes/spotify/index.ts');
    started.push(await spotify.startFakeSpotify({ demo: true }));
    const tidal = await import('../../test/fakes/tidal/index.ts');
    started.push(await tidal.startFakeTidal({ demo: true }));
  } catch (error) {
    await Promise.allSettled(started.map((fake) => fake.close()));
    throw new Error(`demo mode: the demo providers could not start (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  }
  const originOverrides: Record<string, string> = {};
  const clients: Record<string, { client_id: string }> = {};
  for (const fake of started) {
    Object.assign(originOverrides, fake.originOverrides);
    clients[fake.provider] = { client_id: DEMO_CLIENT_ID };
  }
  logger.warn({ providers: started.map((fake) => fake.provider) }, 'DEMO MODE: simulated providers with made-up libraries; no real service is contacted');
  return {
    originOverrides,
    providers: new Set(started.map((fake) => fake.provider)),
    clients,
    async close() {
      await Promise.allSettled(started.map((fake) => fake.close()));
    },
  };
}
