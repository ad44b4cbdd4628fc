import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { runPluginCli } from '@opl/plugin-sdk/cli';
import { DEFAULT_HEAP_PROFILE, heapProfileEnv, heapProfileFlags } from '../../core/bootstrap/heap-profile.mjs';
import { round } from './bench-stats.ts';

/**
 * Peak memory of a ZIP64 export: 100 playlists × 10,000 tracks next to 10 playlists × 1,000 tracks
 * (100× the tracks), each export in its own child process so that its peak resident memory
 * (`maxRSS`) is its own; the format plugin runs in the plugin-host child process as in the engine,
 * whose peak is reported beside it (the goal is about the engine process). The source is an account whose playlists are cached: each is
 * generated as the engine reads a cached playlist for an export (its details, then its tracks 500
 * at a time, each slice parsed from JSON text as the database driver hands it over); everything
 * after that is the engine's export path: the real format plugin's playlist writer in the sandbox
 * fed slice by slice, temporary files, archiver's ZIP64 archive, the manifest, and a client
 * reading the archive in 64 KiB chunks. Goal: the large export's peak RSS at most 1.5×
 * the small one's. The processes run with the node flags of the engine's default heap profile
 * (`OPL_HEAP_PROFILE=memory`, as the `opl` launcher starts the engine). More runs tell what the
 * peak follows: the large export's playlists read alone, and serialized with no export around them;
 * 100 playlists of the small export's size; and both exports again under the `speed` profile (V8's
 * default heap sizing), whose slack between collections, not the export path, is what grows there.
 *
 * `npm run bench -- export-archive`; OPL_BENCH_EXPORT_FORMATS overrides the formats (default csv,json).
 */

const runFile = promisify(execFile);
const FORMATS_DIR = fileURLToPath(new URL('../../plugins/formats/', import.meta.url));
const PROCESS = fileURLToPath(new URL('./export-archive.process.ts', import.meta.url));
const FORMATS = (process.env['OPL_BENCH_EXPORT_FORMATS'] ?? 'csv,json').split(',').map((format) => format.trim()).filter(Boolean);
const SMALL = { playlists: 10, tracks: 1_000 };
const LARGE = { playlists: 100, tracks: 10_000 };
/** As many playlists as the large export, each the size of the small one's: how memory follows the playlist count alone. */
const MANY_SMALL = { playlists: 100, tracks: 1_000 };
const GOAL = 1.5;
const DEFAULT_FLAGS = heapProfileFlags(DEFAULT_HEAP_PROFILE);
// The profile's environment (MALLOC_ARENA_MAX) is what the launcher gives the engine; the plugin host's child inherits it.
const DEFAULT_ENV = heapProfileEnv(DEFAULT_HEAP_PROFILE);
type Profile = 'memory' | 'speed';

interface ExportRun {
  max_rss_kib: number;
  host_max_rss_kib: number | null;
  rss_before_kib: number;
  host_rss_before_kib: number | null;
  output_bytes: number;
  content_type: string;
  elapsed_ms: number;
}

const mib = (kib: number | null) => (kib === null ? null : round(kib / 1024, 1));

type Mode = 'export' | 'serialize-only' | 'read-only';

async function inChild(buildRoot: string, format: string, size: { playlists: number; tracks: number }, mode: Mode, profile: Profile = DEFAULT_HEAP_PROFILE): Promise<ExportRun> {
  const args = ['--no-node-snapshot', '--expose-gc', ...heapProfileFlags(profile), PROCESS, buildRoot, format, String(size.playlists), String(size.tracks), mode];
  const { stdout } = await runFile(process.execPath, args, { maxBuffer: 1024 * 1024, env: { ...heapProfileEnv(profile), ...process.env } });
  return JSON.parse(stdout.trim().split('\n').pop()!) as ExportRun;
}

/** Peak RSS of the engine process and of its plugin-host child (where the format plugin runs), in MiB. */
function peaks(result: ExportRun) {
  const engine = mib(result.max_rss_kib)!;
  const host = mib(result.host_max_rss_kib);
  return { engine_peak_rss_mib: engine, plugin_host_peak_rss_mib: host, total_peak_rss_mib: host === null ? null : round(engine + host, 1) };
}

async function exportIn(buildRoot: string, format: string, size: { playlists: number; tracks: number }, profile: Profile = DEFAULT_HEAP_PROFILE) {
  const result = await inChild(buildRoot, format, size, 'export', profile);
  if (result.content_type !== 'application/zip') throw new Error(`a ${size.playlists}-playlist ${format} export was not an archive (${result.content_type})`);
  return {
    playlists: size.playlists,
    tracks_per_playlist: size.tracks,
    archive_mib: round(result.output_bytes / 1048576, 1),
    ...peaks(result),
    engine_rss_before_export_mib: mib(result.rss_before_kib),
    plugin_host_rss_before_export_mib: mib(result.host_rss_before_kib),
    elapsed_ms: result.elapsed_ms,
  };
}

const ratio = (large: number | null, small: number | null) => (large === null || small === null ? null : round(large / small, 2));

export async function run(): Promise<object> {
  const buildRoot = await mkdtemp(join(tmpdir(), 'opl-bench-export-'));
  try {
    const quiet = { stdout: { write: () => true }, stderr: { write: () => true }, cwd: buildRoot };
    const formats: Record<string, unknown> = {};
    for (const format of FORMATS) {
      if ((await runPluginCli(['build', join(FORMATS_DIR, format), '--out', join(buildRoot, format)], quiet)) !== 0) throw new Error(`building the ${format} plugin failed`);
      const small = await exportIn(buildRoot, format, SMALL);
      const large = await exportIn(buildRoot, format, LARGE);
      const readOnly = peaks(await inChild(buildRoot, format, LARGE, 'read-only'));
      const serializeOnly = peaks(await inChild(buildRoot, format, LARGE, 'serialize-only'));
      const manySmall = await exportIn(buildRoot, format, MANY_SMALL);
      const smallSpeed = await exportIn(buildRoot, format, SMALL, 'speed');
      const largeSpeed = await exportIn(buildRoot, format, LARGE, 'speed');
      const engineRatio = ratio(large.engine_peak_rss_mib, small.engine_peak_rss_mib)!;
      const totalRatio = ratio(large.total_peak_rss_mib, small.total_peak_rss_mib);
      formats[format] = {
        small,
        large,
        peak_rss_ratio: { engine: engineRatio, plugin_host: ratio(large.plugin_host_peak_rss_mib, small.plugin_host_peak_rss_mib), total: totalRatio },
        // The large export's 100 playlists only read (slice by slice, as the export reads a cached
        // playlist), then read and serialized one at a time with no export around them:
        // what the source and the sandbox alone need at their peak.
        large_read_only: { engine_peak_rss_mib: readOnly.engine_peak_rss_mib },
        large_serialize_only: serializeOnly,
        // 100 playlists of 1,000 tracks: 10× the small export's playlists, the same playlist size.
        many_small: {
          engine_peak_rss_mib: manySmall.engine_peak_rss_mib,
          plugin_host_peak_rss_mib: manySmall.plugin_host_peak_rss_mib,
          engine_ratio: ratio(manySmall.engine_peak_rss_mib, small.engine_peak_rss_mib),
        },
        // Both exports again under OPL_HEAP_PROFILE=speed (V8's default heap sizing).
        speed_profile: {
          small_engine_peak_rss_mib: smallSpeed.engine_peak_rss_mib,
          large_engine_peak_rss_mib: largeSpeed.engine_peak_rss_mib,
          engine_ratio: ratio(largeSpeed.engine_peak_rss_mib, smallSpeed.engine_peak_rss_mib),
          large_elapsed_ms: largeSpeed.elapsed_ms,
        },
        meets_goal: engineRatio <= GOAL,
        // The same goal for the engine and its plugin-host process together (null where /proc is missing).
        meets_goal_with_plugin_host: totalRatio === null ? null : totalRatio <= GOAL,
      };
    }
    return { goal_peak_rss_ratio: GOAL, heap_profile: DEFAULT_HEAP_PROFILE, node_flags: DEFAULT_FLAGS, environment: DEFAULT_ENV, small: SMALL, large: LARGE, formats };
  } finally {
    await rm(buildRoot, { recursive: true, force: true });
  }
}
