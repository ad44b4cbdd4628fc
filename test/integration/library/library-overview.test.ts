import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAvailableOn, seedCatalog, type SeedTrack } from '../../fakes/seed-catalog.ts';
import { startSyncHarness, type SyncHarness } from '../sync/sync-harness.ts';

/**
 * The Home overview through HTTP against the Spotify and TIDAL fakes: accounts and their health
 * (never read, read, needing a reconnect), recent and running jobs with the playlists they copy,
 * sync rules needing attention, reviews waiting — and not one provider request to build it.
 */

const catalog = seedCatalog();
const songs = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && track.isrc !== null && isAvailableOn(track, 'spotify') && isAvailableOn(track, 'tidal'));
const onTidal = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'tidal'));
const keys = (tracks: readonly SeedTrack[]) => tracks.map((track) => track.key);
const artistOf = (key: string) => catalog.artists.get(catalog.tracks.get(key)!.artistKeys[0]!)!.name;
// The seed catalogue is deterministic: these have equally good twins on TIDAL, so they wait for review.
const twins = ['Dancing Home', 'Drive Midnight'].map((title) => onTidal.find((track) => track.title === title)!);

interface OverviewJson {
  accounts: { account_id: string; provider: string; status: string; health: string; fetched_at: string | null; playlists: number | null; tracks_read: number }[];
  jobs: { active: number; recent: { id: string; name: string | null; status: string; origin: string; source_provider: string; target_provider: string }[] };
  sync_rules: { total: number; needing_attention: { id: string; name: string; status: string; pause_code: string | null }[] };
  reviews: { items: number; jobs: { job_id: string; name: string | null; items: number }[] };
}

let h: SyncHarness;

beforeAll(async () => {
  h = await startSyncHarness({
    spotifyLibrary: { playlists: [{ name: 'Morning Run', trackKeys: keys(songs.slice(0, 4)) }, { name: 'Late Night', trackKeys: keys(songs.slice(4, 8)) }] },
    tidalLibrary: { playlists: [{ name: 'Tidal Only', trackKeys: keys(songs.slice(8, 10)) }] },
  });
}, 300_000);

afterAll(async () => {
  await h?.close();
});

async function overview(): Promise<OverviewJson> {
  const spotifyFrom = h.spotify.requests.length;
  const tidalFrom = h.tidal.requests.length;
  const response = await h.api('/api/library/overview');
  expect(response.status, response.text).toBe(200);
  // A few aggregates from the database: not one provider request.
  expect([...h.spotify.requests.slice(spotifyFrom), ...h.tidal.requests.slice(tidalFrom)]).toEqual([]);
  return response.json as OverviewJson;
}

const accountOf = (view: OverviewJson, id: string) => view.accounts.find((account) => account.account_id === id)!;

describe('Home overview', () => {
  it('shows connected accounts as not read until the workspace reads them, and nothing else yet', async () => {
    const view = await overview();
    expect(view.accounts.map((account) => account.account_id).sort()).toEqual([h.spotifyAccount, h.tidalAccount].sort());
    expect(accountOf(view, h.spotifyAccount)).toMatchObject({ provider: 'spotify', status: 'connected', health: 'not_read', fetched_at: null, playlists: null, tracks_read: 0 });
    expect(view.jobs).toEqual({ active: 0, recent: [] });
    expect(view.sync_rules).toEqual({ total: 0, needing_attention: [] });
    expect(view.reviews).toEqual({ items: 0, jobs: [] });

    const refreshed = await h.api(`/api/library/accounts/${h.spotifyAccount}/refresh`, { method: 'POST', body: JSON.stringify({ full: false }) });
    expect(refreshed.status, refreshed.text).toBe(200);
    // Two playlists and the liked songs, all read.
    expect(accountOf(await overview(), h.spotifyAccount)).toMatchObject({ health: 'ok', playlists: 3, tracks_read: 3 });
  }, 120_000);

  it('lists recent jobs by the playlists they copy, and a sync rule once it needs attention', async () => {
    const jobId = await h.migrate(h.spotifyAccount, h.spotifyPlaylistId('Morning Run'), 'tidal', h.tidalAccount);
    let view = await overview();
    expect(view.jobs.active).toBe(0);
    expect(view.jobs.recent[0]).toMatchObject({ id: jobId, name: 'Morning Run', status: 'completed', origin: 'user', source_provider: 'spotify', target_provider: 'tidal' });

    const rule = await h.createRule(jobId);
    view = await overview();
    // A healthy rule needs nothing.
    expect(view.sync_rules).toEqual({ total: 1, needing_attention: [] });
    const paused = await h.api(`/api/syncs/${rule.id}/pause`, { method: 'POST' });
    expect(paused.status, paused.text).toBe(200);
    view = await overview();
    expect(view.sync_rules.total).toBe(1);
    expect(view.sync_rules.needing_attention).toEqual([expect.objectContaining({ id: rule.id, name: 'Morning Run', status: 'paused' })]);
  }, 120_000);

  it('counts the songs waiting for review, and the job waiting among the running ones', async () => {
    const pasted = await h.api('/api/imports/text-preview', { method: 'POST', body: JSON.stringify({ text: twins.map((track) => `${artistOf(track.key)} - ${track.title}`).join('\n'), name: 'Twins To Review' }) });
    expect(pasted.status, pasted.text).toBe(201);
    const started = await h.api('/api/migrations', {
      method: 'POST',
      body: JSON.stringify({ source_provider: 'import', source_account_id: (pasted.json as { id: string }).id, target_provider: 'tidal', target_account_id: h.tidalAccount, selection: { playlist_ids: ['0'] }, acknowledge_warnings: true }),
    });
    expect(started.status, started.text).toBe(202);
    const jobId = (started.json as { id: string }).id;
    expect((await h.waitForJob(jobId, (job) => ['awaiting_review', 'completed', 'failed'].includes(job.status))).status).toBe('awaiting_review');

    const view = await overview();
    expect(view.reviews).toEqual({ items: 2, jobs: [expect.objectContaining({ job_id: jobId, name: 'Twins To Review', items: 2 })] });
    expect(view.jobs.active).toBe(1);
    expect(view.jobs.recent[0]).toMatchObject({ id: jobId, status: 'awaiting_review' });

    const skipped = await h.api(`/api/migrations/${jobId}/items/review`, { method: 'POST', body: JSON.stringify({ action: 'skip', item_ids: [] }) });
    expect(skipped.status, skipped.text).toBe(200);
    await h.waitForJob(jobId, (job) => ['completed', 'failed'].includes(job.status));
    const after = await overview();
    expect(after.reviews).toEqual({ items: 0, jobs: [] });
    expect(after.jobs.active).toBe(0);
  }, 120_000);

  it('says which account needs reconnecting', async () => {
    h.tidal.failNext({ kind: 'expired_token', times: 1_000, pathPrefix: '/v2/' });
    try {
      const refreshed = await h.api(`/api/library/accounts/${h.tidalAccount}/refresh`, { method: 'POST', body: JSON.stringify({ full: false }) });
      expect(refreshed.status, refreshed.text).toBe(409);
    } finally {
      h.tidal.clearFailures();
    }
    const view = await overview();
    expect(accountOf(view, h.tidalAccount)).toMatchObject({ status: 'reauth_required', health: 'reconnect' });
    expect(accountOf(view, h.spotifyAccount)).toMatchObject({ status: 'connected', health: 'ok' });
  }, 120_000);
});
