import type { Track } from '@opl/plugin-sdk';
import { trackSchema } from '@opl/plugin-sdk/schemas';
import { afterAll, beforeAll } from 'vitest';
import type { GraphTransaction, MatchService, MatchTarget } from '../../../core/services/matching/index.ts';
import { createPublisher, createTestRegistry, providerManifestSource, publishTestPlugin, type TestRegistry } from '../support/plugin-registry.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

export type TrackFields = Partial<Track> & { title: string; artist: string };
export const track = (fields: TrackFields): Track => trackSchema.parse({ artists: [fields.artist], ...fields });

/**
 * A provider whose searchTracks answers from a catalogue inside the plugin and counts its
 * searches per mode; testConnection reports the counts. Titles containing "throttle" or
 * "expired" make it throw RateLimited or AuthExpired, as a real adapter would.
 */
function searchingProviderCode(catalogue: readonly TrackFields[]): string {
  return `const CATALOGUE = ${JSON.stringify(catalogue.map((t) => ({ artists: [t.artist], ...t })))};
const counts = { isrc: 0, text: 0 };
function typed(type, message, retry) { const error = new Error(message); error.type = type; if (retry !== undefined) error.retryAfterSeconds = retry; return error; }
export default { mark: 'opl.plugin/v1', kind: 'provider', operations: {
  async testConnection() { return { ok: true, account_id: 'probe', display_name: JSON.stringify(counts) }; },
  async searchTracks(input) {
    counts[input.mode] += 1;
    const q = input.query;
    const title = (q.title || '').toLowerCase();
    if (title.includes('throttle')) throw typed('RateLimited', 'slow down', 30);
    if (title.includes('expired')) throw typed('AuthExpired', 'token expired');
    const found = input.mode === 'isrc'
      ? CATALOGUE.filter((t) => t.isrc && t.isrc === q.isrc)
      : CATALOGUE.filter((t) => title.length > 0 && t.title.toLowerCase().includes(title));
    return { candidates: found.slice(0, input.limit) };
  },
} };
`;
}

export const ALPHA: TrackFields[] = [{ id: 'a-strobe', title: 'Strobe', artist: 'deadmau5', album: 'For Lack of a Better Name', duration_s: 637 }];
export const BETA: TrackFields[] = [
  { id: 'b-strobe', title: 'Strobe', artist: 'deadmau5', album: 'For Lack of a Better Name', duration_s: 636 },
  { id: 'b-svefn', title: 'Svefn-g-englar', artist: 'Sigur Rós', album: 'Ágætis byrjun', duration_s: 604 },
  { id: 'b-hoppi', title: 'Hoppípolla', artist: 'Sigur Rós', album: 'Takk...', duration_s: 270 },
  { id: 'b-rare', title: 'Rare B-Side', artist: 'Obscure Band', album: 'Demos', duration_s: 200 },
  { id: 'b-local', title: 'Home Recording Song', artist: 'Local Artist', album: null, duration_s: 180 },
  { id: 'b-loveme', title: 'Love Me', artist: 'The 1975', album: 'I like it when you sleep', duration_s: 261 },
];
export const GAMMA: TrackFields[] = [
  { id: 'g-midnight', title: 'Midnight City', artist: 'M83', album: "Hurry Up, We're Dreaming", duration_s: 244, isrc: 'FRUM71100001' },
  { id: 'g-weightless', title: 'Weightless', artist: 'Marconi Union', album: 'Weightless', duration_s: 480, isrc: 'GBUM71200002' },
  { id: 'g-teardrop', title: 'Teardrop', artist: 'Massive Attack', album: 'Mezzanine', duration_s: 330 },
  { id: 'g-unfinished', title: 'Unfinished Sympathy', artist: 'Massive Attack', album: 'Blue Lines', duration_s: 308, isrc: 'GBAAA9100003' },
  // One recording on two releases: the album track and a compilation copy with the same ISRC.
  { id: 'g-hyper-album', title: 'Hyperballad', artist: 'Björk', album: 'Post', duration_s: 321, isrc: 'QZCOMP000001' },
  { id: 'g-hyper-comp', title: 'Hyperballad', artist: 'Björk', album: 'Greatest Hits', duration_s: 321, isrc: 'QZCOMP000001' },
];

/** What the match-service test files share: the engine, its match service and database access. */
export interface MatchingEnv {
  registry: TestRegistry;
  app: TestApp;
  matching: MatchService;
  execute: (statement: { text: string; values: unknown[] }) => Promise<Record<string, unknown>[]>;
  transaction: GraphTransaction;
}

export const target = (provider: 'alpha' | 'beta' | 'gamma', accountId = 'acct-A'): MatchTarget => ({ provider, pluginId: `com.example.${provider}`, accountId });

/**
 * Starts a real engine with three signed test providers (alpha: ISRC and text search, beta: text
 * only, gamma: ISRC and text) for the calling test file; the returned object is filled in its beforeAll.
 */
export function useMatchingApp(): MatchingEnv {
  const env = {} as MatchingEnv;
  beforeAll(async () => {
    const publisher = createPublisher('matching-publisher');
    const registry = await createTestRegistry([publisher]);
    const publish = (name: string, catalogue: TrackFields[], searchModes: string[]) =>
      publishTestPlugin(registry, {
        manifestSource: providerManifestSource(`com.example.${name}`, '1.0.0', publisher.keyId, {
          provider: {
            name,
            display_name: `Test ${name}`,
            capabilities: ['READ_PLAYLISTS', 'READ_TRACKS'],
            attributes: { has_isrc: true, official: true, search_modes: searchModes },
            write_constraints: {},
            auth: [{ kind: 'LONG_LIVED_TOKEN' }],
          },
        }),
        code: searchingProviderCode(catalogue),
        publisher,
      });
    await publish('alpha', ALPHA, ['isrc', 'text']);
    await publish('beta', BETA, ['text']);
    await publish('gamma', GAMMA, ['isrc', 'text']);
    env.registry = registry;
    const app = await startTestApp(registry.env);
    env.app = app;
    env.matching = app.app.services.matching;
    const connection = app.app.services.database.orm.em.getConnection();
    env.execute = (statement) => connection.execute<Record<string, unknown>[]>(statement.text, statement.values, 'all');
    env.transaction = (work) => app.app.services.database.orm.em.fork().transactional((em) => work((statement) => em.execute(statement.text, statement.values)));
  });

  afterAll(async () => {
    await env.app?.close();
    await env.registry?.cleanup();
  });
  return env;
}

/** A test provider's search counts (its testConnection reports them). */
export async function searchCounts(env: MatchingEnv, provider: string): Promise<{ isrc: number; text: number }> {
  const result = await env.app.app.services.plugins.host.call(`com.example.${provider}`, 'testConnection', {});
  return JSON.parse(result.display_name!) as { isrc: number; text: number };
}
