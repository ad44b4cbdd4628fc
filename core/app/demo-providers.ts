import type { DemoPlaylistEditor } from '../../test/fakes/kit/demo-edit.ts';
import type { Logger } from '../logging/logger.ts';
import { DEMO_CLIENT_ID, type ProviderClients } from '../services/connections/provider-clients.ts';

/**
 * Demo mode (`OPL_DEMO=1`): the fake provider servers of the test suite (Spotify, TIDAL, YouTube
 * Music, Apple Music, Deezer) run inside the engine with seeded, made-up libraries, and the real
 * provider plugins talk to them through origin overrides. Nothing reaches a real service; every
 * provider, account and page says "demo". The fakes live in `test/fakes/` and are loaded only
 * when demo mode is on. Each fake approves sign-in as its demo listener (Apple Music: the user
 * submits the demo music user token the page shows as help).
 */

export interface DemoProviders {
  readonly originOverrides: Record<string, string>;
  readonly providers: ReadonlySet<string>;
  readonly clients: ProviderClients;
  /** Each demo provider's playlist editor (demo mode's "change the source"), by provider. */
  readonly editors: ReadonlyMap<string, DemoPlaylistEditor>;
  close(): Promise<void>;
}

interface DemoFake {
  readonly provider: string;
  readonly originOverrides: Readonly<Record<string, string>>;
  readonly demoEdit?: DemoPlaylistEditor['demoEdit'];
  close(): Promise<void>;
}

/** How the engine registers itself at a demo fake: the shared demo client id, or what the fake needs. */
type DemoClient = ProviderClients[string];

const DEMO_FAKES: readonly { load: () => Promise<DemoFake & { developerKey?: { team_id: string; key_id: string; private_key_pem: string } }> }[] = [
  { load: async () => (await import('../../test/fakes/spotify/index.ts')).startFakeSpotify({ demo: true }) },
  { load: async () => (await import('../../test/fakes/tidal/index.ts')).startFakeTidal({ demo: true }) },
  { load: async () => (await import('../../test/fakes/ytmusic/index.ts')).startFakeYtmusic({ demo: true }) },
  { load: async () => (await import('../../test/fakes/applemusic/index.ts')).startFakeAppleMusic({ demo: true }) },
  { load: async () => (await import('../../test/fakes/deezer/index.ts')).startFakeDeezer({ demo: true }) },
];

export async function startDemoProviders(logger: Logger): Promise<DemoProviders> {
  const started: (DemoFake & { developerKey?: { team_id: string; key_id: string; private_key_pem: string } })[] = [];
  try {
    for (const fake of DEMO_FAKES) started.push(await fake.load());
  } catch (error) {
    await Promise.allSettled(started.map((fake) => fake.close()));
    throw new Error(`demo mode: the demo providers could not start (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  }
  const originOverrides: Record<string, string> = {};
  const clients: Record<string, DemoClient> = {};
  for (const fake of started) {
    Object.assign(originOverrides, fake.originOverrides);
    clients[fake.provider] = fake.developerKey ? { developer_key: { ...fake.developerKey } } : { client_id: DEMO_CLIENT_ID };
  }
  logger.warn({ providers: started.map((fake) => fake.provider) }, 'DEMO MODE: simulated providers with made-up libraries; no real service is contacted');
  return {
    originOverrides,
    providers: new Set(started.map((fake) => fake.provider)),
    clients,
    editors: new Map(started.flatMap((fake) => (fake.demoEdit ? [[fake.provider, { demoEdit: fake.demoEdit }] as const] : []))),
    async close() {
      await Promise.allSettled(started.map((fake) => fake.close()));
    },
  };
}
