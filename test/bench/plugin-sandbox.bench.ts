import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import type { ProviderContext, ProviderPluginDefinition } from '@opl/plugin-sdk';
import { createHostFetch, createResolvingAgent, createSandbox, type Sandbox } from '@opl/plugin-sdk/sandbox';
import { manifestSchema, OPERATIONS, type Manifest } from '@opl/plugin-sdk/schemas';
import { PluginHost } from '../../core/plugin-host/index.ts';
import { measure, median, round } from './bench-stats.ts';

/**
 * Plugin sandbox benchmarks: isolate cold start, a host↔sandbox round trip, a 10,000-track page
 * crossing the boundary, and reading a 10,000-track playlist (100 pages of 100 from a fake API in
 * another process) through a sandboxed provider compared with the same plugin code called in
 * process with the same ctx shape on plain undici. Every figure is a median of several runs;
 * ratios compare measurements made in this same run.
 */

const PLAYLIST_SIZE = 10_000;
const PAGE = 100;
const HOST = 'api.bench.test';

function pluginCode(origin: string): string {
  return `
const ORIGIN = ${JSON.stringify(origin)};
function toTrack(track, position) {
  const artists = track.artists.map((artist) => artist.name);
  return {
    id: track.id, title: track.name, artist: artists.join(', '), artists, album: track.album.name,
    duration_s: track.duration_ms / 1000, isrc: track.external_ids.isrc, release_date: track.album.release_date,
    track_number: track.track_number, disc_number: track.disc_number, explicit: track.explicit,
    added_at: track.added_at, position, provider_uris: { bench: track.uri }, provider_metadata: { album_id: track.album.id },
  };
}
function apiTrack(index) {
  return {
    id: 'trk' + index, name: 'Track number ' + index,
    artists: [{ id: 'art' + (index % 97), name: 'Artist ' + (index % 97) }, { id: 'art-feat', name: 'Featured Singer' }],
    album: { id: 'alb' + (index % 503), name: 'Album ' + (index % 503), release_date: '2019-05-17' },
    duration_ms: 180000 + (index % 120) * 1000, explicit: index % 7 === 0, external_ids: { isrc: 'USABC19' + String(index).padStart(5, '0') },
    track_number: (index % 12) + 1, disc_number: 1, added_at: '2024-01-02T03:04:05Z', uri: 'fake:track:trk' + index,
  };
}
let bigPage = null;
export default {
  mark: 'opl.plugin/v1',
  kind: 'provider',
  operations: {
    testConnection() {
      return { ok: true, account_id: 'bench' };
    },
    async listPlaylistItems(input, ctx) {
      const path = input.cursor ?? '/v1/playlists/' + encodeURIComponent(input.playlist_id) + '/tracks?offset=0&limit=' + input.limit;
      const response = await ctx.fetch(ORIGIN + path);
      if (!response.ok) throw new Error('the API answered ' + response.status);
      const page = response.json();
      return { items: page.items.map((track, index) => toTrack(track, page.offset + index)), next_cursor: page.next, total: page.total, snapshot_id: page.snapshot_id };
    },
    listLikedTracks() {
      if (bigPage === null) bigPage = { items: Array.from({ length: ${PLAYLIST_SIZE} }, (_, index) => toTrack(apiTrack(index), index)), next_cursor: null, total: ${PLAYLIST_SIZE} };
      return bigPage;
    },
  },
};`;
}

function benchManifest(origin: string, id = 'bench.provider'): Manifest {
  return manifestSchema.parse({
    manifest_version: 1,
    id,
    name: 'Benchmark provider',
    version: '1.0.0',
    kind: 'provider',
    publisher: { name: 'Benchmarks', key_id: 'bench-key' },
    engines: { opl: '*' },
    provider: {
      name: 'bench',
      display_name: 'Bench',
      capabilities: ['READ_PLAYLISTS', 'READ_TRACKS', 'READ_LIBRARY'],
      attributes: { has_isrc: true, official: false },
      write_constraints: {},
      auth: [{ kind: 'LONG_LIVED_TOKEN' }],
    },
    network: [{ origin, path_prefix: '/v1/', methods: ['GET'], reason: 'the fake API' }],
    files: { 'plugin.js': '0'.repeat(64) },
  });
}

async function startServerProcess(pageLatencyMs = 0): Promise<{ port: number; stop: () => Promise<void> }> {
  const child = fork(fileURLToPath(new URL('./echo-server.process.ts', import.meta.url)), [String(PLAYLIST_SIZE), String(pageLatencyMs)], { execArgv: ['--no-node-snapshot'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
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

/** The ctx a plugin gets, built in process on plain undici: the baseline without any sandbox. */
function inProcessContext(dispatcher: Agent): ProviderContext {
  return {
    async fetch(url, init) {
      const response = await request(url, { method: init?.method ?? 'GET', headers: { authorization: 'Bearer bench-token', ...init?.headers }, body: init?.body ?? null, dispatcher });
      const bytes = new Uint8Array(await response.body.arrayBuffer());
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
      let text: string | null = null;
      const readText = () => (text ??= new TextDecoder().decode(bytes));
      return { status: response.statusCode, ok: response.statusCode >= 200 && response.statusCode < 300, headers, url, text: readText, json: () => JSON.parse(readText()) as unknown, bytes: () => new Uint8Array(bytes) };
    },
    log: { debug() {}, info() {}, warn() {}, error() {} },
    decodeText: (bytes, encoding) => new TextDecoder(encoding ?? 'utf-8').decode(bytes),
    encodeText: (text) => new TextEncoder().encode(text),
    now: () => new Date().toISOString(),
    account: { id: 'bench-account', label: null },
    credential: null,
  };
}

type PageReader = (cursor: string | null) => Promise<{ items: unknown[]; next_cursor: string | null }>;
type Summary = Awaited<ReturnType<typeof measure>>;

async function readWholePlaylist(readPage: PageReader): Promise<number> {
  let cursor: string | null = null;
  let count = 0;
  do {
    const page = await readPage(cursor);
    count += page.items.length;
    cursor = page.next_cursor;
  } while (cursor !== null);
  if (count !== PLAYLIST_SIZE) throw new Error(`read ${count} tracks instead of ${PLAYLIST_SIZE}`);
  return count;
}

/** Reads the whole playlist through each reader, interleaved run by run so machine load drifts hit them alike. */
async function compareFullReads(readers: Record<string, PageReader>, runs: number): Promise<Record<string, Summary>> {
  for (const reader of Object.values(readers)) await readWholePlaylist(reader); // warm every path first
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(readers).map((name) => [name, []]));
  for (let runIndex = 0; runIndex < runs; runIndex++) {
    for (const [name, reader] of Object.entries(readers)) {
      const started = performance.now();
      await readWholePlaylist(reader);
      samples[name]!.push(performance.now() - started);
    }
  }
  return Object.fromEntries(
    Object.entries(samples).map(([name, values]) => [name, { median_ms: round(median(values)), min_ms: round(Math.min(...values)), max_ms: round(Math.max(...values)), runs: values.length }]),
  );
}

/** The plugin's own code, imported in process (the baseline has no sandbox at all). */
async function inProcessOperation(code: string): Promise<NonNullable<ProviderPluginDefinition['operations']['listPlaylistItems']>> {
  const definition = ((await import(`data:text/javascript,${encodeURIComponent(code)}`)) as { default: ProviderPluginDefinition }).default;
  return definition.operations.listPlaylistItems!;
}

export async function run(): Promise<Record<string, unknown>> {
  const server = await startServerProcess();
  const servers = [server];
  const origin = `http://${HOST}:${server.port}`;
  const manifest = benchManifest(origin);
  const code = pluginCode(origin);
  const limits = { memoryMb: 256, callTimeoutMs: 60_000, cpuTimeMs: 60_000 };
  const resolver = { [HOST]: '127.0.0.1' };
  const dispatcher = createResolvingAgent(resolver);
  const hostFetch = createHostFetch({ manifest, dispatcher });
  const context = { account: { id: 'bench-account', label: null }, credentials: [{ origin, headers: { authorization: 'Bearer bench-token' } }] };
  const host = new PluginHost({ limits, hostResolver: resolver });
  const sandboxes: Sandbox[] = [];
  const open = async () => {
    const sandbox = await createSandbox({ manifest, code, limits, hostFetch, log: () => undefined });
    sandboxes.push(sandbox);
    return sandbox;
  };

  try {
    // 1. Cold start: a new isolate with the plugin compiled, evaluated and checked.
    const coldSandbox = await measure(20, async () => (await open()).dispose());
    const childStart = await measure(3, async () => {
      const fresh = new PluginHost({ limits, hostResolver: resolver });
      await fresh.start();
      await fresh.close();
    }, 0);
    await host.start();
    const coldHostLoad = await measure(10, () => host.load({ manifest, code }));

    // 2. Round trip of a trivial call.
    const sandbox = await open();
    const CALLS = 200;
    const roundTripSandbox = await measure(7, async () => {
      for (let index = 0; index < CALLS; index++) await sandbox.call('testConnection', {}, context);
    });
    const roundTripHost = await measure(7, async () => {
      for (let index = 0; index < CALLS; index++) await host.call('bench.provider', 'testConnection', {}, context);
    });
    const ping = await measure(7, async () => {
      for (let index = 0; index < CALLS; index++) await host.pingMs();
    });

    // 3. A 10,000-track page out of the sandbox (built once inside the isolate, then cached).
    const bigPageSandbox = await measure(7, () => sandbox.call('listLikedTracks', { limit: 10_000 }, context));
    const bigPageHost = await measure(7, () => host.call('bench.provider', 'listLikedTracks', { limit: 10_000 }, context));
    const page = await sandbox.call('listLikedTracks', { limit: 10_000 }, context);
    const pageJson = JSON.stringify(page);
    // What the contract itself costs, without any boundary: JSON text in, validated page out.
    const bigPageValidationOnly = await measure(7, async () => OPERATIONS.listLikedTracks.output.parse(JSON.parse(pageJson)));

    // 4. Reading a 10,000-track playlist, 100 per page: sandboxed vs the same code in process.
    const baselineAgent = new Agent({ connect: { lookup: (_hostname, options, callback) => (options.all ? callback(null, [{ address: '127.0.0.1', family: 4 }]) : callback(null, '127.0.0.1', 4)) } });
    const ctx = inProcessContext(baselineAgent);
    const input = (cursor: string | null) => ({ playlist_id: 'bench', cursor, limit: PAGE });
    const listItems = await inProcessOperation(code);
    const fullRead = await compareFullReads(
      {
        in_process: async (cursor) => (await listItems(input(cursor), ctx)) as { items: unknown[]; next_cursor: string | null },
        in_process_validated: async (cursor) => OPERATIONS.listPlaylistItems.output.parse(await listItems(input(cursor), ctx)) as { items: unknown[]; next_cursor: string | null },
        sandbox: (cursor) => sandbox.call('listPlaylistItems', input(cursor), context),
        plugin_host: (cursor) => host.call('bench.provider', 'listPlaylistItems', input(cursor), context),
      },
      7,
    );

    // 5. The same read against an API that takes 10 ms per page (still faster than real providers).
    const slowServer = await startServerProcess(10);
    servers.push(slowServer);
    const slowOrigin = `http://${HOST}:${slowServer.port}`;
    const slowCode = pluginCode(slowOrigin);
    await host.load({ manifest: benchManifest(slowOrigin, 'bench.provider.slow'), code: slowCode });
    const slowListItems = await inProcessOperation(slowCode);
    const slowContext = { ...context, credentials: [{ origin: slowOrigin, headers: { authorization: 'Bearer bench-token' } }] };
    const slowRead = await compareFullReads(
      {
        in_process_validated: async (cursor) => OPERATIONS.listPlaylistItems.output.parse(await slowListItems(input(cursor), ctx)) as { items: unknown[]; next_cursor: string | null },
        plugin_host: (cursor) => host.call('bench.provider.slow', 'listPlaylistItems', input(cursor), slowContext),
      },
      3,
    );
    await baselineAgent.close();

    const ratio = (name: string) => round(fullRead[name]!.median_ms / fullRead.in_process!.median_ms, 3);
    return {
      isolate_cold_start: { sandbox: coldSandbox, plugin_host_load: coldHostLoad, plugin_host_process_start: childStart },
      call_round_trip: {
        calls_per_run: CALLS,
        sandbox_us_per_call: round((roundTripSandbox.median_ms / CALLS) * 1_000, 1),
        plugin_host_us_per_call: round((roundTripHost.median_ms / CALLS) * 1_000, 1),
        plugin_host_ping_us: round((ping.median_ms / CALLS) * 1_000, 1),
      },
      page_10000_tracks_out: {
        json_bytes: pageJson.length,
        sandbox: bigPageSandbox,
        plugin_host: bigPageHost,
        validation_only_in_process: bigPageValidationOnly,
      },
      full_read_10000_tracks: {
        pages: PLAYLIST_SIZE / PAGE,
        ...fullRead,
        ratio_sandbox_vs_in_process: ratio('sandbox'),
        ratio_plugin_host_vs_in_process: ratio('plugin_host'),
        ratio_sandbox_vs_in_process_validated: round(fullRead.sandbox!.median_ms / fullRead.in_process_validated!.median_ms, 3),
        ratio_plugin_host_vs_in_process_validated: round(fullRead.plugin_host!.median_ms / fullRead.in_process_validated!.median_ms, 3),
        goal_ratio: 1.05,
      },
      full_read_10000_tracks_10ms_api: {
        pages: PLAYLIST_SIZE / PAGE,
        page_latency_ms: 10,
        ...slowRead,
        ratio_plugin_host_vs_in_process_validated: round(slowRead.plugin_host!.median_ms / slowRead.in_process_validated!.median_ms, 3),
        goal_ratio: 1.05,
      },
    };
  } finally {
    for (const sandbox of sandboxes) sandbox.dispose();
    await host.close();
    await hostFetch.close();
    await dispatcher.close();
    for (const running of servers) await running.stop();
  }
}
