import { api, callCounts, connect, delta, FAST_PACING, startBenchEngine, stopBenchEngine, sum, type BenchEngine, type Calls } from './bench-engine.ts';
import { median, round } from './bench-stats.ts';

/**
 * Scheduled sync: one add-only rule over a 10,000-track playlist on a real engine (embedded
 * PostgreSQL, pg-boss worker, sandboxed zero-latency providers at the fastest manifest pacing).
 * Per run, started with "run now": the provider calls and the engine's time when nothing changed
 * and when 10 songs were added to the source. Beside each, in the same process, a baseline of the
 * bare provider calls the run cannot avoid, issued straight to the plugin host (unchanged: one
 * playlist read; 10 added: the read, every page of the entries, 10 searches and one write batch).
 * Goals from the issue: unchanged ⇒ ≤ 2 provider calls; 10 added ⇒ ≤ 10 searches + 1 write batch
 * + the reads the provider's change detection requires. Then the rule becomes a mirror and 10 songs
 * of the source are moved elsewhere in it per run: the run's provider calls (reads, moves) and time.
 *
 * `npm run bench -- sync`; OPL_BENCH_SYNC_TRACKS changes the size (default 10,000).
 */

const TRACKS = Number(process.env['OPL_BENCH_SYNC_TRACKS'] ?? 10_000);
const RUNS = 5;
const ADDED = 10;
const REORDERED = 10;

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
function playlist(id, name, count, provider, snapshot) {
  return { id, name, description: null, track_count: count, snapshot_id: snapshot, is_owned: true, provider_uris: { [provider]: provider + ':playlist:' + id } };
}
`;

/**
 * The source: one playlist of TOTAL songs whose snapshot id changes with its length. The benchmark
 * grows it through \`createPlaylist\` (a hook only this benchmark calls, straight on the plugin host,
 * which is why the source declares CREATE_PLAYLIST):
 * the source gains songs the way a user's edit would make it, and the engine sees it only by reading.
 */
function sourceCode(tracks: number): string {
  return `${COMMON}
let total = ${tracks};
let version = 0;
// The source order as song numbers (null: 0, 1, 2 …); "reorder:N" moves N songs spread over the list to the top.
let order = null;
const songAt = (position) => (order ? order[position] : position);
const list = () => playlist('daily', 'Daily Mix', total, 'benchsrc', 's' + total + '.' + version);
export default { mark: 'opl.plugin/v1', kind: 'provider', operations: {
  testConnection() { return { ok: true, account_id: 'bench-source-user', display_name: JSON.stringify(calls) }; },
  createPlaylist(input) {
    if (input.name.startsWith('reorder:')) {
      const moves = Number(input.name.slice(8));
      order = order || Array.from({ length: total }, (_, n) => n);
      const step = Math.floor(order.length / (moves + 1));
      const picked = [];
      for (let k = moves; k >= 1; k--) picked.push(...order.splice(k * step, 1));
      order.unshift(...picked);
    } else {
      if (order) for (let n = total; n < total + Number(input.name); n++) order.push(n);
      total += Number(input.name);
    }
    version += 1;
    return { playlist_id: 'daily', uri: 'benchsrc:playlist:daily', snapshot_id: 's' + total + '.' + version };
  },
  listPlaylists() { count('listPlaylists'); return { items: [list()], next_cursor: null, total: 1 }; },
  readPlaylist(input) { count('readPlaylist'); return list(); },
  listPlaylistItems(input) {
    count('listPlaylistItems');
    const offset = Number(input.cursor || 0);
    const items = [];
    for (let n = offset; n < Math.min(total, offset + input.limit); n++) items.push({ ...song(songAt(n), 'benchsrc', 's'), position: n });
    const next = offset + items.length;
    return { items, next_cursor: next < total ? String(next) : null, total, snapshot_id: 's' + total + '.' + version };
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
  removeTracks(input) {
    count('removeTracks');
    const list = lists.get(input.playlist_id);
    const gone = new Set(input.items.map((item) => item.uri));
    list.uris = list.uris.filter((uri) => !gone.has(uri));
    return { results: input.items.map((item) => ({ uri: item.uri, ok: true, position: item.position })), snapshot_id: 'v' + list.uris.length };
  },
  moveTracks(input) {
    count('moveTracks');
    const list = lists.get(input.playlist_id);
    const moved = list.uris.splice(input.range_start, input.range_length);
    list.uris.splice(input.insert_before > input.range_start ? input.insert_before - input.range_length : input.insert_before, 0, ...moved);
    return { snapshot_id: 'v' + list.uris.length };
  },
  listPlaylists() {
    count('listPlaylists');
    return { items: [...lists.entries()].map(([id, list]) => playlist(id, list.name, list.uris.length, 'benchdst', 'v' + list.uris.length)), next_cursor: null, total: lists.size };
  },
  readPlaylist(input) { count('readPlaylist'); const list = lists.get(input.playlist_id); if (!list) { const error = new Error('no such playlist'); error.type = 'NotFound'; throw error; } return playlist(input.playlist_id, list.name, list.uris.length, 'benchdst', 'v' + list.uris.length); },
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
  return startBenchEngine('sync', [
    { id: 'bench.source', name: 'benchsrc', capabilities: ['READ_PLAYLISTS', 'READ_TRACKS', 'CREATE_PLAYLIST'], code: sourceCode(TRACKS), canMirror: false },
    { id: 'bench.target', name: 'benchdst', capabilities: ['READ_PLAYLISTS', 'READ_TRACKS', 'CREATE_PLAYLIST', 'ADD_TRACKS', 'REMOVE_TRACKS', 'REORDER'], code: TARGET_CODE, canMirror: true },
  ]);
}




async function waitFor<T extends { status: string }>(read: () => Promise<T>, done: readonly string[], what: string): Promise<T> {
  for (let waited = 0; waited < 30 * 60_000; waited += 50) {
    const value = await read();
    if (done.includes(value.status)) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what} did not end`);
}

interface RunJson {
  id: string;
  status: string;
  stats: Record<string, unknown>;
  started_at: string | null;
  completed_at: string | null;
  created_at: string;
}

/** One "run now": wall time from the request to the run's end, its own time in the engine, and the provider calls it made. */
async function runOnce(engine: BenchEngine, ruleId: string): Promise<{ wall_ms: number; server_ms: number; calls: Calls; stats: Record<string, unknown> }> {
  const before = { source: await callCounts(engine, 'bench.source'), target: await callCounts(engine, 'bench.target') };
  const started = performance.now();
  const queued = (await api(engine, `/api/syncs/${ruleId}/run`, {})) as RunJson;
  const run = await waitFor(async () => (await api(engine, `/api/syncs/${ruleId}/runs/${queued.id}`)) as RunJson, ['completed', 'failed', 'review_required', 'cancelled'], `run ${queued.id}`);
  const wallMs = performance.now() - started;
  if (run.status !== 'completed') throw new Error(`run ${run.id} ended ${run.status}: ${JSON.stringify(run)}`);
  const source = delta(await callCounts(engine, 'bench.source'), before.source);
  const target = delta(await callCounts(engine, 'bench.target'), before.target);
  const calls: Calls = {};
  for (const [op, n] of Object.entries(source)) calls[`source.${op}`] = n;
  for (const [op, n] of Object.entries(target)) calls[`target.${op}`] = n;
  return { wall_ms: round(wallMs), server_ms: new Date(run.completed_at!).getTime() - new Date(run.created_at).getTime(), calls, stats: run.stats };
}

/** The provider calls a run cannot avoid, straight on the plugin host. */
async function baseline(engine: BenchEngine, added: number): Promise<number> {
  const { host } = engine.app.services.plugins;
  const started = performance.now();
  await host.call('bench.source', 'readPlaylist', { playlist_id: 'daily' });
  if (added === 0) return performance.now() - started;
  const isrcs: string[] = [];
  let cursor: string | null = null;
  do {
    const page = (await host.call('bench.source', 'listPlaylistItems', { playlist_id: 'daily', cursor, limit: 100 })) as { items: { isrc: string | null }[]; next_cursor: string | null };
    for (const item of page.items) isrcs.push(item.isrc!);
    cursor = page.next_cursor;
  } while (cursor !== null);
  const uris: string[] = [];
  for (const isrc of isrcs.slice(-added)) {
    const found = (await host.call('bench.target', 'searchTracks', { query: { isrc }, mode: 'isrc', limit: 5 })) as { candidates: { provider_uris: Record<string, string> }[] };
    uris.push(found.candidates[0]!.provider_uris['benchdst']!);
  }
  // A throwaway playlist: the baseline must not change the rule's target.
  const scratch = (await host.call('bench.target', 'createPlaylist', { name: 'Baseline', description: null, public: false })) as { playlist_id: string };
  await host.call('bench.target', 'addTracks', { playlist_id: scratch.playlist_id, items: uris.map((uri) => ({ uri })) });
  return performance.now() - started;
}

function summary(samples: Awaited<ReturnType<typeof runOnce>>[], baselines: number[]): Record<string, unknown> {
  const wall = median(samples.map((sample) => sample.wall_ms));
  const floor = median(baselines);
  const calls = samples[samples.length - 1]!.calls;
  return {
    runs: samples.length,
    median_wall_ms: round(wall),
    median_server_ms: median(samples.map((sample) => sample.server_ms)),
    provider_calls: sum(calls),
    searches: (calls['target.searchTracks:isrc'] ?? 0) + (calls['target.searchTracks:text'] ?? 0),
    write_batches: calls['target.addTracks'] ?? 0,
    moves: calls['target.moveTracks'] ?? 0,
    removals: calls['target.removeTracks'] ?? 0,
    calls,
    stats: samples[samples.length - 1]!.stats,
    baseline_provider_calls_only: { median_ms: round(floor), runs: baselines.length },
    ratio_vs_baseline: round(wall / floor, 2),
  };
}

export async function run(): Promise<Record<string, unknown>> {
  const engine = await startEngine();
  try {
    const source = await connect(engine, 'benchsrc');
    const target = await connect(engine, 'benchdst');
    const started = performance.now();
    const job = (await api(engine, '/api/migrations', { source_account_id: source, target_provider: 'benchdst', target_account_id: target, acknowledge_warnings: true, selection: { playlist_ids: ['daily'] } })) as { id: string };
    const finished = await waitFor(async () => (await api(engine, `/api/migrations/${job.id}`)) as { status: string }, ['completed', 'failed', 'cancelled', 'awaiting_review', 'paused'], `migration ${job.id}`);
    if (finished.status !== 'completed') throw new Error(`the origin migration ended ${finished.status}`);
    const originMs = performance.now() - started;
    const rule = (await api(engine, '/api/syncs', { migration_job_id: job.id, schedule: { kind: 'interval', every_minutes: 10_080 } })) as { id: string };

    const unchanged: Awaited<ReturnType<typeof runOnce>>[] = [];
    const unchangedFloor: number[] = [];
    for (let index = 0; index < RUNS; index++) {
      unchanged.push(await runOnce(engine, rule.id));
      unchangedFloor.push(await baseline(engine, 0));
    }
    const added: Awaited<ReturnType<typeof runOnce>>[] = [];
    const addedFloor: number[] = [];
    for (let index = 0; index < RUNS; index++) {
      await engine.app.services.plugins.host.call('bench.source', 'createPlaylist', { name: String(ADDED), description: null, public: false });
      added.push(await runOnce(engine, rule.id));
      addedFloor.push(await baseline(engine, ADDED));
    }
    // Mirror: 10 songs of the source moved per run; the target follows by moves.
    const patched = await fetch(`${engine.baseUrl}/api/syncs/${rule.id}`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode: 'mirror' }) });
    if (patched.status !== 200) throw new Error(`switching the rule to mirror: HTTP ${patched.status} ${await patched.text()}`);
    const reordered: Awaited<ReturnType<typeof runOnce>>[] = [];
    const reorderedFloor: number[] = [];
    for (let index = 0; index < RUNS; index++) {
      await engine.app.services.plugins.host.call('bench.source', 'createPlaylist', { name: `reorder:${REORDERED}`, description: null, public: false });
      reordered.push(await runOnce(engine, rule.id));
      reorderedFloor.push(await baseline(engine, 0));
    }
    const reorderedSummary = summary(reordered, reorderedFloor);
    const unchangedSummary = summary(unchanged, unchangedFloor);
    const addedSummary = summary(added, addedFloor);
    // The reads change detection needs here: the playlist object, then every page of the entries (no delta API).
    const pages = Math.ceil((TRACKS + ADDED * RUNS) / 100);
    return {
      tracks: TRACKS,
      pacing: FAST_PACING,
      origin_migration_ms: round(originMs),
      unchanged: { ...unchangedSummary, goal_provider_calls_at_most: 2, meets_goal: (unchangedSummary['provider_calls'] as number) <= 2 },
      ten_added: {
        ...addedSummary,
        goal: `≤ ${ADDED} searches + 1 write batch + the reads change detection requires (1 playlist read + about ${pages} pages of 100 entries)`,
        meets_goal: (addedSummary['searches'] as number) <= ADDED && (addedSummary['write_batches'] as number) <= 1,
      },
      mirror_ten_reordered: {
        ...reorderedSummary,
        note: `the source read in full, the target read to plan and again to verify (about ${pages} pages each), at most ${REORDERED} moves; baseline: one source playlist read`,
        meets_goal: (reorderedSummary['moves'] as number) <= REORDERED && (reorderedSummary['removals'] as number) === 0,
      },
    };
  } finally {
    await stopBenchEngine(engine);
  }
}
