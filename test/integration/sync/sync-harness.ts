import { expect } from 'vitest';
import type { SeedLibrary } from '../../fakes/seed-catalog.ts';
import { startMigrationHarness, type MigrationHarness } from '../migrations/migration-harness.ts';

/**
 * The migration harness (real engine, Spotify/TIDAL plugins against their fakes) with the sync
 * engine's clock in the test's hand: `advance(minutes)` moves it, `evaluate()` is what the
 * every-minute `sync.evaluate` job does. Helpers change the fakes the way their users would, through
 * the providers' own APIs.
 */

export interface RuleJson {
  id: string;
  status: string;
  mode: string;
  pause_code: string | null;
  pause_reason: string | null;
  action: { type: string; account_id?: string } | null;
  next_run_at: string | null;
  last_run_at: string | null;
  consecutive_failures: number;
  active_run: RunJson | null;
  target: { provider: string; account_id: string; playlist_id: string };
  source: { provider: string; account_id: string; playlist_id: string };
  [key: string]: unknown;
}

export interface RunJson {
  id: string;
  status: string;
  trigger: string;
  attempt: number;
  migration_job_id: string | null;
  stats: Record<string, unknown>;
  error_code: string | null;
  error: string | null;
}

export interface SyncHarness extends MigrationHarness {
  now(): Date;
  advance(minutes: number): void;
  evaluate(): Promise<{ created: string[]; requeued: string[] }>;
  /** Migrates one whole Spotify playlist to TIDAL (or `to`), waits for it, returns the job id. */
  migrate(sourceAccount: string, playlistId: string, targetProvider: string, targetAccount: string): Promise<string>;
  createRule(jobId: string, body?: Record<string, unknown>): Promise<RuleJson>;
  rule(ruleId: string): Promise<RuleJson>;
  runs(ruleId: string): Promise<RunJson[]>;
  /** Waits until the rule's run `runId` ends (completed, failed, cancelled or review_required). */
  waitRun(ruleId: string, runId: string, until?: readonly string[]): Promise<RunJson>;
  spotifyPlaylistId(name: string): string;
  spotifyAdd(playlistId: string, uris: readonly string[]): Promise<void>;
  spotifyRemove(playlistId: string, uris: readonly string[]): Promise<void>;
}

export async function startSyncHarness(options: { spotifyLibrary: SeedLibrary; tidalLibrary?: SeedLibrary; deezerLibrary?: SeedLibrary; ytmusicLibrary?: SeedLibrary }): Promise<SyncHarness> {
  let clock = Date.parse('2026-11-30T08:00:00Z');
  const h = await startMigrationHarness({
    spotifyLibrary: options.spotifyLibrary,
    tidalLibrary: options.tidalLibrary ?? {},
    ...(options.deezerLibrary ? { deezerLibrary: options.deezerLibrary } : {}),
    ...(options.ytmusicLibrary ? { ytmusicLibrary: options.ytmusicLibrary } : {}),
    overrides: { scheduleClock: () => new Date(clock), syncLeaseSeconds: 3 },
  });
  const spotifyCall = async (method: string, path: string, body: unknown) => {
    const response = await fetch(`${h.spotify.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${h.spotifyUser.accessToken}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(response.status, await response.clone().text()).toBeLessThan(300);
  };
  const harness: SyncHarness = {
    ...h,
    now: () => new Date(clock),
    advance(minutes) {
      clock += minutes * 60_000;
    },
    evaluate: () => h.app.app.services.sync.scheduler.evaluate(),
    async migrate(sourceAccount, playlistId, targetProvider, targetAccount) {
      const started = await h.api('/api/migrations', { method: 'POST', body: JSON.stringify({ source_account_id: sourceAccount, target_provider: targetProvider, target_account_id: targetAccount, selection: { playlist_ids: [playlistId] }, acknowledge_warnings: true }) });
      expect(started.status, JSON.stringify(started.json)).toBe(202);
      const id = (started.json as { id: string }).id;
      const job = await h.waitForJob(id, (candidate) => ['completed', 'failed', 'awaiting_review'].includes(candidate.status));
      expect(job.status, JSON.stringify(job)).toBe('completed');
      return id;
    },
    async createRule(jobId, body = {}) {
      const created = await h.api('/api/syncs', { method: 'POST', body: JSON.stringify({ migration_job_id: jobId, schedule: { kind: 'interval', every_minutes: 60 }, ...body }) });
      expect(created.status, JSON.stringify(created.json)).toBe(201);
      return created.json as RuleJson;
    },
    async rule(ruleId) {
      const { status, json } = await h.api(`/api/syncs/${ruleId}`);
      expect(status).toBe(200);
      return json as RuleJson;
    },
    async runs(ruleId) {
      const { status, json } = await h.api(`/api/syncs/${ruleId}/runs`);
      expect(status).toBe(200);
      return json as RunJson[];
    },
    async waitRun(ruleId, runId, until = ['completed', 'failed', 'cancelled', 'review_required']) {
      const started = Date.now();
      let last: RunJson | null = null;
      while (Date.now() - started < 60_000) {
        last = (await h.api(`/api/syncs/${ruleId}/runs/${runId}`)).json as RunJson;
        if (until.includes(last.status)) return last;
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
      throw new Error(`sync run ${runId} did not end; last: ${JSON.stringify(last)}`);
    },
    spotifyPlaylistId(name) {
      const playlist = h.spotify.playlistByName(h.spotifyUser.userId, name);
      if (!playlist) throw new Error(`no Spotify playlist ${name}`);
      return playlist.id;
    },
    spotifyAdd: (playlistId, uris) => spotifyCall('POST', `/v1/playlists/${playlistId}/items`, { uris }),
    spotifyRemove: (playlistId, uris) => spotifyCall('DELETE', `/v1/playlists/${playlistId}/items`, { items: uris.map((uri) => ({ uri })) }),
  };
  return harness;
}
