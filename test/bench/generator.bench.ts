import { createApp } from '../../core/app/index.ts';
import { loadConfig } from '../../core/config/index.ts';
import { createLogger } from '../../core/logging/logger.ts';
import { findFreePort } from '../../core/storage/embedded/free-port.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstPartyPlugins } from '../integration/support/first-party-plugins.ts';
import { median, round } from './bench-stats.ts';

/**
 * The playlist generator on a real engine in demo mode: the built-in demo model (the fake
 * OpenAI-compatible server, answering at once) proposes 50 songs of the demo catalogue, and each
 * is resolved on a demo TIDAL account through the TIDAL plugin in its sandbox and the fake TIDAL
 * API. Reported per request, medians of a few runs:
 * - searches per resolved track (goal ≤ 1.2): what resolving costs the target's rate limit;
 * - engine time excluding the model (`resolve_ms`, per track): searching, scoring, storing;
 * - the model's own time, for scale (a real local model takes seconds to minutes);
 * - the same in library-grounded mode (`grounding: library`), choosing among the demo account's
 *   own cached playlists: tracks of the target's own service need no search at all.
 *
 * `npm run bench -- generator`.
 */

const TRACKS = 50;
const RUNS = 3;
const GOAL_SEARCHES_PER_TRACK = 1.2;

export async function run(): Promise<Record<string, unknown>> {
  const plugins = await firstPartyPlugins();
  const dataDir = await mkdtemp(join(tmpdir(), 'opl-bench-generator-'));
  const config = loadConfig({ OPL_DATA_DIR: dataDir, OPL_PORT: '0', OPL_LOG_LEVEL: 'silent', OPL_EMBEDDED_DB_PORT: String(await findFreePort()), OPL_DEMO: '1', ...plugins.env });
  const app = await createApp(config, { http: true, worker: false }, { logger: createLogger({ level: 'silent' }) });
  const base = ((await app.start()) ?? '').replace('0.0.0.0', '127.0.0.1');
  try {
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: response.status, json: (await response.json()) as Record<string, unknown> };
    };
    const begin = await post('/api/auth/tidal/begin', {});
    const authorize = await fetch(String(begin.json['redirect_url']), { redirect: 'manual' });
    const landed = await fetch(authorize.headers.get('location')!, { redirect: 'manual' });
    const accountId = landed.headers.get('location')!.split('connected=')[1]!;

    const runs: { searchesPerTrack: number; resolveMsPerTrack: number; modelMs: number; resolved: number; totalMs: number }[] = [];
    // Different words each run, so that no run finds the songs in the identity graph of the previous one.
    const prompts = ['golden summer river lights', 'midnight electric storm', 'quiet ocean letters home', 'wild glass fire gravity'];
    for (let index = 0; index < RUNS + 1; index++) {
      const started = performance.now();
      const made = await post('/api/generator/drafts', { target_provider: 'tidal', target_account_id: accountId, generation: { prompt: prompts[index]!, controls: { track_count: TRACKS } } });
      const totalMs = performance.now() - started;
      if (made.status !== 201) throw new Error(`generation failed: ${made.status} ${JSON.stringify(made.json).slice(0, 300)}`);
      const generation = made.json['generation'] as { searches: number; resolved: number; model_ms: number; resolve_ms: number };
      // The first run warms the sandbox and the connections up; it is not counted.
      if (index === 0) continue;
      runs.push({ searchesPerTrack: generation.searches / Math.max(1, generation.resolved), resolveMsPerTrack: generation.resolve_ms / TRACKS, modelMs: generation.model_ms, resolved: generation.resolved, totalMs });
    }
    const searchesPerTrack = median(runs.map((entry) => entry.searchesPerTrack));

    // Library-grounded: the account's playlists read once (the cache the offer is sampled from).
    const get = async (path: string) => (await (await fetch(`${base}${path}`)).json()) as Record<string, unknown>;
    for (const playlist of (await get(`/api/playlists?account_id=${accountId}`))['playlists'] as { id: string }[]) await get(`/api/playlists/${encodeURIComponent(playlist.id)}?account_id=${accountId}`);
    const grounded: { searchesPerTrack: number; resolveMsPerTrack: number; resolved: number }[] = [];
    for (let index = 0; index < RUNS; index++) {
      const made = await post('/api/generator/drafts', { target_provider: 'tidal', target_account_id: accountId, generation: { prompt: prompts[index]!, controls: { track_count: TRACKS } }, grounding: 'library', library_sources: { seed: index } });
      if (made.status !== 201) throw new Error(`grounded generation failed: ${made.status} ${JSON.stringify(made.json).slice(0, 300)}`);
      const generation = made.json['generation'] as { searches: number; resolved: number; resolve_ms: number };
      grounded.push({ searchesPerTrack: generation.searches / Math.max(1, generation.resolved), resolveMsPerTrack: generation.resolve_ms / Math.max(1, generation.resolved), resolved: generation.resolved });
    }
    return {
      tracks_requested: TRACKS,
      runs: RUNS,
      resolved_median: median(runs.map((entry) => entry.resolved)),
      searches_per_resolved_track: round(searchesPerTrack, 3),
      goal_searches_per_resolved_track: GOAL_SEARCHES_PER_TRACK,
      meets_goal: searchesPerTrack <= GOAL_SEARCHES_PER_TRACK,
      engine_ms_per_track_excluding_model: round(median(runs.map((entry) => entry.resolveMsPerTrack)), 2),
      model_ms_median: round(median(runs.map((entry) => entry.modelMs)), 1),
      request_ms_median: round(median(runs.map((entry) => entry.totalMs)), 1),
      library_resolved_median: median(grounded.map((entry) => entry.resolved)),
      library_searches_per_resolved_track: round(median(grounded.map((entry) => entry.searchesPerTrack)), 3),
      library_engine_ms_per_track_excluding_model: round(median(grounded.map((entry) => entry.resolveMsPerTrack)), 2),
    };
  } finally {
    await app.stop();
    await plugins.remove();
    await rm(dataDir, { recursive: true, force: true });
  }
}
