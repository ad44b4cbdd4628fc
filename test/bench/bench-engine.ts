import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Pacing } from '@opl/plugin-sdk';
import { createApp, type App } from '../../core/app/index.ts';
import { loadConfig } from '../../core/config/index.ts';
import { createLogger } from '../../core/logging/logger.ts';
import { createPublisher, createTestRegistry, providerManifestSource, publishTestPlugin, type TestRegistry } from '../integration/support/plugin-registry.ts';

/**
 * What the engine benchmarks (migration, sync, pacing) share: a real engine (embedded PostgreSQL,
 * pg-boss worker, HTTP API) loading the benchmark's own signed provider plugins, and the few calls
 * every such benchmark makes on it.
 */

/** The fastest pacing a manifest allows: the engine, not the provider's limit, is what is timed. */
export const FAST_PACING = { requests_per_second: 1_000, burst: 1_000, jitter: false, search_quota_cost: 1, write_quota_cost: 1, daily_quota: null };

export interface BenchPlugin {
  readonly id: string;
  /** The provider name (the API's and the migrations' `benchsrc`, `benchdst`, …). */
  readonly name: string;
  readonly capabilities: readonly string[];
  readonly code: string;
  readonly canMirror?: boolean;
  readonly pacing?: Omit<Pacing, 'quota'>;
}

export interface BenchEngine {
  readonly app: App;
  readonly baseUrl: string;
  readonly registry: TestRegistry;
  readonly dataDir: string;
}

function manifest(plugin: BenchPlugin, keyId: string): Record<string, unknown> {
  return providerManifestSource(plugin.id, '1.0.0', keyId, {
    provider: {
      ...(plugin.canMirror === undefined ? {} : { can_mirror: plugin.canMirror }),
      name: plugin.name,
      display_name: `Bench ${plugin.name}`,
      capabilities: plugin.capabilities,
      attributes: { has_isrc: true, official: true, search_modes: ['isrc', 'text'] },
      write_constraints: { max_add_batch: 100 },
      pacing: plugin.pacing ?? FAST_PACING,
      auth: [{ kind: 'LONG_LIVED_TOKEN' }],
    },
  });
}

/** A started engine with `plugins` published to its registry (signed by a benchmark publisher). */
export async function startBenchEngine(label: string, plugins: readonly BenchPlugin[]): Promise<BenchEngine> {
  const publisher = createPublisher('bench-publisher');
  const registry = await createTestRegistry([publisher]);
  for (const plugin of plugins) await publishTestPlugin(registry, { manifestSource: manifest(plugin, publisher.keyId), code: plugin.code, publisher });
  const dataDir = await mkdtemp(join(tmpdir(), `opl-bench-${label}-`));
  // The embedded server's port may be set: another engine on the machine may hold the default one.
  const port = process.env['OPL_EMBEDDED_DB_PORT'];
  const config = loadConfig({ OPL_DATA_DIR: dataDir, OPL_PORT: '0', OPL_LOG_LEVEL: 'silent', ...(port ? { OPL_EMBEDDED_DB_PORT: port } : {}), ...registry.env });
  const app = await createApp(config, { http: true, worker: true }, { logger: createLogger({ level: 'silent' }), workerPollingIntervalSeconds: 0.5 });
  const address = (await app.start()) ?? '';
  return { app, baseUrl: address.replace('0.0.0.0', '127.0.0.1'), registry, dataDir };
}

export async function stopBenchEngine(engine: BenchEngine): Promise<void> {
  await engine.app.stop();
  await engine.registry.cleanup();
  await rm(engine.dataDir, { recursive: true, force: true });
}

/** A call of the engine's HTTP API (POST when there is a body); answers the parsed JSON. */
export async function api(engine: BenchEngine, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${engine.baseUrl}${path}`, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${path}: HTTP ${response.status} ${text.slice(0, 500)}`);
  return text ? JSON.parse(text) : null;
}

/** Connects an account of `provider` through the API (the bench plugins take any long-lived token); its id. */
export async function connect(engine: BenchEngine, provider: string): Promise<string> {
  const begin = (await api(engine, `/api/auth/${provider}/begin`, {})) as { state: string };
  const done = (await api(engine, `/api/auth/${provider}/complete`, { state: begin.state, values: { token: `bench-token-${provider}` } })) as { account?: { id: string } };
  if (!done.account) throw new Error(`connecting ${provider}: ${JSON.stringify(done)}`);
  return done.account.id;
}

export type Calls = Record<string, number>;

/** The operations a bench plugin has counted (its `testConnection` answers them as its display name). */
export async function callCounts(engine: BenchEngine, pluginId: string): Promise<Calls> {
  const answer = await engine.app.services.plugins.host.call(pluginId, 'testConnection', {});
  return JSON.parse(answer.display_name!) as Calls;
}

export function delta(after: Calls, before: Calls): Calls {
  const changed: Calls = {};
  for (const [op, n] of Object.entries(after)) if (n > (before[op] ?? 0)) changed[op] = n - (before[op] ?? 0);
  return changed;
}

export const sum = (calls: Calls) => Object.values(calls).reduce((total, n) => total + n, 0);
