import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { round } from './bench-stats.ts';

/**
 * Library snapshots (issue 30's benchmark), each run in its own process through the real archive
 * writer and verifier:
 * - peak RSS of a snapshot of 100 collections × 1,000 tracks as a ratio to one of 10 × 100
 *   (goal ≤ 1.3×: memory holds one record at a time, not the library);
 * - the verification time of a large archive as a ratio to `sha256sum` of the same file, measured
 *   in the same run (goal ≤ 2×). The archive is `OPL_BENCH_SNAPSHOT_VERIFY_MIB` MiB (default 128;
 *   the issue's figure is 1024) of word-padded tracks, which deflate compresses only so far.
 *
 * `npm run bench -- snapshot-archive`.
 */

const runFile = promisify(execFile);
const PROCESS = fileURLToPath(new URL('./snapshot-archive.process.ts', import.meta.url));
const SMALL = { collections: 10, tracks: 100 };
const LARGE = { collections: 100, tracks: 1_000 };
const RSS_GOAL = 1.3;
const VERIFY_GOAL = 2;
const VERIFY_MIB = Number(process.env['OPL_BENCH_SNAPSHOT_VERIFY_MIB'] ?? '128');

interface Run {
  path?: string;
  archive_bytes: number;
  items: number;
  elapsed_ms: number;
  max_rss_kib: number;
}

async function inChild(args: string[]): Promise<Run> {
  const { stdout } = await runFile(process.execPath, ['--no-node-snapshot', PROCESS, ...args], { maxBuffer: 1024 * 1024 });
  return JSON.parse(stdout.trim().split('\n').pop()!) as Run;
}

async function sha256sum(path: string): Promise<number> {
  const started = performance.now();
  await runFile('sha256sum', [path], { maxBuffer: 1024 * 1024 });
  return performance.now() - started;
}

export async function run(): Promise<Record<string, unknown>> {
  const dir = await mkdtemp(join(tmpdir(), 'opl-bench-snapshots-'));
  try {
    const small = await inChild(['write', dir, String(SMALL.collections), String(SMALL.tracks)]);
    const large = await inChild(['write', dir, String(LARGE.collections), String(LARGE.tracks)]);
    const rssRatio = round(large.max_rss_kib / small.max_rss_kib, 2);

    // A large archive: 1,000-track collections whose titles carry ~1 KiB of words each.
    const perCollection = 1_000;
    const padding = 1_024;
    const collections = Math.max(1, Math.ceil((VERIFY_MIB * 1024 * 1024) / (perCollection * 330)));
    const big = await inChild(['write', dir, String(collections), String(perCollection), String(padding)]);
    const verify: Run[] = [];
    const hash: number[] = [];
    // Alternated, so that the page cache treats both alike; the median of three each.
    for (let round = 0; round < 3; round++) {
      verify.push(await inChild(['verify', big.path!]));
      hash.push(await sha256sum(big.path!));
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[1]!;
    const verifyMs = median(verify.map((entry) => entry.elapsed_ms));
    const hashMs = median(hash);
    return {
      peak_rss: {
        small: { ...SMALL, items: small.items, archive_mib: round(small.archive_bytes / 1048576, 2), peak_rss_mib: round(small.max_rss_kib / 1024, 1) },
        large: { ...LARGE, items: large.items, archive_mib: round(large.archive_bytes / 1048576, 2), peak_rss_mib: round(large.max_rss_kib / 1024, 1), write_ms: round(large.elapsed_ms, 0) },
        ratio: rssRatio,
        goal: RSS_GOAL,
        meets_goal: rssRatio <= RSS_GOAL,
      },
      verification: {
        archive_mib: round(big.archive_bytes / 1048576, 1),
        items: big.items,
        verify_ms: round(verifyMs, 0),
        verify_peak_rss_mib: round(Math.max(...verify.map((entry) => entry.max_rss_kib)) / 1024, 1),
        sha256sum_ms: round(hashMs, 0),
        ratio_to_sha256sum: round(verifyMs / hashMs, 2),
        goal: VERIFY_GOAL,
        meets_goal: verifyMs / hashMs <= VERIFY_GOAL,
      },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
