import { fork } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Pacing } from '@opl/plugin-sdk';
import { createHostFetch, createResolvingAgent, createSandbox } from '@opl/plugin-sdk/sandbox';
import { manifestSchema, pacingSchema } from '@opl/plugin-sdk/schemas';
import { RateLimiter, type Transaction } from '../../core/services/pacing/rate-limiter.ts';
import { startBenchEngine, stopBenchEngine } from './bench-engine.ts';
import { round } from './bench-stats.ts';

/**
 * The central rate limiter under a real provider's pacing: a sandboxed provider plugin makes
 * `CALLS` requests to a fake API (in its own process) that answers each after 50 ms, four calls in
 * flight at a time (the migration's matching concurrency), every request waiting first in the
 * engine's rate limiter on a real PostgreSQL (one per embedded engine, as the workers share it).
 * The provider's latency and the engine's work are hidden behind the pacing only when the total
 * time stays near the rate-limit floor: the calls divided by the allowed rate (the issue's
 * definition; goal ≤ 1.15×), reported next to the stricter floor that lets the burst go at once.
 * The pacings are read from the first-party Spotify and TIDAL manifests.
 *
 * `npm run bench -- pacing`.
 */

const CALLS = 60;
const LATENCY_MS = 50;
const IN_FLIGHT = 4;
const GOAL_RATIO = 1.15;
const HOST = 'api.pacing.test';
const PROVIDERS = ['spotify', 'tidal'] as const;

const CODE = `export default { mark: 'opl.plugin/v1', kind: 'provider', operations: {
  testConnection() { return { ok: true, account_id: 'bench' }; },
  async listPlaylistItems(input, ctx) {
    const response = await ctx.fetch(input.cursor);
    if (!response.ok) throw new Error('the API answered ' + response.status);
    const page = response.json();
    return { items: [], next_cursor: null, total: page.total };
  },
} };`;

async function providerPacing(name: string): Promise<Pacing> {
  const source = JSON.parse(await readFile(fileURLToPath(new URL(`../../plugins/providers/${name}/plugin.json`, import.meta.url)), 'utf8')) as { provider: { pacing: unknown } };
  return pacingSchema.parse(source.provider.pacing);
}

/** The echo API in its own process, answering each playlist page after `latencyMs`. */
async function startFakeApi(latencyMs: number): Promise<{ port: number; stop: () => Promise<void> }> {
  const child = fork(fileURLToPath(new URL('./echo-server.process.ts', import.meta.url)), ['1', String(latencyMs)], { execArgv: ['--no-node-snapshot'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`the fake API process exited (${code})`)));
  });
  return {
    port,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.disconnect();
      await exited;
    },
  };
}

export async function run(): Promise<Record<string, unknown>> {
  const api = await startFakeApi(LATENCY_MS);
  const engine = await startBenchEngine('pacing', []);
  try {
    const { orm } = engine.app.services.database;
    let transactions = 0;
    const transaction: Transaction = (work) => {
      transactions += 1;
      return orm.em.fork().transactional((em) => work((statement) => em.execute(statement.text, statement.values)));
    };
    const origin = `http://${HOST}:${api.port}`;
    const resolver = { [HOST]: '127.0.0.1' };
    const results: Record<string, unknown> = {};
    for (const provider of PROVIDERS) {
      const pacing = await providerPacing(provider);
      const limiter = new RateLimiter({ transaction, pacingFor: () => pacing });
      const manifest = manifestSchema.parse({
        manifest_version: 1,
        id: `bench.pacing.${provider}`,
        name: 'Pacing benchmark provider',
        version: '1.0.0',
        kind: 'provider',
        publisher: { name: 'Benchmarks', key_id: 'bench-key' },
        engines: { opl: '*' },
        provider: { name: `pace${provider}`, display_name: 'Pace', capabilities: ['READ_PLAYLISTS', 'READ_TRACKS'], attributes: { has_isrc: true, official: true }, write_constraints: {}, pacing, auth: [{ kind: 'LONG_LIVED_TOKEN' }] },
        network: [{ origin, path_prefix: '/v1/', methods: ['GET'], reason: 'the fake API' }],
        files: { 'plugin.js': '0'.repeat(64) },
      });
      const sandbox = await createSandbox({
        manifest,
        code: CODE,
        limits: { memoryMb: 128, callTimeoutMs: 600_000, cpuTimeMs: 60_000 },
        hostFetch: createHostFetch({ manifest, dispatcher: createResolvingAgent(resolver) }),
        acquire: (permit) => limiter.acquire(permit),
        log: () => undefined,
      });
      // The account is new to the bucket, so the run starts with a full burst, as a new migration does.
      const context = { account: { id: `pacing-${provider}-${Date.now()}`, label: null }, credentials: [] };
      try {
        transactions = 0;
        let next = 0;
        const started = performance.now();
        const worker = async () => {
          while (next < CALLS) {
            next += 1;
            await sandbox.call('listPlaylistItems', { playlist_id: 'p', cursor: `${origin}/v1/playlists/p/tracks?offset=0&limit=1`, limit: 1 }, context);
          }
        };
        await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
        const totalMs = performance.now() - started;
        const floorMs = (CALLS / pacing.requests_per_second) * 1000;
        const burstFloorMs = (Math.max(0, CALLS - pacing.burst) / pacing.requests_per_second) * 1000 + LATENCY_MS;
        results[provider] = {
          pacing: { requests_per_second: pacing.requests_per_second, burst: pacing.burst },
          calls: CALLS,
          total_ms: round(totalMs),
          rate_limit_floor_ms: round(floorMs),
          ratio_vs_floor: round(totalMs / floorMs, 3),
          meets_goal: totalMs / floorMs <= GOAL_RATIO,
          burst_floor_ms: round(burstFloorMs),
          ratio_vs_burst_floor: round(totalMs / burstFloorMs, 3),
          limiter_transactions: transactions,
        };
      } finally {
        sandbox.dispose();
      }
    }
    return { latency_ms: LATENCY_MS, in_flight: IN_FLIGHT, goal_ratio_vs_floor: GOAL_RATIO, providers: results };
  } finally {
    await stopBenchEngine(engine);
    await api.stop();
  }
}
