import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { isAvailableOn, seedCatalog } from '../fakes/seed-catalog.ts';
import { startFakeSpotify, type FakeSpotifyServer } from '../fakes/spotify/index.ts';
import { startFakeTidal, type FakeTidal } from '../fakes/tidal/index.ts';
import type { FakeAccountTokens } from '../fakes/fake-provider.ts';
import { connectByRedirect } from '../integration/migrations/migration-harness.ts';
import { startInProcessEngine, type InProcessEngine } from './support/in-process-engine.ts';
import { openSession, type BrowserSession } from './support/page.ts';

/**
 * Mirror on the Sync page in real Chromium, against a real engine whose TIDAL (source) and Spotify
 * (target) are stateful fakes: a rule's mirror preview says what mirror would remove before mirror
 * is chosen; a run over the removal cap waits, the page shows the waiting state and the songs it
 * would remove, and "Approve these removals" lets it finish — the song leaves the Spotify playlist.
 */

const catalog = seedCatalog();
const onBoth = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'spotify') && isAvailableOn(track, 'tidal'));
const SONGS = onBoth.slice(40, 44);

let spotify: FakeSpotifyServer;
let tidal: FakeTidal;
let spotifyUser: FakeAccountTokens;
let tidalUser: FakeAccountTokens;
let engine: InProcessEngine;
let baseUrl: string;
let ruleId = '';
let sourceId = '';
let targetId = '';

async function api(path: string, init: RequestInit = {}): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${baseUrl}${path}`, { ...init, headers: { ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers } });
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as unknown) : null };
}

/** TIDAL's app drops a song from the source: the entries and `lastModifiedAt` change. */
function dropFromSource(key: string): void {
  const playlist = tidal.state.playlists.get(sourceId)!;
  playlist.items = playlist.items.filter((item) => item.id !== tidal.trackId(key));
  playlist.lastModifiedAt = tidal.state.timestamp();
}

beforeAll(async () => {
  spotify = await startFakeSpotify();
  tidal = await startFakeTidal();
  tidalUser = tidal.createAccount({ displayName: 'Source Listener', library: { playlists: [{ name: 'Mirror Evening', trackKeys: SONGS.map((track) => track.key) }] } });
  tidal.setAuthorizeUser(tidalUser.userId);
  spotifyUser = spotify.createAccount({ displayName: 'Target Listener', library: {} });
  spotify.setAuthorizeUser(spotifyUser.userId);
  engine = await startInProcessEngine({ name: 'sync-mirror', fakes: [spotify, tidal], providers: ['spotify', 'tidal'], worker: true });
  ({ baseUrl } = engine);
  const spotifyAccount = await connectByRedirect(baseUrl, 'spotify');
  const tidalAccount = await connectByRedirect(baseUrl, 'tidal');
  sourceId = tidal.playlistsOf(tidalUser.userId).find((playlist) => playlist.name === 'Mirror Evening')!.id;
  const started = await api('/api/migrations', { method: 'POST', body: JSON.stringify({ source_account_id: tidalAccount, target_provider: 'spotify', target_account_id: spotifyAccount, selection: { playlist_ids: [sourceId] }, acknowledge_warnings: true }) });
  expect(started.status, JSON.stringify(started.json)).toBe(202);
  const jobId = (started.json as { id: string }).id;
  for (let waited = 0; ((await api(`/api/migrations/${jobId}`)).json as { status: string }).status !== 'completed'; waited += 250) {
    if (waited > 120_000) throw new Error(`migration ${jobId} did not complete`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  targetId = spotify.playlistByName(spotifyUser.userId, 'Mirror Evening')!.id;
  // Add-only first, with no removal allowed without approval once it mirrors.
  const rule = await api('/api/syncs', { method: 'POST', body: JSON.stringify({ migration_job_id: jobId, schedule: { kind: 'interval', every_minutes: 1440 }, mirror: { max_removals: 0 } }) });
  expect(rule.status, JSON.stringify(rule.json)).toBe(201);
  ruleId = (rule.json as { id: string }).id;
}, 300_000);

afterAll(async () => {
  await engine?.stop();
  await spotify?.close();
  await tidal?.close();
});

describe('mirror on the Sync page', () => {
  let session: BrowserSession;
  let page: Page;
  const syncPage = () => page.locator('opl-sync-page');
  const row = () => syncPage().locator(`[data-testid="rule-row"][data-rule-id="${ruleId}"]`);
  const preview = () => syncPage().locator(`[data-testid="mirror-preview"][data-rule-id="${ruleId}"]`);

  beforeAll(async () => {
    session = await openSession(inject('chromiumWsEndpoint'));
    page = session.page;
  });

  afterAll(async () => {
    await session?.close();
  });

  it('previews what mirror would remove before it is chosen, then switches the rule to mirror', async () => {
    dropFromSource(SONGS[1]!.key);
    await page.goto(`${baseUrl}/#/sync`);
    await row().waitFor({ timeout: 30_000 });
    expect(await row().locator('[data-testid="rule-mode"]').textContent()).toBe('Add only');
    await row().getByRole('button', { name: 'Mirror preview of Mirror Evening' }).click();
    await preview().locator('[data-testid="remove-count"]').waitFor({ timeout: 30_000 });
    expect(await preview().locator('[data-testid="remove-count"]').textContent()).toBe('1');
    expect(await preview().locator('[data-testid="remove-list"]').textContent()).toContain(SONGS[1]!.title);
    await preview().getByRole('button', { name: 'Use mirror' }).click();
    await expect.poll(() => row().locator('[data-testid="rule-mode"]').textContent()).toBe('Mirror');
    expect(spotify.playlist(targetId)!.uris).toContain(spotify.uriOf(SONGS[1]!.key));
  }, 120_000);

  it('a run over the removal cap waits; its removals are shown and approved on the page', async () => {
    await row().getByRole('button', { name: 'Run now' }).click();
    await expect.poll(() => row().getAttribute('data-status'), { timeout: 60_000 }).toBe('approval_required');
    expect(await row().textContent()).toContain('Waiting for your approval of removals');
    expect(spotify.playlist(targetId)!.uris).toContain(spotify.uriOf(SONGS[1]!.key));
    await row().getByRole('button', { name: 'Review removals' }).click();
    await preview().locator('[data-testid="remove-list"]').waitFor({ timeout: 30_000 });
    expect(await preview().locator('[data-testid="remove-list"]').textContent()).toContain(SONGS[1]!.title);
    await preview().getByRole('button', { name: 'Approve these removals' }).click();
    await expect.poll(() => spotify.playlist(targetId)!.uris, { timeout: 60_000 }).toEqual(SONGS.filter((_, index) => index !== 1).map((track) => spotify.uriOf(track.key)));
    await expect.poll(() => row().getAttribute('data-status'), { timeout: 30_000 }).toBe('active');
  }, 120_000);
});
