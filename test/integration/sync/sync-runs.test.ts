import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAvailableOn, seedCatalog } from '../../fakes/seed-catalog.ts';
import type { RecordedFakeRequest } from '../../fakes/fake-provider.ts';
import { connectByRedirect, type JobJson } from '../migrations/migration-harness.ts';
import { startSyncHarness, type RuleJson, type SyncHarness } from './sync-harness.ts';

/**
 * Add-only sync runs end to end, with the schedule's clock in the test's hand: the first run waits
 * for its slot, an unchanged source costs one provider read and nothing else, a day of downtime
 * makes one catch-up run, added songs go through an ordinary migration job (origin sync) that
 * never adds a song twice — whoever put it on the target — a review holds the rule until it is
 * done, and expired connections, a deleted target and a collapsed read pause or retry as they
 * should, without writing; repeated failures pause the rule with the reason, and a provider's used-up
 * daily quota (the YouTube Data API's) defers the rule to the quota's reset.
 */

const catalog = seedCatalog();
const onBoth = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'spotify') && isAvailableOn(track, 'tidal'));
// Spotify has it, TIDAL only has another version of it: the match waits for review.
const needsReview = [...catalog.tracks.values()].find((track) => track.title === 'Shadows Hour' && isAvailableOn(track, 'spotify') && !isAvailableOn(track, 'tidal'))!;
const initial = onBoth.slice(0, 6);
const onYoutube = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'youtube') && isAvailableOn(track, 'tidal')).slice(0, 2);

let h: SyncHarness;
let sourceId = '';
let targetId = '';
let rule: RuleJson;

beforeAll(async () => {
  h = await startSyncHarness({ spotifyLibrary: { playlists: [{ name: 'Commute', trackKeys: initial.map((track) => track.key) }] }, youtubeLibrary: { playlists: [{ name: 'Quota Source', trackKeys: onYoutube.map((track) => track.key) }] } });
  sourceId = h.spotifyPlaylistId('Commute');
}, 300_000);

afterAll(async () => {
  await h?.close();
});

const uriOf = (key: string) => h.spotify.uriOf(key)!;
const tidalIds = () => h.tidal.playlistEntries(targetId)!.map((entry) => entry.id);
const tidalIdOf = (key: string) => h.tidal.trackId(key)!;

/** The requests the fakes received while `work` ran. */
async function requestsDuring(work: () => Promise<unknown>): Promise<{ spotify: RecordedFakeRequest[]; tidal: RecordedFakeRequest[] }> {
  const spotifyFrom = h.spotify.requests.length;
  const tidalFrom = h.tidal.requests.length;
  await work();
  return { spotify: h.spotify.requests.slice(spotifyFrom), tidal: h.tidal.requests.slice(tidalFrom) };
}

async function runNow(): Promise<string> {
  const started = await h.api(`/api/syncs/${rule.id}/run`, { method: 'POST' });
  expect(started.status, JSON.stringify(started.json)).toBe(202);
  return (started.json as { id: string }).id;
}

describe('add-only sync runs', () => {
  it('a rule starts from the finished migration and waits for its first slot', async () => {
    const jobId = await h.migrate(h.spotifyAccount, sourceId, 'tidal', h.tidalAccount);
    targetId = ((await h.api(`/api/migrations/${jobId}`)).json as JobJson).collections[0]!.target_playlist_id!;
    rule = await h.createRule(jobId);
    expect(rule).toMatchObject({ status: 'active', mode: 'add_only', target: { provider: 'tidal', playlist_id: targetId }, source: { provider: 'spotify', playlist_id: sourceId } });
    expect(new Date(rule.next_run_at!).getTime()).toBe(h.now().getTime() + 60 * 60_000);
    expect((await h.evaluate()).created).toEqual([]);
    h.advance(59);
    expect((await h.evaluate()).created).toEqual([]);
    expect(await h.runs(rule.id)).toEqual([]);
  }, 300_000);

  it('an unchanged source costs one provider read per run: no search, no match, no write', async () => {
    for (let run = 0; run < 5; run++) {
      h.advance(60);
      const seen = await requestsDuring(async () => {
        const { created } = await h.evaluate();
        expect(created).toHaveLength(1);
        const done = await h.waitRun(rule.id, created[0]!);
        expect(done).toMatchObject({ status: 'completed', migration_job_id: null, stats: { unchanged: true, provider_reads: 1 } });
      });
      expect(seen.tidal).toEqual([]);
      // One plugin read (`readPlaylist`): Spotify's plugin asks for the profile and the playlist object.
      expect(seen.spotify.filter((request) => request.path.startsWith('/v1/')).map((request) => `${request.method} ${request.path}`)).toEqual(['GET /v1/me', `GET /v1/playlists/${sourceId}`]);
    }
    expect(tidalIds()).toEqual(initial.map((track) => tidalIdOf(track.key)));
  }, 300_000);

  it('after a day of downtime one catch-up run is made, not one per missed slot', async () => {
    h.advance(24 * 60);
    const first = await h.evaluate();
    expect(first.created).toHaveLength(1);
    expect((await h.evaluate()).created).toEqual([]);
    const after = await h.rule(rule.id);
    const next = new Date(after.next_run_at!).getTime();
    expect(next).toBeGreaterThan(h.now().getTime());
    expect(next).toBeLessThanOrEqual(h.now().getTime() + 60 * 60_000);
    expect((await h.waitRun(rule.id, first.created[0]!)).status).toBe('completed');
    expect((await h.evaluate()).created).toEqual([]);
  }, 300_000);

  it('added songs go through an ordinary migration job that adds nothing the target already has', async () => {
    // The user put one song on the target by hand, and one more that the source never had.
    const target = h.tidal.state.playlists.get(targetId)!;
    const [byHand, handOnly, fresh1, fresh2] = [onBoth[6]!, onBoth[7]!, onBoth[8]!, onBoth[9]!];
    target.items.push(h.tidal.state.newEntry('tracks', tidalIdOf(byHand.key)), h.tidal.state.newEntry('tracks', tidalIdOf(handOnly.key)));
    // The source gains that song, two new ones, and a second copy of a song both have.
    await h.spotifyAdd(sourceId, [uriOf(byHand.key), uriOf(fresh1.key), uriOf(initial[0]!.key), uriOf(fresh2.key)]);
    const playlistsBefore = h.tidal.playlistsOf(h.tidalUser.userId).length;

    const done = await h.waitRun(rule.id, await runNow());
    // The job selects songs by track id, so the repeated song's first copy is looked at too: both
    // copies and the hand-added song are skipped as already there.
    expect(done, JSON.stringify(done)).toMatchObject({ status: 'completed', stats: { unchanged: false, added: 4, written: 2, skipped: 3, failed: 0 } });
    const job = (await h.api(`/api/migrations/${done.migration_job_id}`)).json as JobJson;
    expect(job).toMatchObject({ origin: 'sync', sync_run_id: done.id, status: 'completed', source_provider: 'spotify', target_provider: 'tidal' });
    expect(job.collections[0]!.target_playlist_id).toBe(targetId);

    const ids = tidalIds();
    expect(ids).toEqual([...initial.map((track) => tidalIdOf(track.key)), tidalIdOf(byHand.key), tidalIdOf(handOnly.key), tidalIdOf(fresh1.key), tidalIdOf(fresh2.key)]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(h.tidal.playlistsOf(h.tidalUser.userId)).toHaveLength(playlistsBefore);

    // Committed: the next run finds nothing new and writes nothing.
    const seen = await requestsDuring(async () => expect((await h.waitRun(rule.id, await runNow())).stats).toMatchObject({ unchanged: true }));
    expect(seen.tidal).toEqual([]);
    expect(tidalIds()).toEqual(ids);
  }, 300_000);

  it('a run whose match needs review holds the rule until the review is done; then the checkpoint is committed', async () => {
    await h.spotifyAdd(sourceId, [uriOf(needsReview.key)]);
    const runId = await runNow();
    const waiting = await h.waitRun(rule.id, runId, ['review_required', 'completed', 'failed']);
    expect(waiting.status).toBe('review_required');
    expect(await h.rule(rule.id)).toMatchObject({ status: 'review_required', next_run_at: null });
    h.advance(3 * 60);
    expect((await h.evaluate()).created).toEqual([]);
    expect((await h.api(`/api/syncs/${rule.id}/run`, { method: 'POST' })).status).toBe(409);

    const reviewed = await h.api(`/api/migrations/${waiting.migration_job_id}/items/review`, { method: 'POST', body: JSON.stringify({ action: 'skip', item_ids: [] }) });
    expect(reviewed.status, JSON.stringify(reviewed.json)).toBe(200);
    expect((await h.waitRun(rule.id, runId, ['completed', 'failed'])).status).toBe('completed');
    expect((await h.rule(rule.id)).status).toBe('active');
    // The skipped song is part of the checkpoint: it is not asked about again.
    expect((await h.waitRun(rule.id, await runNow())).stats).toMatchObject({ unchanged: true });
  }, 300_000);

  it('a source read that collapses is a failed read, not deletions: nothing written, retried sooner', async () => {
    const all = h.spotify.playlist(sourceId)!.uris;
    const removed = all.slice(2);
    await h.spotifyRemove(sourceId, removed);
    const before = tidalIds();
    const done = await h.waitRun(rule.id, await runNow());
    expect(done).toMatchObject({ status: 'failed', error_code: 'read_collapse', migration_job_id: null });
    const after = await h.rule(rule.id);
    expect(after).toMatchObject({ status: 'active', consecutive_failures: 1 });
    expect(new Date(after.next_run_at!).getTime()).toBeLessThanOrEqual(h.now().getTime() + 2 * 60_000);
    expect(tidalIds()).toEqual(before);
    // The songs come back: nothing is new to the checkpoint, so nothing is written.
    await h.spotifyAdd(sourceId, [...new Set(removed)]);
    expect((await h.waitRun(rule.id, await runNow())).status).toBe('completed');
    expect((await h.rule(rule.id)).consecutive_failures).toBe(0);
    expect(tidalIds()).toEqual(before);
  }, 300_000);

  it('an expired source connection pauses the rule with a Reconnect action; resume after reconnecting runs it', async () => {
    h.spotify.failNext({ kind: 'expired_token', times: 1_000, pathPrefix: '/v1/' });
    const done = await h.waitRun(rule.id, await runNow()).finally(() => h.spotify.clearFailures());
    expect(done).toMatchObject({ status: 'failed', error_code: 'auth_expired_source' });
    const paused = await h.rule(rule.id);
    expect(paused).toMatchObject({ status: 'paused', pause_code: 'auth_expired_source', action: { type: 'reconnect', account_id: h.spotifyAccount }, next_run_at: null });
    h.advance(2 * 60);
    expect((await h.evaluate()).created).toEqual([]);
    expect((await h.api(`/api/syncs/${rule.id}/run`, { method: 'POST' })).status).toBe(409);

    expect(await connectByRedirect(h.baseUrl, 'spotify')).toBe(h.spotifyAccount);
    const fresh = onBoth[10]!;
    await h.spotifyAdd(sourceId, [uriOf(fresh.key)]);
    const resumed = await h.api(`/api/syncs/${rule.id}/resume`, { method: 'POST' });
    expect(resumed.status).toBe(200);
    expect(resumed.json).toMatchObject({ status: 'active', pause_code: null, consecutive_failures: 0 });
    const { created } = await h.evaluate();
    expect(created).toHaveLength(1);
    const resumedRun = await h.waitRun(rule.id, created[0]!);
    expect(resumedRun, JSON.stringify(resumedRun)).toMatchObject({ status: "completed", stats: { added: 1, written: 1 } });
    expect(tidalIds()).toContain(tidalIdOf(fresh.key));
  }, 300_000);

  it('repeated failures are retried after 2, 4, 8, 16 minutes, then pause the rule with the reason; resume runs it', async () => {
    h.spotify.failNext({ kind: 'server_error', status: 503, pathPrefix: '/v1/', times: 100_000 });
    try {
      const first = await h.runNow(rule.id);
      expect(first, JSON.stringify(first)).toMatchObject({ status: 'failed', error_code: 'provider_unavailable', migration_job_id: null });
      for (let failures = 1; failures < 5; failures++) {
        const waiting = await h.rule(rule.id);
        expect(waiting).toMatchObject({ status: 'active', consecutive_failures: failures });
        const waitMinutes = (Date.parse(waiting.next_run_at!) - h.now().getTime()) / 60_000;
        expect(waitMinutes).toBe(2 ** failures);
        h.advance(waitMinutes - 1);
        expect((await h.evaluate()).created).toEqual([]);
        h.advance(1);
        const { created } = await h.evaluate();
        expect(created).toHaveLength(1);
        expect((await h.waitRun(rule.id, created[0]!, ['completed', 'failed'])).status).toBe('failed');
      }
    } finally {
      h.spotify.clearFailures();
    }
    const paused = await h.rule(rule.id);
    expect(paused).toMatchObject({ status: 'paused', pause_code: 'repeated_failures', consecutive_failures: 5, next_run_at: null });
    expect(paused.pause_reason).toMatch(/^5 runs in a row failed; the last said: .+/);
    h.advance(24 * 60);
    expect((await h.evaluate()).created).toEqual([]);

    const resumed = await h.api(`/api/syncs/${rule.id}/resume`, { method: 'POST' });
    expect(resumed.status, resumed.text).toBe(200);
    expect(resumed.json).toMatchObject({ status: 'active', pause_code: null, pause_reason: null, consecutive_failures: 0 });
    const { created } = await h.evaluate();
    expect(created).toHaveLength(1);
    expect((await h.waitRun(rule.id, created[0]!)).status).toBe('completed');
  }, 300_000);

  it('a deleted target pauses the rule and is never re-created', async () => {
    const playlistsBefore = h.tidal.playlistsOf(h.tidalUser.userId).map((playlist) => playlist.id);
    h.tidal.state.playlists.delete(targetId);
    await h.spotifyAdd(sourceId, [uriOf(onBoth[11]!.key)]);
    const seen = await requestsDuring(async () => {
      const done = await h.waitRun(rule.id, await runNow());
      expect(done, JSON.stringify(done)).toMatchObject({ status: 'failed', error_code: 'target_deleted', migration_job_id: null });
    });
    expect(seen.tidal.filter((request) => request.method !== 'GET')).toEqual([]);
    expect(await h.rule(rule.id)).toMatchObject({ status: 'paused', pause_code: 'target_deleted', action: { type: 'resume' } });
    expect(h.tidal.playlistsOf(h.tidalUser.userId).map((playlist) => playlist.id)).toEqual(playlistsBefore.filter((id) => id !== targetId));
  }, 300_000);

  it('a used-up daily quota defers the rule to the quota reset, not to a slot before it', async () => {
    // The engine dates a quota's reset by the real clock (YouTube's day ends at midnight Pacific): the schedule's clock is set to now.
    h.setNow(new Date(Math.floor(Date.now() / 60_000) * 60_000));
    const listed = (await h.api(`/api/playlists?account_id=${h.youtubeAccount!}`)).json as { playlists: { id: string; name: string }[] };
    const quotaSource = listed.playlists.find((playlist) => playlist.name === 'Quota Source')!.id;
    const started = await h.api('/api/migrations', { method: 'POST', body: JSON.stringify({ source_account_id: h.youtubeAccount, target_provider: 'tidal', target_account_id: h.tidalAccount, selection: { playlist_ids: [quotaSource] }, strictness: 'best_effort', acknowledge_warnings: true }) });
    expect(started.status, started.text).toBe(202);
    const jobId = (started.json as { id: string }).id;
    let job = await h.waitForJob(jobId, (candidate) => ['completed', 'failed', 'awaiting_review'].includes(candidate.status));
    if (job.status === 'awaiting_review') {
      expect((await h.api(`/api/migrations/${jobId}/items/review`, { method: 'POST', body: JSON.stringify({ action: 'approve', item_ids: [] }) })).status).toBe(200);
      job = await h.waitForJob(jobId, (candidate) => ['completed', 'failed'].includes(candidate.status));
    }
    expect(job.status, JSON.stringify(job)).toBe('completed');
    const quotaRule = await h.createRule(jobId, { schedule: { kind: 'interval', every_minutes: 5 } });

    // The day's quota of the engine's Google project is used up: YouTube answers quotaExceeded.
    h.youtube!.setQuotaUsed({ units: 10_000 }, h.youtubeClientId);
    const failed = await h.runNow(quotaRule.id);
    expect(failed, JSON.stringify(failed)).toMatchObject({ status: 'failed', error_code: 'quota_exhausted', migration_job_id: null });
    const deferred = await h.rule(quotaRule.id);
    expect(deferred).toMatchObject({ status: 'active', consecutive_failures: 1 });
    const resetAt = Date.parse(deferred.next_run_at!);
    // Not the 2-minute retry of other failures: midnight Pacific, within the next day.
    expect(new Intl.DateTimeFormat('en-US', { timeZone: 'America/Los_Angeles', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).format(resetAt)).toBe('00:00:00');
    expect(resetAt).toBeGreaterThan(Date.now());
    expect(resetAt - Date.now()).toBeLessThanOrEqual(25 * 3_600_000);
    // Every slot before the reset (one each 5 minutes) passes without a run…
    h.setNow(new Date(resetAt - 60_000));
    expect((await h.evaluate()).created).toEqual([]);
    // …and at the reset it runs (the engine still counts today's quota as spent, so that run is deferred again).
    h.setNow(new Date(resetAt));
    const { created } = await h.evaluate();
    expect(created).toHaveLength(1);
    const again = await h.waitRun(quotaRule.id, created[0]!, ['completed', 'failed']);
    expect(again, JSON.stringify(again)).toMatchObject({ status: 'failed', error_code: 'quota_exhausted' });
  }, 300_000);
});
