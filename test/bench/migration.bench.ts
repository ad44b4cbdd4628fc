import { api, callCounts, connect, delta, FAST_PACING, startBenchEngine, stopBenchEngine, sum, type BenchEngine, type Calls } from './bench-engine.ts';
import { median, round } from './bench-stats.ts';

/**
 * Migration engine benchmarks, on a real engine (embedded PostgreSQL, pg-boss worker, sandboxed
 * plugins) with two zero-latency providers whose APIs live inside their plugins and whose pacing
 * is the fastest a manifest allows:
 *
 * 1. Engine overhead per track: a 10,000-track playlist migrated through the HTTP API, next to a
 *    baseline made of the same provider calls issued straight to the plugin host (read every
 *    page, one ISRC search per song, create the playlist, add in batches) — no jobs, ledger,
 *    items or events. Both run in this process, one after the other, so the ratio compares
 *    measurements of the same machine state.
 * 2. Provider calls per track with a cold identity graph (first migration of the songs) and a warm
 *    one (the same songs again, from another source playlist into a new target playlist): the
 *    warm run should need about zero searches.
 *
 * `npm run bench -- migration`; OPL_BENCH_MIGRATION_TRACKS overrides the size (default 10,000).
 */

const TRACKS = Number(process.env['OPL_BENCH_MIGRATION_TRACKS'] ?? 10_000);
const BASELINE_RUNS = 3;

/** Shared by both plugins: deterministic songs, and a count of every operation called. */
const COMMON = `
const calls = {};
function count(op) { calls[op] = (calls[op] || 0) + 1; }
function song(n, provider, prefix) {
  return {
    id: prefix + n, title: 'Song number ' + n, artist: 'Artist ' + (n % 97), artists: ['Artist ' + (n % 97)], album: 'Album ' + (n % 503),
    duration_s: 180 + (n % 120), isrc: 'USBEN24' + String(n).padStart(5, '0'), track_number: (n % 12) + 1, disc_number: 1,
    release_date: '2019-05-17', explicit: false, provider_uris: { [provider]: provider + ':track:' + prefix + n },
  };
}
function playlist(id, name, count, provider) {
  return { id, name, description: null, track_count: count, snapshot_id: 's' + count, is_owned: true, provider_uris: { [provider]: provider + ':playlist:' + id } };
}
`;

function sourceCode(tracks: number): string {
  return `${COMMON}
const TOTAL = ${tracks};
const LISTS = [playlist('cold', 'Cold Set', TOTAL, 'benchsrc'), playlist('warm', 'Warm Set', TOTAL, 'benchsrc')];
export default { mark: 'opl.plugin/v1', kind: 'provider', operations: {
  testConnection() { return { ok: true, account_id: 'bench-source-user', display_name: JSON.stringify(calls) }; },
  listPlaylists() { count('listPlaylists'); return { items: LISTS, next_cursor: null, total: LISTS.length }; },
  readPlaylist(input) { count('readPlaylist'); return LISTS.find((entry) => entry.id === input.playlist_id); },
  listPlaylistItems(input) {
    count('listPlaylistItems');
    const offset = Number(input.cursor || 0);
    const items = [];
    for (let n = offset; n < Math.min(TOTAL, offset + input.limit); n++) items.push({ ...song(n, 'benchsrc', 's'), position: n });
    const next = offset + items.length;
    return { items, next_cursor: next < TOTAL ? String(next) : null, total: TOTAL, snapshot_id: 's' + TOTAL };
  },
} };
`;
}

const TARGET_CODE = `${COMMON}
const lists = new Map();
const number = (text) => { const match = /(\\d+)$/.exec(text || ''); return match ? Number(match[1]) : null; };
export default { mark: 'opl.plugin/v1', kind: 'provider', operations: {
  testConnection() { return { ok: true, account_id: 'bench-target-user', display_name: JSON.stringify(calls) }; },
  searchTracks(input) {
    count(input.mode === 'isrc' ? 'searchTracks:isrc' : 'searchTracks:text');
    // ISRCs are USBEN24 + the song number in five digits.
    const n = input.mode === 'isrc' ? (/^USBEN24\\d{5}$/.test(input.query.isrc || '') ? Number(input.query.isrc.slice(-5)) : null) : number(input.query.title);
    return { candidates: n === null ? [] : [song(n, 'benchdst', 'd')] };
  },
  validateUri(input) { count('validateUri'); const n = number(input.uri); return { valid: n !== null, entity: 'track', id: n === null ? null : 'd' + n, normalized_uri: input.uri }; },
  createPlaylist(input) {
    count('createPlaylist');
    const id = 'p' + (lists.size + 1);
    lists.set(id, { name: input.name, uris: [] });
    return { playlist_id: id, uri: 'benchdst:playlist:' + id, snapshot_id: 'v0' };
  },
  addTracks(input) {
    count('addTracks');
    const list = lists.get(input.playlist_id);
    const results = input.items.map((item) => { list.uris.push(item.uri); return { uri: item.uri, ok: true, position: list.uris.length - 1 }; });
    return { results, snapshot_id: 'v' + list.uris.length };
  },
  listPlaylists() {
    count('listPlaylists');
    return { items: [...lists.entries()].map(([id, list]) => playlist(id, list.name, list.uris.length, 'benchdst')), next_cursor: null, total: lists.size };
  },
  readPlaylist(input) { count('readPlaylist'); const list = lists.get(input.playlist_id); if (!list) { const error = new Error('no such playlist'); error.type = 'NotFound'; throw error; } return playlist(input.playlist_id, list.name, list.uris.length, 'benchdst'); },
  listPlaylistItems(input) {
    count('listPlaylistItems');
    const list = lists.get(input.playlist_id);
    const offset = Number(input.cursor || 0);
    const items = list.uris.slice(offset, offset + input.limit).map((uri, index) => ({ ...song(number(uri), 'benchdst', 'd'), position: offset + index }));
    const next = offset + items.length;
    return { items, next_cursor: next < list.uris.length ? String(next) : null, total: list.uris.length, snapshot_id: 'v' + list.uris.length };
  },
} };
`;

function startEngine(): Promise<BenchEngine> {
  return startBenchEngine('migration', [
    { id: 'bench.source', name: 'benchsrc', capabilities: ['READ_PLAYLISTS', 'READ_TRACKS'], code: sourceCode(TRACKS) },
    { id: 'bench.target', name: 'benchdst', capabilities: ['READ_PLAYLISTS', 'READ_TRACKS', 'CREATE_PLAYLIST', 'ADD_TRACKS'], code: TARGET_CODE },
  ]);
}


async function allCalls(engine: BenchEngine): Promise<{ source: Calls; target: Calls }> {
  return { source: await callCounts(engine, 'bench.source'), target: await callCounts(engine, 'bench.target') };
}



interface JobJson {
  id: string;
  status: string;
  outcome: string;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  counts: Record<string, number>;
}

async function migrate(engine: BenchEngine, source: string, target: string, playlistId: string): Promise<Record<string, unknown>> {
  const before = await allCalls(engine);
  const started = performance.now();
  const created = (await api(engine, '/api/migrations', { source_account_id: source, target_provider: 'benchdst', target_account_id: target, acknowledge_warnings: true, selection: { playlist_ids: [playlistId] } })) as JobJson;
  let job = created;
  while (!['completed', 'failed', 'cancelled', 'awaiting_review', 'paused'].includes(job.status)) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    job = (await api(engine, `/api/migrations/${created.id}`)) as JobJson;
  }
  const wallMs = performance.now() - started;
  if (job.status !== 'completed' || job.counts['written'] !== TRACKS) throw new Error(`the ${playlistId} migration ended ${job.status}/${job.outcome}: ${JSON.stringify(job.counts)}`);
  const after = await allCalls(engine);
  const source_calls = delta(after.source, before.source);
  const target_calls = delta(after.target, before.target);
  const searches = (target_calls['searchTracks:isrc'] ?? 0) + (target_calls['searchTracks:text'] ?? 0);
  const serverMs = new Date(job.completed_at!).getTime() - new Date(job.created_at).getTime();
  return {
    tracks: TRACKS,
    wall_ms: round(wallMs),
    server_ms: serverMs,
    ms_per_track: round(wallMs / TRACKS, 4),
    provider_calls: sum(source_calls) + sum(target_calls),
    provider_calls_per_track: round((sum(source_calls) + sum(target_calls)) / TRACKS, 4),
    searches,
    searches_per_track: round(searches / TRACKS, 4),
    source_calls,
    target_calls,
  };
}

/** The same provider work without the engine: straight plugin-host calls, in the engine's batch sizes. */
async function baseline(engine: BenchEngine): Promise<number> {
  const { host } = engine.app.services.plugins;
  const started = performance.now();
  const isrcs: string[] = [];
  let cursor: string | null = null;
  do {
    const page = (await host.call('bench.source', 'listPlaylistItems', { playlist_id: 'cold', cursor, limit: 100 })) as { items: { isrc: string | null }[]; next_cursor: string | null };
    for (const item of page.items) isrcs.push(item.isrc!);
    cursor = page.next_cursor;
  } while (cursor !== null);
  const uris: string[] = [];
  for (const isrc of isrcs) {
    const found = (await host.call('bench.target', 'searchTracks', { query: { isrc }, mode: 'isrc', limit: 5 })) as { candidates: { provider_uris: Record<string, string> }[] };
    uris.push(found.candidates[0]!.provider_uris['benchdst']!);
  }
  const created = (await host.call('bench.target', 'createPlaylist', { name: 'Baseline', description: null, public: false })) as { playlist_id: string };
  for (let start = 0; start < uris.length; start += 100) {
    await host.call('bench.target', 'addTracks', { playlist_id: created.playlist_id, items: uris.slice(start, start + 100).map((uri) => ({ uri })) });
  }
  return performance.now() - started;
}

export async function run(): Promise<Record<string, unknown>> {
  const engine = await startEngine();
  try {
    const source = await connect(engine, 'benchsrc');
    const target = await connect(engine, 'benchdst');
    const baselineSamples: number[] = [];
    baselineSamples.push(await baseline(engine)); // warms the isolates and the host channel
    const cold = await migrate(engine, source, target, 'cold');
    for (let index = 0; index < BASELINE_RUNS; index++) baselineSamples.push(await baseline(engine));
    const warm = await migrate(engine, source, target, 'warm');
    const baselineMs = median(baselineSamples.slice(1));
    const engineOverheadMs = (cold['wall_ms'] as number) - baselineMs;
    return {
      tracks: TRACKS,
      pacing: FAST_PACING,
      baseline_plugin_calls_only: { median_ms: round(baselineMs), runs: BASELINE_RUNS, ms_per_track: round(baselineMs / TRACKS, 4) },
      cold_graph: cold,
      warm_graph: warm,
      engine_overhead: {
        ms_per_track_cold: round(engineOverheadMs / TRACKS, 4),
        ms_per_track_warm: round(((warm['wall_ms'] as number) - baselineMs) / TRACKS, 4),
        ratio_cold_vs_baseline: round((cold['wall_ms'] as number) / baselineMs, 3),
        ratio_warm_vs_baseline: round((warm['wall_ms'] as number) / baselineMs, 3),
      },
      identity_graph: {
        searches_per_track_cold: cold['searches_per_track'],
        searches_per_track_warm: warm['searches_per_track'],
        provider_calls_ratio_warm_vs_cold: round((warm['provider_calls'] as number) / (cold['provider_calls'] as number), 4),
        goal_searches_per_track_warm: 0,
      },
    };
  } finally {
    await stopBenchEngine(engine);
  }
}
