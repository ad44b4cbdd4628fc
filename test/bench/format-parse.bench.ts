import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TrackInput } from '@opl/plugin-sdk';
import { createSandbox, type Sandbox } from '@opl/plugin-sdk/sandbox';
import { manifestSchema } from '@opl/plugin-sdk/schemas';
import { measure, round } from './bench-stats.ts';
import { loadFormatPlugin } from './format-plugin-sandbox.ts';

/**
 * Parse throughput of every first-party format plugin on a generated 100,000-track playlist, each
 * run in the real sandbox, as a ratio to `JSON.parse` of the same tracks as JSON measured in this
 * same run, with the peak resident memory each parse added to the process.
 *
 * Beside it, the sandbox floor: a plugin that does nothing but decode the same tracks' JSON and
 * `JSON.parse` it, called the same way. What it costs is the boundary every parse crosses (the
 * file's bytes copied in and decoded, the result serialized out, parsed and checked on the host),
 * so `ratio_vs_sandbox_floor` is what a format's own parser adds on top of that boundary. The
 * floor's `steps` say which part of that boundary costs what.
 */

const TRACKS = 100_000;
/**
 * Issue 34's goals, which measure our own code: the sandbox floor (the boundary every parse
 * crosses) within 4× `JSON.parse` of the same tracks, and each reader within 2× that floor. (The
 * earlier goal, a reader within 2× `JSON.parse`, was below the floor itself.)
 */
const FLOOR_GOAL_RATIO = 4;
const READER_GOAL_RATIO = 2;
const ALL_WRITERS = ['csv', 'txt', 'm3u8', 'xspf', 'json'] as const;
/** `OPL_BENCH_FORMATS=csv,xspf` measures only those formats (the floor is always measured). */
const WRITERS = ALL_WRITERS.filter((name) => (process.env.OPL_BENCH_FORMATS ?? '') === '' || (process.env.OPL_BENCH_FORMATS ?? '').split(',').includes(name));

function track(index: number): TrackInput {
  const artists = [`Artist ${index % 977}`, ...(index % 5 === 0 ? ['Featured Singer'] : [])];
  return {
    id: `trk${index}`,
    title: `Song number ${index}${index % 11 === 0 ? ' (Remastered 2011)' : ''} — ${index % 3 === 0 ? '東京の夜' : 'Ночь'}`,
    artist: artists.join(', '),
    artists,
    album: `Album ${index % 503}`,
    duration_s: 150 + (index % 180),
    isrc: `ZZOPL${String(index).padStart(7, '0')}`,
    release_date: '2019-05-17',
    explicit: index % 7 === 0,
    added_at: '2024-01-02T03:04:05Z',
    position: index,
    provider_uris: { spotify: `spotify:track:${index.toString(36).padStart(22, '0')}` },
  };
}

/** A format plugin whose `parse` is `body` (its arguments are `input` and `ctx`). */
const floorCode = (body: string) => `export default {
  mark: 'opl.plugin/v1',
  kind: 'format',
  operations: {
    parse(input, ctx) {
      ${body}
    },
    *serialize() {},
  },
};`;

/** The sandbox floor's plugin: the file is the tracks as JSON; parsing is decoding and `JSON.parse`. */
const FLOOR_BODY = `return { playlists: [{ id: 'bench', name: 'Benchmark playlist', tracks: JSON.parse(ctx.decodeText(input.bytes, 'utf-8')) }], issues: [] };`;

/**
 * The floor cut short after each of its steps, so that each step's cost is the difference between
 * two neighbours: the file's bytes copied in, their decoding (on the host: the isolate has no
 * TextDecoder), `JSON.parse` inside the isolate, and the result made JSON text there.
 */
const FLOOR_STEPS = [
  ['bytes_in', `return { playlists: [], issues: [] };`],
  ['decode', `ctx.decodeText(input.bytes, 'utf-8'); return { playlists: [], issues: [] };`],
  ['isolate_json_parse', `JSON.parse(ctx.decodeText(input.bytes, 'utf-8')); return { playlists: [], issues: [] };`],
  ['isolate_stringify', `JSON.stringify({ playlists: [{ id: 'bench', name: 'Benchmark playlist', tracks: JSON.parse(ctx.decodeText(input.bytes, 'utf-8')) }], issues: [] }); return { playlists: [], issues: [] };`],
] as const;

async function floorSandbox(formatManifestDir: string, body = FLOOR_BODY): Promise<Sandbox> {
  const manifest = manifestSchema.parse(JSON.parse(await readFile(join(formatManifestDir, 'manifest.json'), 'utf8')));
  return createSandbox({ manifest, code: floorCode(body), limits: { memoryMb: 1024, callTimeoutMs: 600_000, cpuTimeMs: 600_000 }, log: () => undefined });
}

/**
 * Where the floor's time goes, step by step (medians of separate runs, so the steps only roughly
 * add up to the floor): what any sandboxed parser pays on top of its own work, each also as a
 * ratio to `JSON.parse` on the host. `result_out` is the result's text copied out of the isolate;
 * `host_check` is the host parsing that text and checking it against the parse contract.
 */
async function floorSteps(formatManifestDir: string, input: { bytes: Uint8Array; filename: string }, floor: Sandbox, baselineMs: number): Promise<Record<string, { ms: number; ratio_vs_json_parse: number }>> {
  const cumulative: number[] = [];
  for (const [, body] of FLOOR_STEPS) {
    const sandbox = await floorSandbox(formatManifestDir, body);
    try {
      cumulative.push((await measure(3, () => sandbox.callJson('parse', input, {}))).median_ms);
    } finally {
      sandbox.dispose();
    }
  }
  cumulative.push((await measure(3, () => floor.callJson('parse', input, {}))).median_ms);
  cumulative.push((await measure(3, () => floor.call('parse', input, {}))).median_ms);
  const names = [...FLOOR_STEPS.map(([name]) => name), 'result_out', 'host_check'];
  const steps: Record<string, { ms: number; ratio_vs_json_parse: number }> = {};
  names.forEach((name, index) => {
    const ms = round(Math.max(0, cumulative[index]! - (index === 0 ? 0 : cumulative[index - 1]!)), 1);
    steps[name] = { ms, ratio_vs_json_parse: round(ms / baselineMs, 2) };
  });
  return steps;
}

/** Throughput in megabytes (10^6 bytes) per second. */
function megabytesPerSecond(bytes: number, ms: number): number {
  return round(bytes / 1e6 / (ms / 1000), 1);
}

/** Peak RSS growth while `work` runs, sampled every 5 ms, in MiB. */
async function peakRssGrowth(work: () => Promise<unknown>): Promise<number> {
  globalThis.gc?.();
  const base = process.memoryUsage.rss();
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  peak = Math.max(peak, process.memoryUsage.rss());
  return round((peak - base) / (1024 * 1024), 1);
}

export async function run(): Promise<object> {
  const buildRoot = await mkdtemp(join(tmpdir(), 'opl-bench-formats-'));
  const sandboxes: Sandbox[] = [];
  try {
    const playlist = { id: 'bench', name: 'Benchmark playlist', tracks: Array.from({ length: TRACKS }, (_, index) => track(index)) };
    const tracksJson = JSON.stringify(playlist.tracks);
    const baseline = await measure(5, async () => JSON.parse(tracksJson) as unknown);
    const results: Record<string, unknown> = {};

    // Built first: the floor borrows the json plugin's manifest (a format plugin's grants) for its own code.
    await loadFormatPlugin('json', buildRoot).then((sandbox) => sandbox.dispose());
    const floor = await floorSandbox(join(buildRoot, 'json'));
    sandboxes.push(floor);
    const tracksBytes = new TextEncoder().encode(tracksJson);
    const floorParse = () => floor.call('parse', { bytes: tracksBytes, filename: 'bench.json' }, {});
    const floorTracks = (await floorParse()).playlists[0]?.tracks.length ?? 0;
    if (floorTracks !== TRACKS) throw new Error(`the sandbox floor read ${floorTracks} tracks`);
    const floorTiming = await measure(3, floorParse);
    const floorStepTimes = await floorSteps(join(buildRoot, 'json'), { bytes: tracksBytes, filename: 'bench.json' }, floor, baseline.median_ms);
    floor.dispose();

    for (const name of WRITERS) {
      const sandbox = await loadFormatPlugin(name, buildRoot);
      sandboxes.push(sandbox);
      const chunks: Uint8Array[] = [];
      await sandbox.serialize({ playlists: [playlist], options: {} }, (chunk) => {
        chunks.push(chunk);
      });
      const bytes = new Uint8Array(Buffer.concat(chunks));
      const parse = () => sandbox.call('parse', { bytes, filename: `bench.${name}` }, {});
      const parsed = await parse();
      const parsedTracks = parsed.playlists.reduce((sum, item) => sum + item.tracks.length, 0);
      const timing = await measure(3, parse);
      results[name] = {
        file_bytes: bytes.byteLength,
        tracks_parsed: parsedTracks,
        parse: timing,
        ratio_vs_json_parse: round(timing.median_ms / baseline.median_ms, 2),
        ratio_vs_sandbox_floor: round(timing.median_ms / floorTiming.median_ms, 2),
        meets_goal: timing.median_ms / floorTiming.median_ms <= READER_GOAL_RATIO,
        // The same tracks take very different room per format (XSPF about 2.7 times the JSON's):
        // bytes read per second tells a slow parser from a long file.
        mb_per_s: megabytesPerSecond(bytes.byteLength, timing.median_ms),
        peak_rss_growth_mib: await peakRssGrowth(parse),
      };
      sandbox.dispose();
    }
    return {
      tracks: TRACKS,
      json_parse_baseline: { json_bytes: Buffer.byteLength(tracksJson), ...baseline, mb_per_s: megabytesPerSecond(Buffer.byteLength(tracksJson), baseline.median_ms) },
      sandbox_floor: {
        parse: floorTiming,
        ratio_vs_json_parse: round(floorTiming.median_ms / baseline.median_ms, 2),
        goal_ratio_vs_json_parse: FLOOR_GOAL_RATIO,
        meets_goal: floorTiming.median_ms / baseline.median_ms <= FLOOR_GOAL_RATIO,
        steps: floorStepTimes,
      },
      reader_goal_ratio_vs_sandbox_floor: READER_GOAL_RATIO,
      formats: results,
    };
  } finally {
    for (const sandbox of sandboxes) if (!sandbox.isDisposed) sandbox.dispose();
    await rm(buildRoot, { recursive: true, force: true });
  }
}
