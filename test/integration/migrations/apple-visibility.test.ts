import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAppleMusic, type FakeAppleMusic } from '../../fakes/applemusic/index.ts';
import type { FakeAccountTokens } from '../../fakes/fake-provider.ts';
import { isAvailableOn, seedCatalog, type SeedTrack } from '../../fakes/seed-catalog.ts';
import { startFakeSpotify, type FakeSpotifyServer } from '../../fakes/spotify/index.ts';
import { firstPartyPlugins } from '../support/first-party-plugins.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { connectByRedirect, type JobJson } from './migration-harness.ts';

/**
 * Apple Music accepts a playlist append (204) and shows the songs only later. The plugin reports
 * such songs `ok` without a position; the engine reads the playlist again (bounded, waiting
 * longer each time) and records where they landed — or, when they never showed before the job
 * ended, keeps them written with a reason that says so. Never a silent success, never a second
 * append of the same song.
 */

const catalog = seedCatalog();
const onBoth = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'spotify') && isAvailableOn(track, 'applemusic'));
const late = { name: 'Shows Up Late', tracks: onBoth.slice(0, 5) };
const never = { name: 'Never Shows', tracks: onBoth.slice(10, 14) };

let spotify: FakeSpotifyServer;
let apple: FakeAppleMusic;
let appleUser: FakeAccountTokens;
let plugins: Awaited<ReturnType<typeof firstPartyPlugins>>;
let app: TestApp;
let baseUrl: string;
let spotifyAccount: string;
let appleAccount: string;
let playlistIds: Record<string, string> = {};

async function api(path: string, init: RequestInit = {}): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${baseUrl}${path}`, { ...init, headers: { ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers } });
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as unknown) : null };
}

async function migrate(name: string): Promise<JobJson> {
  const { status, json } = await api('/api/migrations', {
    method: 'POST',
    body: JSON.stringify({ source_account_id: spotifyAccount, target_provider: 'applemusic', target_account_id: appleAccount, acknowledge_warnings: true, selection: { playlist_ids: [playlistIds[name]] } }),
  });
  expect(status, JSON.stringify(json)).toBe(202);
  const jobId = (json as { id: string }).id;
  for (let waited = 0; waited < 120_000; waited += 250) {
    const job = (await api(`/api/migrations/${jobId}`)).json as JobJson;
    if (['completed', 'failed', 'cancelled', 'paused', 'awaiting_review'].includes(job.status)) return job;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`migration ${jobId} did not finish`);
}

async function ledger(jobId: string): Promise<{ state: string; observed_position: number | null; error: string | null }[]> {
  return (await app.app.services.migrations.store.execute({
    text: `select state, observed_position, error from operation_ledger where job_id = ? and operation = 'add_tracks' order by observed_position nulls last`,
    values: [jobId],
  })) as { state: string; observed_position: number | null; error: string | null }[];
}

const appendRequests = () => apple.requests.filter((request) => request.method === 'POST' && /\/me\/library\/playlists\/[^/]+\/tracks$/.test(request.path));
const targetPlaylist = (name: string) => apple.playlistsOf(appleUser.userId).find((playlist) => playlist.name === name)!;
const songIds = (tracks: readonly SeedTrack[]) => tracks.map((track) => apple.songId(track.key)!);

beforeAll(async () => {
  spotify = await startFakeSpotify();
  apple = await startFakeAppleMusic();
  const spotifyUser = spotify.createAccount({ displayName: 'Source Listener', library: { playlists: [late, never].map((set) => ({ name: set.name, trackKeys: set.tracks.map((track) => track.key) })) } });
  spotify.setAuthorizeUser(spotifyUser.userId);
  appleUser = apple.createAccount({ displayName: 'Target Listener', library: {} });
  plugins = await firstPartyPlugins();
  app = await startTestApp(plugins.env, { http: true, worker: true }, {
    providerOriginOverrides: { ...spotify.originOverrides, ...apple.originOverrides },
    providerClients: { spotify: { client_id: 'opl-demo-client' }, applemusic: { developer_key: apple.developerKey } },
    migrationVisibilityWaitMs: 50,
  });
  const address = app.app.http!.server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  spotifyAccount = await connectByRedirect(baseUrl, 'spotify');
  const begin = await api('/api/auth/applemusic/begin', { method: 'POST', body: '{}' });
  const completed = await api('/api/auth/applemusic/complete', { method: 'POST', body: JSON.stringify({ state: (begin.json as { state: string }).state, values: { music_user_token: appleUser.accessToken } }) });
  expect(completed.status, JSON.stringify(completed.json)).toBe(200);
  appleAccount = (completed.json as { account: { id: string } }).account.id;
  const { json } = await api(`/api/playlists?account_id=${spotifyAccount}`);
  playlistIds = Object.fromEntries((json as { playlists: { id: string; name: string }[] }).playlists.map((playlist) => [playlist.name, playlist.id]));
}, 300_000);

afterAll(async () => {
  await app?.close();
  await plugins?.remove();
  await spotify?.close();
  await apple?.close();
});

describe('Apple Music appends that show up late', () => {
  it('are read again until visible, and their observed positions recorded', async () => {
    // More reads than the plugin's own confirmation reads, fewer than the plugin's plus the engine's.
    apple.appendVisibleAfterReads = 9;
    const before = appendRequests().length;
    const job = await migrate(late.name);
    expect(job, JSON.stringify(job)).toMatchObject({ status: 'completed', outcome: 'completed' });
    expect(job.counts).toMatchObject({ total: late.tracks.length, written: late.tracks.length });
    expect(appendRequests().length - before).toBe(1);
    expect(apple.playlistCatalogIds(targetPlaylist(late.name).id)).toEqual(songIds(late.tracks));
    const rows = await ledger(job.id);
    expect(rows.map((row) => [row.state, row.observed_position, row.error])).toEqual(late.tracks.map((_, index) => ['observed', index, null]));
    const items = (await api(`/api/migrations/${job.id}/items`)).json as { status: string; reason: string }[];
    for (const item of items) expect(item.reason).not.toMatch(/not yet visible/);
  }, 180_000);

  it('still invisible when the job ends: written with a reason that says so, sent once, no duplicate on reruns before or after they show', async () => {
    apple.appendVisibleAfterReads = 1_000;
    const before = appendRequests().length;
    const job = await migrate(never.name);
    expect(job, JSON.stringify(job)).toMatchObject({ status: 'completed', outcome: 'completed' });
    expect(appendRequests().length - before).toBe(1);
    const playlist = targetPlaylist(never.name);
    expect(apple.playlistCatalogIds(playlist.id)).toEqual([]);
    expect(apple.pendingCount(playlist.id)).toBe(never.tracks.length);
    const items = (await api(`/api/migrations/${job.id}/items`)).json as { status: string; reason: string }[];
    expect(items).toHaveLength(never.tracks.length);
    for (const item of items) {
      expect(item.status).toBe('written');
      expect(item.reason).toMatch(/^Written, not yet visible on the target/);
    }
    const rows = await ledger(job.id);
    expect(rows.map((row) => [row.state, row.observed_position])).toEqual(never.tracks.map(() => ['observed', null]));
    for (const row of rows) expect(row.error).toMatch(/not visible/);

    // A rerun while they are still invisible: the ledger knows they were accepted; nothing is sent again.
    const early = await migrate(never.name);
    expect(early.status).toBe('completed');
    expect(early.counts).toMatchObject({ total: never.tracks.length, written: 0, skipped: never.tracks.length });
    expect(appendRequests().length - before).toBe(1);
    const earlyItems = (await api(`/api/migrations/${early.id}/items`)).json as { reason: string }[];
    for (const item of earlyItems) expect(item.reason).toMatch(/^Already in the target: an earlier migration sent it/);

    // Apple shows them at last; a rerun finds them there and adds nothing.
    for (const pending of playlist.pending) pending.readsLeft = 0;
    apple.state.settle(playlist);
    apple.appendVisibleAfterReads = 1;
    const rerun = await migrate(never.name);
    expect(rerun.status).toBe('completed');
    expect(rerun.counts).toMatchObject({ total: never.tracks.length, written: 0, skipped: never.tracks.length });
    expect(appendRequests().length - before).toBe(1);
    expect(apple.playlistCatalogIds(playlist.id)).toEqual(songIds(never.tracks));
  }, 180_000);
});
