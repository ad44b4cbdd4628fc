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
 * "Keep in sync" in real Chromium against a real engine whose Spotify and TIDAL are stateful fakes:
 * a finished migration on History becomes a rule on the Sync page, which lists it with its schedule
 * and state; Run now adds what the source gained to the same TIDAL playlist (once), and Pause and
 * Resume change its state. Every request reaches the real engine.
 */

const catalog = seedCatalog();
const onBoth = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'spotify') && isAvailableOn(track, 'tidal'));
const SONGS = onBoth.slice(30, 33);

let spotify: FakeSpotifyServer;
let tidal: FakeTidal;
let spotifyUser: FakeAccountTokens;
let tidalUser: FakeAccountTokens;
let engine: InProcessEngine;
let baseUrl: string;
let jobId = '';
let sourceId = '';

async function api(path: string, init: RequestInit = {}): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${baseUrl}${path}`, { ...init, headers: { ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers } });
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as unknown) : null };
}

beforeAll(async () => {
  spotify = await startFakeSpotify();
  tidal = await startFakeTidal();
  spotifyUser = spotify.createAccount({ displayName: 'Source Listener', library: { playlists: [{ name: 'Evening Sync', trackKeys: SONGS.map((track) => track.key) }] } });
  spotify.setAuthorizeUser(spotifyUser.userId);
  tidalUser = tidal.createAccount({ displayName: 'Target Listener', library: {} });
  tidal.setAuthorizeUser(tidalUser.userId);
  engine = await startInProcessEngine({ name: 'sync', fakes: [spotify, tidal], providers: ['spotify', 'tidal'], worker: true });
  ({ baseUrl } = engine);
  const spotifyAccount = await connectByRedirect(baseUrl, 'spotify');
  const tidalAccount = await connectByRedirect(baseUrl, 'tidal');
  sourceId = spotify.playlistByName(spotifyUser.userId, 'Evening Sync')!.id;
  const started = await api('/api/migrations', { method: 'POST', body: JSON.stringify({ source_account_id: spotifyAccount, target_provider: 'tidal', target_account_id: tidalAccount, selection: { playlist_ids: [sourceId] }, acknowledge_warnings: true }) });
  expect(started.status, JSON.stringify(started.json)).toBe(202);
  jobId = (started.json as { id: string }).id;
  // Waits for the migration here, outside any test (expect.poll belongs to tests).
  for (let waited = 0; ((await api(`/api/migrations/${jobId}`)).json as { status: string }).status !== 'completed'; waited += 250) {
    if (waited > 120_000) throw new Error(`migration ${jobId} did not complete`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}, 300_000);

afterAll(async () => {
  await engine?.stop();
  await spotify?.close();
  await tidal?.close();
});

describe('the Sync page', () => {
  let session: BrowserSession;
  let page: Page;
  const syncPage = () => page.locator('opl-sync-page');
  const row = () => syncPage().locator('[data-testid="rule-row"]');

  beforeAll(async () => {
    session = await openSession(inject('chromiumWsEndpoint'));
    page = session.page;
  });

  afterAll(async () => {
    await session?.close();
  });

  it('makes a rule from a finished migration with "Keep in sync" on History', async () => {
    await page.goto(`${baseUrl}/#/history`);
    const keep = page.locator(`opl-history-page tr[data-job-id="${jobId}"]`).getByRole('button', { name: /Keep in sync/ });
    await keep.waitFor({ timeout: 30_000 });
    await keep.click();
    await page.getByRole('heading', { level: 1, name: 'Sync', exact: true }).waitFor();
    await expect.poll(() => syncPage().getByLabel('Finished migration').inputValue()).toBe(jobId);
    // The picker names the migration by its playlist and route instead of an id.
    expect(await syncPage().getByLabel('Finished migration').locator('option:checked').textContent()).toContain('spotify → tidal');
    await syncPage().getByRole('combobox', { name: 'Interval' }).selectOption({ label: 'Every 6 hours' });
    // Mirror is chosen on a rule, after its preview: the form says so.
    expect(await syncPage().locator('#sync-mirror-hint').textContent()).toContain('Mirror preview');
    await syncPage().getByRole('button', { name: 'Keep in sync' }).click();
    await row().waitFor({ timeout: 30_000 });
    expect(await row().getByRole('rowheader').textContent()).toBe('Evening Sync');
    expect(await row().textContent()).toContain('Every 6 hours');
    expect(await row().getAttribute('data-status')).toBe('active');
    await expect.poll(() => syncPage().locator('[data-testid="announcement"]').textContent()).toContain('Keeping “Evening Sync” in sync');
  }, 120_000);

  it('opens the mirror preview of this TIDAL target: nothing to remove yet, and mirror is offered', async () => {
    await row().getByRole('button', { name: 'Mirror preview of Evening Sync' }).click();
    const removeCount = syncPage().locator('[data-testid="remove-count"]');
    await removeCount.waitFor({ timeout: 30_000 });
    expect(await removeCount.textContent()).toBe('0');
    expect(await syncPage().locator('[data-testid="mirror-unavailable"]').count()).toBe(0);
    expect(await syncPage().getByRole('button', { name: 'Use mirror' }).count()).toBe(1);
    await syncPage().getByRole('button', { name: 'Close' }).click();
  }, 120_000);

  it('runs now: the song the source gained is added to the same TIDAL playlist, once', async () => {
    const added = onBoth[33]!;
    const response = await fetch(`${spotify.baseUrl}/v1/playlists/${sourceId}/items`, { method: 'POST', headers: { authorization: `Bearer ${spotifyUser.accessToken}`, 'content-type': 'application/json' }, body: JSON.stringify({ uris: [spotify.uriOf(added.key)] }) });
    expect(response.status).toBe(201);
    await row().getByRole('button', { name: 'Run now' }).click();
    await expect.poll(() => syncPage().locator('[data-testid="announcement"]').textContent()).toContain('A run of “Evening Sync” is queued.');
    const [target] = tidal.playlistsOf(tidalUser.userId).filter((playlist) => playlist.name === 'Evening Sync');
    await expect.poll(() => tidal.playlistEntries(target!.id)!.map((entry) => entry.id), { timeout: 60_000 }).toEqual([...SONGS, added].map((track) => tidal.trackId(track.key)));
    expect(tidal.playlistsOf(tidalUser.userId).filter((playlist) => playlist.name === 'Evening Sync')).toHaveLength(1);
    // The page follows the rule's events: the finished run shows without a reload.
    await expect.poll(() => row().locator('td').nth(4).textContent(), { timeout: 30_000 }).not.toBe('Never');
    expect(await row().getAttribute('data-status')).toBe('active');
  }, 120_000);

  it('pauses and resumes with the keyboard-operable buttons, showing the state', async () => {
    await page.reload();
    await row().waitFor({ timeout: 30_000 });
    await row().getByRole('button', { name: 'Pause' }).click();
    await expect.poll(() => row().getAttribute('data-status')).toBe('paused');
    expect(await row().textContent()).toContain('Paused: Paused by you.');
    const resume = row().getByRole('button', { name: 'Resume' });
    await resume.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => row().getAttribute('data-status')).toBe('active');
  }, 120_000);
});
