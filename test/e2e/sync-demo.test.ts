import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connectByRedirect } from '../integration/migrations/migration-harness.ts';
import { startInProcessEngine, type InProcessEngine } from './support/in-process-engine.ts';
import { openSession, type BrowserSession } from './support/page.ts';

/**
 * What a newcomer does in demo mode (`OPL_DEMO=1`, the engine's own demo Spotify and TIDAL) in real
 * Chromium: with a rule that keeps a migrated demo playlist in sync, "Demo: change the source" on
 * the Sync page adds a song to the demo Spotify playlist and says which; Run now then adds that
 * song to the TIDAL target. Every request reaches the real engine; the demo providers change only
 * through the demo route and the engine's own writes.
 */

let engine: InProcessEngine;
let baseUrl: string;
let tidalAccount = '';
let targetId = '';
let firstTitle = '';

async function api(path: string, init: RequestInit = {}): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${baseUrl}${path}`, { ...init, headers: { ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers } });
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as unknown) : null };
}

async function targetTitles(): Promise<string[]> {
  const { json } = await api(`/api/playlists/${encodeURIComponent(targetId)}?account_id=${tidalAccount}&refresh=true`);
  return ((json as { playlist?: { tracks: { title: string }[] } }).playlist?.tracks ?? []).map((track) => track.title);
}

beforeAll(async () => {
  engine = await startInProcessEngine({ name: 'sync-demo', fakes: [], providers: [], worker: true, env: { OPL_DEMO: '1' } });
  ({ baseUrl } = engine);
  const spotifyAccount = await connectByRedirect(baseUrl, 'spotify');
  tidalAccount = await connectByRedirect(baseUrl, 'tidal');
  // The demo's empty playlist, given one song through the demo route: a short migration with one match.
  const listed = (await api(`/api/playlists?account_id=${spotifyAccount}`)).json as { playlists: { id: string; name: string }[] };
  const sourceId = listed.playlists.find((playlist) => playlist.name === 'Empty For Now')!.id;
  const first = await api('/api/demo/playlists/change', { method: 'POST', body: JSON.stringify({ account_id: spotifyAccount, playlist_id: sourceId, change: 'add' }) });
  expect(first.status, JSON.stringify(first.json)).toBe(200);
  firstTitle = (first.json as { title: string }).title;
  const started = await api('/api/migrations', { method: 'POST', body: JSON.stringify({ source_account_id: spotifyAccount, target_provider: 'tidal', target_account_id: tidalAccount, selection: { playlist_ids: [sourceId] }, acknowledge_warnings: true }) });
  expect(started.status, JSON.stringify(started.json)).toBe(202);
  const jobId = (started.json as { id: string }).id;
  let job: { status: string; collections: { target_playlist_id: string | null }[] } = { status: 'queued', collections: [] };
  for (let waited = 0; job.status !== 'completed'; waited += 250) {
    if (waited > 120_000) throw new Error(`migration ${jobId} did not complete: ${JSON.stringify(job)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
    job = (await api(`/api/migrations/${jobId}`)).json as typeof job;
  }
  targetId = job.collections[0]!.target_playlist_id!;
  const rule = await api('/api/syncs', { method: 'POST', body: JSON.stringify({ migration_job_id: jobId, schedule: { kind: 'interval', every_minutes: 1440 } }) });
  expect(rule.status, JSON.stringify(rule.json)).toBe(201);
}, 300_000);

afterAll(async () => {
  await engine?.stop();
});

describe('the Sync page in demo mode', () => {
  let session: BrowserSession;
  let page: Page;
  const syncPage = () => page.locator('opl-sync-page');
  const row = () => syncPage().locator('[data-testid="rule-row"]');
  const announcement = () => syncPage().locator('[data-testid="announcement"]');

  beforeAll(async () => {
    session = await openSession(inject('chromiumWsEndpoint'));
    page = session.page;
  });

  afterAll(async () => {
    await session?.close();
  });

  it('changes the demo source, and Run now adds the new song to the target', async () => {
    await page.goto(`${baseUrl}/#/sync`);
    await row().waitFor({ timeout: 30_000 });
    const demo = row().getByRole('group', { name: 'Demo: change the source of Empty For Now' });
    await demo.waitFor({ timeout: 15_000 });
    expect(await targetTitles()).toEqual([firstTitle]);

    await demo.getByRole('button', { name: 'Add a song' }).click();
    await expect.poll(() => announcement().textContent()).toMatch(/^Demo: “.+” by .+ was added to the demo source of “Empty For Now” at position 2\. Run now to sync it\.$/);
    const title = /“(.+)” by/.exec((await announcement().textContent())!)![1]!;

    await row().getByRole('button', { name: 'Run now' }).click();
    await expect.poll(() => announcement().textContent(), { timeout: 30_000 }).toContain('A run of “Empty For Now” is queued.');
    await expect.poll(() => targetTitles(), { timeout: 60_000, interval: 1_000 }).toEqual([firstTitle, title]);
    await expect.poll(() => row().locator('td').nth(4).textContent(), { timeout: 30_000 }).not.toBe('Never');
  }, 120_000);

  it('says why when there is nothing to remove', async () => {
    // The target keeps its songs (add only); the source is empty again after two removals.
    const demo = row().getByRole('group', { name: 'Demo: change the source of Empty For Now' });
    await demo.getByRole('button', { name: 'Remove a song' }).click();
    await expect.poll(() => announcement().textContent()).toMatch(/was removed from the demo source of “Empty For Now” \(it was at position 2\)\. Add only keeps it on the target\.$/);
    await demo.getByRole('button', { name: 'Remove a song' }).click();
    await expect.poll(() => announcement().textContent()).toContain(`Demo: “${firstTitle}”`);
    await demo.getByRole('button', { name: 'Remove a song' }).click();
    await expect.poll(() => announcement().textContent()).toBe('Demo: nothing changed: Conflict.');
    await syncPage().locator('[data-testid="sync-problem"]').getByText(/This playlist has no song to remove/).waitFor({ timeout: 10_000 });
  }, 60_000);
});
