import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { focused, openSession, type BrowserSession } from './support/page.ts';

/**
 * Shares in a real browser against the real engine, nothing stubbed: preview pasted text, share
 * it from the Import page, open the public page the link leads to, import that link back through
 * the URL box, then revoke the share on the Shares page and see every use of the link refused.
 */

const baseUrl = inject('oplBaseUrl');

const normalise = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();

const PLAYLIST = 'Shared Road Trip';
const TEXT = ['# a comment line', 'Copper Tide - Sunday Drive', 'Mira Solberg - Glass Orchard', 'Paper Lanterns - Slow <River>'].join('\n');

describe('sharing a playlist in the browser', () => {
  let session: BrowserSession;
  let page: Page;
  let link = '';

  const importPage = () => page.locator('opl-import-page');
  const preview = () => importPage().locator('[data-testid="import-preview"]');
  const sharesPage = () => page.locator('opl-shares-page');

  async function openArea(area: string, heading: string): Promise<void> {
    // Through another area first, so the page is created afresh (a hash change alone keeps the document).
    await page.goto(`${baseUrl}/#/settings`);
    await page.getByRole('heading', { level: 1, name: 'Settings', exact: true }).waitFor();
    await page.goto(`${baseUrl}/#/${area}`);
    await page.getByRole('heading', { level: 1, name: heading, exact: true }).waitFor();
  }

  async function previewLink(url: string): Promise<void> {
    await importPage().getByRole('textbox', { name: 'Playlist link' }).fill(url);
    await importPage().getByRole('button', { name: 'Preview link' }).click();
  }

  beforeAll(async () => {
    session = await openSession(inject('chromiumWsEndpoint'));
    page = session.page;
  });

  afterAll(async () => {
    await session?.close();
  });

  it('shares a previewed import and shows its link, ready to copy', async () => {
    await openArea('import', 'Import');
    await importPage().getByRole('textbox', { name: 'Playlist text' }).fill(TEXT);
    await importPage().getByRole('textbox', { name: /Playlist name/ }).fill(PLAYLIST);
    await importPage().getByRole('button', { name: 'Preview text' }).click();
    await expect.poll(() => preview().isVisible(), { timeout: 15_000 }).toBe(true);
    expect(normalise(await preview().locator('[data-field="counts"]').textContent())).toBe('1 playlist, 3 tracks');

    const share = preview().locator('[data-testid="share-block"]');
    await share.getByRole('button', { name: 'Share…' }).click();
    const result = share.locator('[data-testid="share-result"]');
    await result.waitFor({ timeout: 15_000 });
    const input = result.getByRole('textbox', { name: `Link to “${PLAYLIST}”` });
    link = await input.inputValue();
    expect(link).toMatch(new RegExp(`^${baseUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/share/[A-Za-z0-9_-]{43}$`));
    // Focus moves to the link so it can be copied at once.
    await expect.poll(async () => (await focused(page)).tag).toBe('input');
    expect(await result.getByRole('button', { name: 'Copy link' }).isVisible()).toBe(true);
  });

  it('opens the public page: the playlist listed, escaped, and a link to its JSON', async () => {
    const response = await page.goto(link);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'none'");
    expect(normalise(await page.getByRole('heading', { level: 1 }).textContent())).toBe(PLAYLIST);
    const items = (await page.getByRole('listitem').allTextContents()).map(normalise);
    expect(items).toEqual(['Sunday Drive — Copper Tide', 'Glass Orchard — Mira Solberg', 'Slow <River> — Paper Lanterns']);
    expect(await page.locator('script').count()).toBe(0);
    const json = page.getByRole('link', { name: 'Open Playlist JSON' });
    const snapshot = await page.request.get(new URL((await json.getAttribute('href'))!, link).href);
    expect(snapshot.status()).toBe(200);
    expect(((await snapshot.json()) as { playlists: Array<{ name: string }> }).playlists[0]?.name).toBe(PLAYLIST);
  });

  it('imports the share link back through the URL box', async () => {
    await openArea('import', 'Import');
    await previewLink(link);
    await expect.poll(() => preview().isVisible(), { timeout: 15_000 }).toBe(true);
    expect(normalise(await preview().locator('[data-field="source"]').textContent())).toBe('Link');
    expect(normalise(await preview().locator('[data-field="counts"]').textContent())).toBe('1 playlist, 3 tracks');
    const titles = await preview().locator('[data-testid="tracks-table"] tbody th').allTextContents();
    expect(titles.map(normalise)).toEqual(['Sunday Drive', 'Glass Orchard', 'Slow <River>']);
  });

  it('lists the share on the Shares page and revokes it; the link then leads nowhere', async () => {
    await openArea('shares', 'Shares');
    const row = sharesPage().locator('[data-testid="share-row"]', { hasText: PLAYLIST }).first();
    await row.waitFor({ timeout: 15_000 });
    expect(await row.getAttribute('data-status')).toBe('active');
    expect(normalise(await row.locator('td').first().textContent())).toBe('3');
    await row.getByRole('button', { name: `Revoke the share of ${PLAYLIST}` }).click();
    await expect.poll(() => sharesPage().locator('[data-testid="announcement"]').textContent()).toContain('no longer works');
    const revoked = sharesPage().locator('[data-testid="share-row"]', { hasText: PLAYLIST }).first();
    expect(await revoked.getAttribute('data-status')).toBe('revoked');
    expect(await revoked.getByRole('button').count()).toBe(0);

    const gone = await page.goto(link);
    expect(gone?.status()).toBe(404);
    expect(normalise(await page.getByRole('heading', { level: 1 }).textContent())).toBe('This shared playlist is not available');

    await openArea('import', 'Import');
    await previewLink(link);
    const problem = importPage().locator('[data-testid="import-problem"]');
    await problem.waitFor({ timeout: 15_000 });
    expect(normalise(await importPage().getByRole('alert').textContent())).toContain('This shared playlist is not available');
  });
});
