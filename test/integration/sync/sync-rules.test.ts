import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSyncEngine } from '../../../core/services/sync/index.ts';
import { attachJob } from '../../../core/services/sync/sync.sql.ts';
import { isAvailableOn, seedCatalog } from '../../fakes/seed-catalog.ts';
import type { JobJson } from '../migrations/migration-harness.ts';
import { startSyncHarness, type RuleJson, type RunJson, type SyncHarness } from './sync-harness.ts';
import { readServerEvents, type ServerEvent } from '../support/server-events.ts';

/**
 * Sync rules through `/api/syncs`: what a rule may start from, its schedule's bounds, mirror only
 * where the target can do it, inverse rules and longer loops through other services refused,
 * settings, pause, resume and removal, the rule and run event stream (resumable), and one run per
 * rule whatever the number of workers — a stale worker's run is taken over, never run twice.
 */

const catalog = seedCatalog();
const everywhere = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && ['spotify', 'tidal', 'deezer'].every((provider) => isAvailableOn(track, provider)));

let h: SyncHarness;
let sourceId = '';
let jobAB = '';
let tidalPlaylist = '';
let r1: RuleJson;
let r2: RuleJson;

beforeAll(async () => {
  h = await startSyncHarness({ spotifyLibrary: { playlists: [{ name: 'Loop', trackKeys: everywhere.slice(0, 3).map((track) => track.key) }], likedTrackKeys: everywhere.slice(3, 5).map((track) => track.key) }, deezerLibrary: {} });
  sourceId = h.spotifyPlaylistId('Loop');
  jobAB = await h.migrate(h.spotifyAccount, sourceId, 'tidal', h.tidalAccount);
  tidalPlaylist = ((await h.api(`/api/migrations/${jobAB}`)).json as JobJson).collections[0]!.target_playlist_id!;
}, 300_000);

afterAll(async () => {
  await h?.close();
});

const post = (path: string, body?: unknown) => h.api(path, { method: 'POST', ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
const targetOf = async (jobId: string) => ((await h.api(`/api/migrations/${jobId}`)).json as JobJson).collections[0]!.target_playlist_id!;

describe('sync rules', () => {
  it('refuses bad schedules, unknown or partial migrations, and mirror for liked songs', async () => {
    for (const schedule of [{ kind: 'interval', every_minutes: 4 }, { kind: 'interval', every_minutes: 10_081 }, { kind: 'daily', at: '25:00', time_zone: 'Europe/Berlin' }, { kind: 'daily', at: '03:00', time_zone: 'Mars/Olympus' }, { kind: 'weekly' }]) {
      const refused = await post('/api/syncs', { migration_job_id: jobAB, schedule });
      expect(refused.status, JSON.stringify(schedule)).toBe(400);
      expect(refused.headers.get('content-type')).toMatch(/application\/problem\+json/);
    }
    expect((await post('/api/syncs', { migration_job_id: '00000000-0000-4000-8000-000000000000', schedule: { kind: 'interval', every_minutes: 60 } })).status).toBe(404);

    // Liked songs stay add-only, whatever the target can do: mirror is refused with the reason, on
    // creation and on a change of mode.
    const liked = await h.migrate(h.spotifyAccount, 'liked', 'deezer', h.deezerAccount!);
    const mirror = await post('/api/syncs', { migration_job_id: liked, mode: 'mirror', schedule: { kind: 'interval', every_minutes: 60 } });
    expect(mirror.status, mirror.text).toBe(422);
    expect(mirror.json).toMatchObject({ code: 'provider_unsupported' });
    expect((mirror.json as { reason: string }).reason).toMatch(/add-only/);
    const likedRule = await h.createRule(liked);
    expect(likedRule).toMatchObject({ collection_kind: 'LIKED_TRACKS', mode: 'add_only' });
    expect((await h.api(`/api/syncs/${likedRule.id}`, { method: 'PATCH', body: JSON.stringify({ mode: 'mirror' }) })).status).toBe(422);
    expect((await h.api(`/api/syncs/${likedRule.id}`, { method: 'DELETE' })).status).toBe(204);

    // A migration of some tracks only is no full-playlist migration.
    const partial = await post('/api/migrations', { source_account_id: h.spotifyAccount, target_provider: 'tidal', target_account_id: h.tidalAccount, selection: { tracks: { [sourceId]: ['pos:0'] } }, acknowledge_warnings: true });
    expect(partial.status).toBe(202);
    const partialId = (partial.json as { id: string }).id;
    await h.waitForJob(partialId, (job) => ['completed', 'failed'].includes(job.status));
    const refused = await post('/api/syncs', { migration_job_id: partialId, schedule: { kind: 'interval', every_minutes: 60 } });
    expect(refused.status).toBe(422);
    expect((refused.json as { detail: string }).detail).toMatch(/one whole playlist/);
    expect((await h.api('/api/syncs')).json).toEqual([]);
  }, 300_000);

  it('makes a rule that runs daily at a wall-clock time of the owner\'s time zone', async () => {
    r1 = await h.createRule(jobAB, { schedule: { kind: 'daily', at: '03:00', time_zone: 'Europe/Berlin' } });
    // The clock says 2026-11-30T08:00Z; 03:00 in Berlin (UTC+1 in winter) comes next on 1 December.
    expect(r1).toMatchObject({ status: 'active', collection_kind: 'PLAYLIST', schedule: { kind: 'daily', at: '03:00', time_zone: 'Europe/Berlin' }, next_run_at: '2026-12-01T02:00:00.000Z', target: { playlist_id: tidalPlaylist } });
    const again = await post('/api/syncs', { migration_job_id: jobAB, schedule: { kind: 'interval', every_minutes: 60 } });
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ code: 'conflict', rule_id: r1.id });
  }, 300_000);

  it('refuses the inverse rule (B→A beside A→B)', async () => {
    // TIDAL back to Spotify lands in the same playlist (same name, same songs): the inverse endpoints.
    const back = await h.migrate(h.tidalAccount, tidalPlaylist, 'spotify', h.spotifyAccount);
    expect(await targetOf(back)).toBe(sourceId);
    const refused = await post('/api/syncs', { migration_job_id: back, schedule: { kind: 'interval', every_minutes: 60 } });
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ code: 'sync_rule_cycle', inverse: true, rule_ids: [r1.id] });
  }, 300_000);

  it('refuses a longer loop through other rules (A→B, B→C, then C→A)', async () => {
    const toDeezer = await h.migrate(h.tidalAccount, tidalPlaylist, 'deezer', h.deezerAccount!);
    r2 = await h.createRule(toDeezer);
    const deezerPlaylist = await targetOf(toDeezer);
    const closing = await h.migrate(h.deezerAccount!, deezerPlaylist, 'spotify', h.spotifyAccount);
    expect(await targetOf(closing)).toBe(sourceId);
    const refused = await post('/api/syncs', { migration_job_id: closing, schedule: { kind: 'interval', every_minutes: 60 } });
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ code: 'sync_rule_cycle', inverse: false, rule_ids: [r1.id, r2.id] });

    // Without the middle rule there is no loop: the same rule is accepted.
    expect((await h.api(`/api/syncs/${r2.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await h.api(`/api/syncs/${r2.id}`)).status).toBe(404);
    const accepted = await post('/api/syncs', { migration_job_id: closing, schedule: { kind: 'interval', every_minutes: 60 } });
    expect(accepted.status, JSON.stringify(accepted.json)).toBe(201);
    expect((await h.api(`/api/syncs/${(accepted.json as RuleJson).id}`, { method: 'DELETE' })).status).toBe(204);
  }, 300_000);

  it('changes the schedule, pauses and resumes', async () => {
    const patched = await h.api(`/api/syncs/${r1.id}`, { method: 'PATCH', body: JSON.stringify({ schedule: { kind: 'interval', every_minutes: 30 } }) });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ schedule: { kind: 'interval', every_minutes: 30 }, next_run_at: new Date(h.now().getTime() + 30 * 60_000).toISOString() });
    expect((await h.api(`/api/syncs/${r1.id}`, { method: 'PATCH', body: JSON.stringify({}) })).status).toBe(400);

    const paused = await post(`/api/syncs/${r1.id}/pause`);
    expect(paused.json).toMatchObject({ status: 'paused', pause_code: 'user', action: { type: 'resume' }, next_run_at: null });
    expect((await post(`/api/syncs/${r1.id}/pause`)).status).toBe(409);
    h.advance(24 * 60);
    expect((await h.evaluate()).created).toEqual([]);
    const resumed = await post(`/api/syncs/${r1.id}/resume`);
    expect(resumed.json).toMatchObject({ status: 'active', pause_code: null });
    expect((await post(`/api/syncs/${r1.id}/resume`)).status).toBe(409);
    // Resumed: it catches up at the next evaluation, once.
    const { created } = await h.evaluate();
    expect(created).toHaveLength(1);
    expect((await h.waitRun(r1.id, created[0]!)).status).toBe('completed');
    expect((await h.api('/api/syncs')).json as RuleJson[]).toHaveLength(1);
  }, 300_000);

  it('streams rule and run changes as server-sent events, resumable with Last-Event-ID', async () => {
    // The backlog holds the completed run, the rule's state and the deletions (in the order they happened).
    const first = await readEvents(
      null,
      (events) =>
        events.some((event) => event.type === 'run' && (event.data as RunJson).status === 'completed') &&
        events.some((event) => event.type === 'rule' && (event.data as RuleJson).id === r1.id) &&
        events.some((event) => event.type === 'rule_deleted' && (event.data as { id: string }).id === r2.id),
    );
    const last = Math.max(...first.map((event) => event.id));
    expect(first.some((event) => event.type === 'rule' && (event.data as RuleJson).id === r1.id)).toBe(true);
    // The rules deleted earlier are events too: a page learns that they are gone.
    expect(first.filter((event) => event.type === 'rule_deleted').map((event) => (event.data as { id: string }).id)).toContain(r2.id);
    expect(first.find((event) => event.type === 'rule' && (event.data as RuleJson).id === r2.id)).toBeUndefined();
    await post(`/api/syncs/${r1.id}/pause`);
    const next = await readEvents(last, (events) => events.some((event) => event.type === 'rule'));
    expect(next.every((event) => event.id > last)).toBe(true);
    expect(next.find((event) => event.type === 'rule')!.data).toMatchObject({ id: r1.id, status: 'paused' });
    await post(`/api/syncs/${r1.id}/resume`);
  }, 300_000);

  it('one run per rule, whatever the number of workers; a stale worker\'s run is taken over and never run twice', async () => {
    const services = h.app.app.services;
    const second = createSyncEngine({
      execute: services.sync.execute,
      transaction: (work) => services.database.orm.em.fork().transactional((em) => work((statement) => em.execute(statement.text, statement.values))),
      connectionString: services.database.connectionString,
      logger: services.logger,
      migrations: services.migrations,
      connections: services.connections,
      playlists: services.playlists,
      catalogue: services.plugins.catalogue,
      enqueueRun: async () => undefined,
      clock: () => h.now(),
      workerId: 'second-worker',
      leaseSeconds: 3,
    });
    await h.spotifyAdd(sourceId, [h.spotify.uriOf(everywhere[3]!.key)!]);
    const run = (await post(`/api/syncs/${r1.id}/run`)).json as RunJson;
    // The queued job's worker and a second worker go for the same run at once.
    await Promise.all([second.runner.run(run.id, new AbortController().signal), services.sync.runner.run(run.id, new AbortController().signal)]);
    const done = await h.waitRun(r1.id, run.id);
    expect(done).toMatchObject({ status: 'completed', attempt: 1, stats: { added: 1, written: 1 } });
    const jobs = await services.sync.execute({ text: `select id from migration_job where sync_run_id = ?`, values: [run.id] });
    expect(jobs).toHaveLength(1);

    // A worker took a run and vanished (its lease ran out before it made a job).
    await h.spotifyAdd(sourceId, [h.spotify.uriOf(everywhere[4]!.key)!]);
    const [stale] = await services.sync.execute({
      text: `insert into sync_run (rule_id, owner_id, scheduled_for, status, lease_owner, lease_expires_at, started_at) values (?, 'local', now(), 'running', 'vanished-worker', now() - interval '1 minute', now()) returning id`,
      values: [r1.id],
    });
    const staleId = String(stale!['id']);
    // The rule has its one run: the schedule makes no other, in any process.
    h.advance(60);
    const evaluated = await h.evaluate();
    expect(evaluated.created).toEqual([]);
    expect(evaluated.requeued).toContain(staleId);
    const taken = await h.waitRun(r1.id, staleId);
    expect(taken).toMatchObject({ status: 'completed', attempt: 2, stats: { added: 1, written: 1 } });
    // The vanished worker coming back cannot record a job for it any more.
    expect(await services.sync.execute(attachJob(staleId, 'vanished-worker', '00000000-0000-4000-8000-000000000000', {}, {}, {}))).toEqual([]);
    const entries = h.tidal.playlistEntries(tidalPlaylist)!.map((entry) => entry.id);
    expect(new Set(entries).size).toBe(entries.length);
    expect(entries).toHaveLength(5);
  }, 300_000);
});

type Event = ServerEvent<unknown>;

/** Reads the sync event stream until `enough` holds for what arrived (or 20 s pass). */
function readEvents(after: number | null, enough: (events: readonly Event[]) => boolean): Promise<Event[]> {
  return readServerEvents<unknown>(`${h.baseUrl}/api/syncs/events`, { ...(after === null ? {} : { lastEventId: after }), until: enough, timeoutMs: 20_000 });
}
