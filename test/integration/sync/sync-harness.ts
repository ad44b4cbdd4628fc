import { expect } from 'vitest';
import { seedCatalog, type SeedLibrary } from '../../fakes/seed-catalog.ts';
import { startMigrationHarness, type JobJson, type MigrationHarness } from '../migrations/migration-harness.ts';

/**
 * The migration harness (real engine, Spotify/TIDAL plugins against their fakes) with the sync
 * engine's clock in the test's hand: `advance(minutes)` moves it, `evaluate()` is what the
 * every-minute `sync.evaluate` job does. Helpers change the fakes the way their users would, through
 * the providers' own APIs (or, for a TIDAL source, as TIDAL's app would: new entries, a new order
 * and a new `lastModifiedAt`), and set a rule up from a migration.
 */

const catalog = seedCatalog();

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
  /** Sets the clock (backwards too): for a test whose provider reports times from the real clock (a quota reset). */
  setNow(at: Date): void;
  evaluate(): Promise<{ created: string[]; requeued: string[] }>;
  /** Migrates one whole Spotify playlist to TIDAL (or `to`), waits for it, returns the job id. */
  migrate(sourceAccount: string, playlistId: string, targetProvider: string, targetAccount: string): Promise<string>;
  createRule(jobId: string, body?: Record<string, unknown>): Promise<RuleJson>;
  /**
   * A rule from a fresh migration of one whole playlist: migrates it (extra migration fields in
   * `migration`, e.g. a strictness), waits for it to complete, and creates the rule (`body`).
   */
  ruleFrom(source: { account: string; playlistId: string }, target: { provider: string; account: string }, body?: Record<string, unknown>, migration?: Record<string, unknown>): Promise<{ jobId: string; targetId: string; rule: RuleJson }>;
  /** Starts a run now and waits until it ends (`until`: completed or failed unless told). */
  runNow(ruleId: string, until?: readonly string[]): Promise<RunJson>;
  rule(ruleId: string): Promise<RuleJson>;
  runs(ruleId: string): Promise<RunJson[]>;
  /** Waits until the rule's run `runId` ends (completed, failed, cancelled or review_required). */
  waitRun(ruleId: string, runId: string, until?: readonly string[]): Promise<RunJson>;
  spotifyPlaylistId(name: string): string;
  spotifyAdd(playlistId: string, uris: readonly string[]): Promise<void>;
  spotifyRemove(playlistId: string, uris: readonly string[]): Promise<void>;
  /** Spotify's reorder call: the entry at `from` goes before the entry now at `insertBefore`. */
  spotifyMove(playlistId: string, from: number, insertBefore: number): Promise<void>;
  tidalPlaylistId(name: string): string;
  /** The seed keys of a TIDAL playlist's entries, in order. */
  tidalKeys(playlistId: string): string[];
  /** Changes a TIDAL playlist as TIDAL's app would: these songs in this order (kept entries stay the same entries), a new `lastModifiedAt`. */
  tidalEdit(playlistId: string, keys: readonly string[]): void;
}

export async function startSyncHarness(options: { spotifyLibrary: SeedLibrary; tidalLibrary?: SeedLibrary; deezerLibrary?: SeedLibrary; ytmusicLibrary?: SeedLibrary; youtubeLibrary?: SeedLibrary }): Promise<SyncHarness> {
  let clock = Date.parse('2026-11-30T08:00:00Z');
  const h = await startMigrationHarness({
    spotifyLibrary: options.spotifyLibrary,
    tidalLibrary: options.tidalLibrary ?? {},
    ...(options.deezerLibrary ? { deezerLibrary: options.deezerLibrary } : {}),
    ...(options.ytmusicLibrary ? { ytmusicLibrary: options.ytmusicLibrary } : {}),
    ...(options.youtubeLibrary ? { youtubeLibrary: options.youtubeLibrary } : {}),
    overrides: { scheduleClock: () => new Date(clock), syncLeaseSeconds: 3 },
  });
  const spotifyCall = async (method: string, path: string, body: unknown) => {
    const response = await fetch(`${h.spotify.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${h.spotifyUser.accessToken}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(response.status, await response.clone().text()).toBeLessThan(300);
  };
  const keyOfTidalId = new Map([...catalog.tracks.values()].map((track) => [h.tidal.trackId(track.key), track.key]));
  const harness: SyncHarness = {
    ...h,
    now: () => new Date(clock),
    advance(minutes) {
      clock += minutes * 60_000;
    },
    setNow(at) {
      clock = at.getTime();
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
    async ruleFrom(source, target, body = {}, migration = {}) {
      const started = await h.api('/api/migrations', { method: 'POST', body: JSON.stringify({ source_account_id: source.account, target_provider: target.provider, target_account_id: target.account, selection: { playlist_ids: [source.playlistId] }, acknowledge_warnings: true, ...migration }) });
      expect(started.status, started.text).toBe(202);
      const jobId = (started.json as { id: string }).id;
      const job = await h.waitForJob(jobId, (candidate) => ['completed', 'failed', 'awaiting_review'].includes(candidate.status));
      expect(job.status, JSON.stringify(job)).toBe('completed');
      const targetId = ((await h.api(`/api/migrations/${jobId}`)).json as JobJson).collections[0]!.target_playlist_id!;
      return { jobId, targetId, rule: await harness.createRule(jobId, body) };
    },
    async runNow(ruleId, until = ['completed', 'failed']) {
      const started = await h.api(`/api/syncs/${ruleId}/run`, { method: 'POST' });
      expect(started.status, started.text).toBe(202);
      return harness.waitRun(ruleId, (started.json as { id: string }).id, until);
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
    spotifyMove: (playlistId, from, insertBefore) => spotifyCall('PUT', `/v1/playlists/${playlistId}/items`, { range_start: from, insert_before: insertBefore, range_length: 1 }),
    tidalPlaylistId(name) {
      const playlist = h.tidal.playlistsOf(h.tidalUser.userId).find((candidate) => candidate.name === name);
      if (!playlist) throw new Error(`no TIDAL playlist ${name}`);
      return playlist.id;
    },
    tidalKeys: (playlistId) => h.tidal.state.playlists.get(playlistId)!.items.map((item) => keyOfTidalId.get(item.id)!),
    tidalEdit(playlistId, keys) {
      const playlist = h.tidal.state.playlists.get(playlistId)!;
      const kept = new Map(playlist.items.map((item) => [item.id, item]));
      playlist.items = keys.map((key) => {
        const id = h.tidal.trackId(key)!;
        const entry = kept.get(id) ?? h.tidal.state.newEntry('tracks', id);
        kept.delete(id);
        return entry;
      });
      playlist.lastModifiedAt = h.tidal.state.timestamp();
    },
  };
  return harness;
}
