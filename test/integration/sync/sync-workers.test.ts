import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAvailableOn, seedCatalog } from '../../fakes/seed-catalog.ts';
import { startSplitHarness, type SplitHarness } from '../migrations/support/split-harness.ts';
import type { RuleJson, RunJson } from './sync-harness.ts';

/**
 * Two real worker processes on one database (Spotify source → TIDAL target) start together while
 * three rules are due: each evaluates the schedule at start (and again afterwards, as its
 * every-minute job would); every rule gets one run for the slot, never two, and each song the
 * sources gained lands once.
 */

const catalog = seedCatalog();
const onBoth = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'spotify') && isAvailableOn(track, 'tidal'));
const slotSets = [0, 1, 2].map((index) => onBoth.slice(100 + index * 5, 103 + index * 5));

let h: SplitHarness;

beforeAll(async () => {
  h = await startSplitHarness({
    spotifyLibrary: { playlists: [...slotSets.map((set, index) => ({ name: `Slot ${index + 1}`, trackKeys: set.map((track) => track.key) }))] },
    leaseSeconds: 2,
    sliceSeconds: 5,
  });
}, 300_000);

afterAll(async () => {
  await h?.close();
});

const sync = () => h.app.app.services.sync;
const tidalIds = (playlistId: string) => h.tidal.state.playlists.get(playlistId)!.items.map((item) => item.id);

async function spotifyAppend(playlistName: string, keys: readonly string[]): Promise<void> {
  const response = await fetch(`${h.spotify.baseUrl}/v1/playlists/${h.playlistIds[playlistName]}/items`, {
    method: 'POST',
    headers: { authorization: `Bearer ${h.spotifyUser.accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ uris: keys.map((key) => h.spotify.uriOf(key)!) }),
  });
  expect(response.status, await response.text()).toBe(201);
}

/** Migrates one source playlist with a worker, makes an add-only rule of it; returns the rule and its target. */
async function ruleFor(playlistName: string): Promise<{ rule: RuleJson; targetId: string }> {
  const jobId = await h.migrate(playlistName);
  const deadline = Date.now() + 120_000;
  while ((await h.job(jobId)).status !== 'completed') {
    if (Date.now() > deadline) throw new Error(`the origin migration did not complete: ${JSON.stringify(await h.job(jobId))}`);
    await sleep(250);
  }
  const targetId = (await h.job(jobId)).collections[0]!.target_playlist_id!;
  const created = await h.api('/api/syncs', { method: 'POST', body: JSON.stringify({ migration_job_id: jobId, schedule: { kind: 'interval', every_minutes: 60 } }) });
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  return { rule: created.json as RuleJson, targetId };
}

const rule = async (ruleId: string) => (await h.api(`/api/syncs/${ruleId}`)).json as RuleJson;
const runs = async (ruleId: string) => (await h.api(`/api/syncs/${ruleId}/runs`)).json as RunJson[];

describe('sync rules and several workers', () => {
  it('two worker processes evaluating the same due rules give each rule one run for the slot', async () => {
    const setup = h.startWorker();
    await setup.ready;
    const made: { rule: RuleJson; targetId: string; name: string }[] = [];
    for (const index of [1, 2, 3]) made.push({ ...(await ruleFor(`Slot ${index}`)), name: `Slot ${index}` });
    await setup.stop();
    for (const [index, entry] of made.entries()) await spotifyAppend(entry.name, [onBoth[130 + index]!.key]);
    // The slot arrives while no worker runs (the rules were made with the real clock an hour ahead).
    await sync().execute({ text: `update sync_rule set next_run_at = now() - interval '1 minute' where id in (?, ?, ?)`, values: made.map((entry) => entry.rule.id) });

    const [first, second] = [h.startWorker(), h.startWorker()];
    await Promise.all([first.ready, second.ready]);
    const deadline = Date.now() + 90_000;
    for (const entry of made) {
      while ((await rule(entry.rule.id)).active_run !== null || (await runs(entry.rule.id)).length === 0) {
        if (Date.now() > deadline) throw new Error(`the slot's run did not end: ${JSON.stringify(await runs(entry.rule.id))}\n${first.output().slice(-3000)}`);
        await sleep(250);
      }
    }
    // Both workers evaluate again (as their every-minute job would), after the runs ended.
    await Promise.all([sync().scheduler.evaluate(), sync().scheduler.evaluate()]);
    await Promise.all([first.stop(), second.stop()]);
    for (const [index, entry] of made.entries()) {
      const history = await runs(entry.rule.id);
      expect(history, `${entry.name}: ${JSON.stringify(history)}`).toHaveLength(1);
      expect(history[0]).toMatchObject({ status: 'completed', trigger: 'schedule' });
      const ids = tidalIds(entry.targetId);
      expect(ids.filter((id) => id === h.tidal.trackId(onBoth[130 + index]!.key))).toHaveLength(1);
      expect(new Set(ids).size).toBe(ids.length);
      expect(Date.parse((await rule(entry.rule.id)).next_run_at!)).toBeGreaterThan(Date.now());
    }
  }, 300_000);
});
