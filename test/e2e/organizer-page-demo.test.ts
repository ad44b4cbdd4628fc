import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openSession, type BrowserSession } from './support/page.ts';

/**
 * The Organizer page in demo mode (`OPL_DEMO=1`, the shared e2e engine), as a newcomer meets it:
 * connect the demo Spotify account, see once what Spotify does not offer at all, then review the
 * repeated songs of “Repeat Offenders” — nothing ticked until the user ticks — remove exactly the
 * chosen copies after the preflight and the typed phrase, and undo it. The demo provider's state
 * is read back through the engine's own playlist API.
 */

const baseUrl = inject('oplBaseUrl');
const screenshotDir = join(tmpdir(), 'opl-e2e-screenshots');

interface PlaylistTracks {
  playlist: { tracks: { title: string; provider_uris: Record<string, string> }[] };
}

async function api<T>(path: string): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`);
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

describe('the Organizer page in demo mode', () => {
  let session: BrowserSession;
  let page: Page;
  let accountId: string;
  let repeatId: string;
  const organizer = () => page.locator('opl-organizer-page');
  const duplicates = () => organizer().locator('opl-organizer-song-duplicates');
  const repeatUris = async () => (await api<PlaylistTracks>(`/api/playlists/${repeatId}?account_id=${accountId}&refresh=true`)).playlist.tracks.map((track) => track.provider_uris['spotify']);

  beforeAll(async () => {
    mkdirSync(screenshotDir, { recursive: true });
    session = await openSession(inject('chromiumWsEndpoint'));
    page = session.page;
  });

  afterAll(async () => {
    await session?.close();
  });

  it('connects the demo Spotify account', async () => {
    await page.goto(`${baseUrl}/#/connections`);
    const card = page.locator('opl-connections-page').locator('li[data-provider="spotify"]');
    await card.waitFor({ timeout: 30_000 });
    await card.getByRole('button', { name: 'Connect Spotify' }).click();
    await page.locator('opl-connections-page').locator('[data-testid="auth-outcome"][data-outcome="connected"]').waitFor({ timeout: 30_000 });
    const { accounts } = await api<{ accounts: { id: string; provider: string }[] }>('/api/auth/accounts');
    accountId = accounts.find((account) => account.provider === 'spotify')!.id;
    const { playlists } = await api<{ playlists: { id: string; name: string }[] }>(`/api/playlists?account_id=${accountId}`);
    repeatId = playlists.find((playlist) => playlist.name === 'Repeat Offenders')!.id;
  });

  it('says once what Spotify does not offer at all, with the theme’s form controls', async () => {
    await page.goto(`${baseUrl}/#/organizer`);
    await page.getByRole('heading', { level: 1, name: 'Organizer', exact: true }).waitFor();
    const account = organizer().getByRole('combobox', { name: 'Connected account' });
    await account.waitFor();
    await account.selectOption(accountId);
    await organizer().locator('[data-testid="organizer-playlists"]').waitFor({ timeout: 60_000 });

    const limits = organizer().locator('[data-testid="provider-limits"]');
    expect(await limits.locator('li[data-action="delete_playlist"]').textContent()).toMatch(/no endpoint that deletes a playlist/);
    // The reason is said once, not on every row.
    expect(await organizer().getByText(/no endpoint that deletes a playlist/).count()).toBe(1);
    const row = (name: string) => organizer().locator('[data-testid="organizer-row"]').filter({ has: page.getByRole('rowheader', { name, exact: true }) });
    // …and the table has no column for it.
    expect(await organizer().getByRole('columnheader', { name: 'Delete permanently' }).count()).toBe(0);
    expect(await row('Road Trip 2024').locator('td[data-action="delete_playlist"]').count()).toBe(0);
    expect(await row('Band Practice').locator('td[data-action="remove_tracks"] button').count()).toBe(1);
    expect(await row('Liked songs').locator('td[data-action="all"]').textContent()).toMatch(/not ordinary playlists/);

    // The list boxes are the theme's, not the browser's bare ones.
    const style = await account.evaluate((select) => {
      const computed = getComputedStyle(select);
      return { radius: parseFloat(computed.borderTopLeftRadius), padding: parseFloat(computed.paddingLeft) };
    });
    expect(style.radius).toBeGreaterThan(0);
    expect(style.padding).toBeGreaterThanOrEqual(8);
    await page.screenshot({ path: join(screenshotDir, 'organizer-demo.png'), fullPage: true });
  });

  it('reviews the repeated songs of a playlist, removes only the ticked copies after the phrase, and undoes it', async () => {
    const before = await repeatUris();
    await duplicates().getByRole('combobox', { name: 'Playlist' }).selectOption({ label: 'Repeat Offenders' });
    await duplicates().getByRole('button', { name: 'Find repeated songs' }).click();
    const review = duplicates().locator('[data-testid="duplicate-songs"]');
    await review.waitFor({ timeout: 60_000 });
    const groups = duplicates().locator('[data-testid="duplicate-group"]');
    expect(await groups.count()).toBe(3);
    expect(await groups.first().locator('.why').first().textContent()).toMatch(/Matched by the same song id/);
    // Nothing is chosen until the user chooses.
    expect(await duplicates().locator('input[type="checkbox"][data-position]:checked').count()).toBe(0);
    expect(await duplicates().getByRole('button', { name: 'Check removal of 0 songs' }).isDisabled()).toBe(true);

    // The keep-first suggestion ticks the later copies; the user then keeps one of them after all (keyboard).
    await duplicates().getByRole('button', { name: /Tick the suggestion: keep each song's first copy \(3 to remove\)/ }).click();
    expect(await duplicates().locator('input[data-position]:checked').evaluateAll((inputs) => inputs.map((input) => input.getAttribute('data-position')))).toEqual(['8', '9', '10']);
    await duplicates().locator('input[data-position="10"]').focus();
    await page.keyboard.press('Space');
    await page.screenshot({ path: join(screenshotDir, 'organizer-demo-repeated-songs.png'), fullPage: true });
    await duplicates().getByRole('button', { name: 'Check removal of 2 songs' }).click();

    const preflight = organizer().locator('[data-testid="preflight"]');
    await preflight.waitFor({ timeout: 30_000 });
    expect(await preflight.locator('.diff li').evaluateAll((items) => items.map((item) => item.getAttribute('data-position')))).toEqual(['8', '9']);
    expect(await preflight.locator('[data-code="unselected_copies_put_back"]').textContent()).toMatch(/put back/);
    const confirm = preflight.getByRole('button', { name: 'Confirm' });
    expect(await confirm.isDisabled()).toBe(true);
    await preflight.getByLabel(/to confirm/).fill('remove 2 songs');
    expect(await repeatUris()).toEqual(before);
    await confirm.click();
    await organizer().locator('[data-testid="organizer-job"][data-status="completed"]').waitFor({ timeout: 60_000 });
    expect(await repeatUris()).toEqual(before.filter((_, position) => position !== 8 && position !== 9));

    await organizer().getByRole('button', { name: 'Undo: put the removed songs back' }).click();
    await organizer().locator('[data-testid="organizer-job"][data-status="completed"]').filter({ hasText: 'put back at their positions (8, 9)' }).waitFor({ timeout: 60_000 });
    expect(await repeatUris()).toEqual(before);
    expect(session.errors).toEqual([]);
  });
});
