import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connectByRedirect } from '../integration/migrations/migration-harness.ts';
import { startInProcessEngine, type InProcessEngine } from './support/in-process-engine.ts';
import { focused, openSession, tabTo, type BrowserSession } from './support/page.ts';

/**
 * The Home overview in real Chromium, on an engine of its own in demo mode (`OPL_DEMO=1`) so the
 * first visit really finds nothing connected: an empty engine leads on to Connections; once demo
 * accounts are connected the engine opens on Home, which shows each account's health, the
 * migration just made, a paused sync rule needing attention, and leads on to the Library by
 * keyboard. Every request reaches the real engine.
 */

let engine: InProcessEngine;
let baseUrl: string;

async function api(path: string, init: RequestInit = {}): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${baseUrl}${path}`, { ...init, headers: { ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers } });
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as unknown) : null };
}

beforeAll(async () => {
  engine = await startInProcessEngine({ name: 'home-page', fakes: [], providers: [], worker: true, env: { OPL_DEMO: '1' } });
  ({ baseUrl } = engine);
}, 300_000);

afterAll(async () => {
  await engine?.stop();
});

describe('the Home page', () => {
  let session: BrowserSession;
  let page: Page;
  let spotifyAccount = '';
  let tidalAccount = '';
  const home = () => page.locator('opl-home-page');
  const heading = () => page.getByRole('heading', { level: 1 });

  /** A fresh document at the engine's bare address, as a new visit opens it. */
  async function openBare(): Promise<void> {
    await page.goto('about:blank');
    await page.goto(`${baseUrl}/`);
  }

  beforeAll(async () => {
    session = await openSession(inject('chromiumWsEndpoint'));
    page = session.page;
  });

  afterAll(async () => {
    await session?.close();
  });

  it('leads the first visit to an empty engine on to Connections; Home itself says to connect an account', async () => {
    await openBare();
    await expect.poll(() => heading().textContent(), { timeout: 15_000 }).toBe('Connections');
    expect(new URL(page.url()).hash).toBe('#/connections');

    await page.goto(`${baseUrl}/#/home`);
    await expect.poll(() => heading().textContent()).toBe('Home');
    const empty = home().locator('[data-testid="no-accounts"]');
    await empty.waitFor();
    expect(await empty.getByRole('link', { name: 'Connect one on Connections' }).getAttribute('href')).toBe('#/connections');
  });

  it('opens on Home once accounts are connected, with each account and its health', async () => {
    spotifyAccount = await connectByRedirect(baseUrl, 'spotify');
    tidalAccount = await connectByRedirect(baseUrl, 'tidal');
    await openBare();
    await expect.poll(() => heading().textContent(), { timeout: 15_000 }).toBe('Home');
    expect(new URL(page.url()).hash).toBe('#/home');
    expect(await page.title()).toBe('Home · Open Playlist Engine');

    const spotify = home().locator(`[data-testid="home-account"][data-account-id="${spotifyAccount}"]`);
    await spotify.waitFor();
    expect(await spotify.getAttribute('data-health')).toBe('not_read');
    expect(await spotify.textContent()).toContain('playlists not read yet');
    expect(await home().locator(`[data-testid="home-account"][data-account-id="${tidalAccount}"]`).getAttribute('data-health')).toBe('not_read');
    expect(await home().locator('[data-testid="active-jobs"]').textContent()).toBe('Nothing running.');
    expect(await home().locator('[data-testid="review-total"]').textContent()).toBe('No song waits for your review.');
    expect(await home().locator('[data-testid="rules-ok"]').textContent()).toBe('No sync rule yet.');

    // Reading the account into the workspace makes it healthy, with its playlists counted.
    const refreshed = await api(`/api/library/accounts/${spotifyAccount}/refresh`, { method: 'POST', body: JSON.stringify({ full: false }) });
    expect(refreshed.status, JSON.stringify(refreshed.json)).toBe(200);
    // A demo playlist the provider refuses to read is listed but not read.
    const { playlists, failed } = refreshed.json as { playlists: number; failed: unknown[] };
    await page.reload();
    await expect.poll(() => spotify.getAttribute('data-health')).toBe('ok');
    expect(await spotify.textContent()).toContain(`Connected; ${playlists} playlists, ${playlists - failed.length} read`);
    expect(session.errors).toEqual([]);
  }, 120_000);

  it('shows the migration just made and a sync rule once it needs attention', async () => {
    // The demo's empty playlist, given one song through the demo route: a short migration with one match.
    const listed = (await api(`/api/playlists?account_id=${spotifyAccount}`)).json as { playlists: { id: string; name: string }[] };
    const sourceId = listed.playlists.find((playlist) => playlist.name === 'Empty For Now')!.id;
    const added = await api('/api/demo/playlists/change', { method: 'POST', body: JSON.stringify({ account_id: spotifyAccount, playlist_id: sourceId, change: 'add' }) });
    expect(added.status, JSON.stringify(added.json)).toBe(200);
    const started = await api('/api/migrations', { method: 'POST', body: JSON.stringify({ source_account_id: spotifyAccount, target_provider: 'tidal', target_account_id: tidalAccount, selection: { playlist_ids: [sourceId] }, acknowledge_warnings: true }) });
    expect(started.status, JSON.stringify(started.json)).toBe(202);
    const jobId = (started.json as { id: string }).id;
    await expect.poll(async () => ((await api(`/api/migrations/${jobId}`)).json as { status: string }).status, { timeout: 120_000 }).toBe('completed');

    await page.reload();
    const job = home().locator(`[data-testid="home-job"][data-job-id="${jobId}"]`);
    await job.waitFor();
    expect(await job.getAttribute('data-status')).toBe('completed');
    expect(await job.textContent()).toMatch(/Empty For Now\s+spotify → tidal[\s\S]*Completed/);

    const rule = await api('/api/syncs', { method: 'POST', body: JSON.stringify({ migration_job_id: jobId, schedule: { kind: 'interval', every_minutes: 1440 } }) });
    expect(rule.status, JSON.stringify(rule.json)).toBe(201);
    const ruleId = (rule.json as { id: string }).id;
    await page.reload();
    await expect.poll(() => home().locator('[data-testid="rules-ok"]').textContent()).toBe('The sync rule is running as planned.');
    expect((await api(`/api/syncs/${ruleId}/pause`, { method: 'POST' })).status).toBe(200);
    await page.reload();
    const attention = home().locator(`[data-testid="home-rule"][data-rule-id="${ruleId}"]`);
    await attention.waitFor();
    expect(await attention.getAttribute('data-status')).toBe('paused');
    expect(await attention.textContent()).toContain('Paused');
    expect(await home().locator('[data-testid="home-syncs"]').textContent()).toContain('1 sync rule of 1 needs attention.');
  }, 180_000);

  it('leads on to the Library with the keyboard alone', async () => {
    await page.evaluate(() => {
      document.body.tabIndex = -1;
      document.body.focus();
      document.body.removeAttribute('tabindex');
    });
    const link = await tabTo(page, 'See your playlists in the Library', { max: 60 });
    expect(link.tag).toBe('a');
    expect(link.outlineStyle).not.toBe('none');
    await page.keyboard.press('Enter');
    await expect.poll(() => heading().textContent()).toBe('Library');
    expect(await focused(page)).toMatchObject({ tag: 'h1', text: 'Library' });
  });
});
