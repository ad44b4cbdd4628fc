import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeSpotify, type FakeSpotifyServer } from '../../fakes/spotify/index.ts';
import { startFakeYoutube, type FakeYoutube } from '../../fakes/youtube/index.ts';
import { isAvailableOn, seedCatalog } from '../../fakes/seed-catalog.ts';
import { firstPartyPlugins } from '../support/first-party-plugins.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { connectByRedirect } from './migration-harness.ts';

/**
 * A migration into the YouTube Data API, whose daily quota runs out mid-job: the job stops cleanly
 * in `paused` with `error_code` quota_exhausted and the reset time, what was written stays
 * written, and the rest waits as matched — never failed. The preflight says how many songs fit.
 */

const CLIENT = { client_id: 'opl-test-client', client_secret: 'opl-test-secret' };
const catalog = seedCatalog();
const songs = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'spotify') && isAvailableOn(track, 'youtube')).slice(0, 6);

let spotify: FakeSpotifyServer;
let youtube: FakeYoutube;
let plugins: Awaited<ReturnType<typeof firstPartyPlugins>>;
let app: TestApp;
let baseUrl = '';

async function api(path: string, init: RequestInit = {}) {
  const response = await fetch(`${baseUrl}${path}`, { ...init, headers: { ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers } });
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : null) as Record<string, unknown> };
}

beforeAll(async () => {
  spotify = await startFakeSpotify();
  youtube = await startFakeYoutube();
  youtube.registerClient({ clientId: CLIENT.client_id, clientSecret: CLIENT.client_secret });
  const source = spotify.createAccount({ displayName: 'Source', library: { playlists: [{ name: 'Quota Set', trackKeys: songs.map((song) => song.key) }] } });
  const target = youtube.createAccount({ displayName: 'Target', library: {} });
  spotify.setAuthorizeUser(source.userId);
  youtube.setAuthorizeUser(target.userId);
  plugins = await firstPartyPlugins();
  app = await startTestApp(plugins.env, { http: true, worker: true }, {
    providerOriginOverrides: { ...spotify.originOverrides, ...youtube.originOverrides },
    providerClients: { spotify: { client_id: 'opl-demo-client' }, youtube: CLIENT },
  });
  const address = app.app.http!.server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}, 300_000);

afterAll(async () => {
  await app?.close();
  await plugins?.remove();
  await spotify?.close();
  await youtube?.close();
});

describe('a migration into a provider with a daily quota', () => {
  it('pauses with "quota exhausted until reset" instead of failing items', async () => {
    const from = await connectByRedirect(baseUrl, 'spotify');
    const to = await connectByRedirect(baseUrl, 'youtube');
    const { json: list } = await api(`/api/playlists?account_id=${from}`);
    const playlistId = (list['playlists'] as { id: string; name: string }[]).find((playlist) => playlist.name === 'Quota Set')!.id;
    // Two more inserts (50 units each) fit in today's budget; the third one is over.
    youtube.setQuotaUsed({ units: 10_000 - 100 - 10 }, CLIENT.client_id);
    const body = { source_account_id: from, target_provider: 'youtube', target_account_id: to, selection: { playlist_ids: [playlistId] }, acknowledge_warnings: true, strictness: 'best_effort' };
    const started = await api('/api/migrations', { method: 'POST', body: JSON.stringify(body) });
    expect(started.status, JSON.stringify(started.json)).toBe(202);
    const jobId = String(started.json['id']);
    let job: Record<string, unknown> = {};
    for (let poll = 0; poll < 150; poll++) {
      job = (await api(`/api/migrations/${jobId}`)).json;
      if (['paused', 'completed', 'failed', 'awaiting_review'].includes(String(job['status']))) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    if (job['status'] === 'awaiting_review') {
      await api(`/api/migrations/${jobId}/items/review`, { method: 'POST', body: JSON.stringify({ action: 'approve', item_ids: [] }) });
      for (let poll = 0; poll < 150 && job['status'] !== 'paused'; poll++) {
        job = (await api(`/api/migrations/${jobId}`)).json;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    expect(job, JSON.stringify({ counts: job['counts'], quota: youtube.quotaUsed(CLIENT.client_id) })).toMatchObject({ status: 'paused', error_code: 'quota_exhausted' });
    expect(Date.parse(String(job['resume_at']))).toBeGreaterThan(Date.now());
    const counts = job['counts'] as Record<string, number>;
    expect(counts['failed']).toBe(0);
    expect(counts['written']).toBeGreaterThanOrEqual(1);
    expect(counts['matched']).toBeGreaterThanOrEqual(1);
    // The preflight of another job now says how many songs fit today.
    const preflight = await api('/api/migrations/preflight', { method: 'POST', body: JSON.stringify(body) });
    const warning = (preflight.json['warnings'] as { code: string; fit_today?: string }[]).find((entry) => entry.code === 'quota_limited');
    expect(warning?.fit_today).toBe('0');
  }, 120_000);
});
