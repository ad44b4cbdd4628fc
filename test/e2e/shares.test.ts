import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { focused, openSession, type BrowserSession } from './support/page.ts';

/**
 * Shares in a real browser against the real engine, nothing stubbed: preview pasted text, share
 * it from the Import page, open the public page the link leads to, import that link back through
 * the URL box; a recipient in another browser copies it into their own demo account (share
 * session, connect, migrate, the job); then revoke the share on the Shares page and see every use
 * of the link refused — the recipient's page included.
 */

const baseUrl = inject('oplBaseUrl');

const normalise = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();

const PLAYLIST = 'Shared Road Trip';
const TEXT = ['# a comment line', 'Copper Tide - Sunday Drive', 'Mira Solberg - Glass Orchard', 'Paper Lanterns - Slow <River>'].join('\n');

describe('sharing a playlist in the browser', () => {
  let session: BrowserSession;
  let page: Page;
  let link = '';
  /** The recipient: another browser, which never signs in as the owner. */
  let recipient: BrowserSession | undefined;

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
    await recipient?.close();
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

  it('a recipient copies it into their own account: share session, connect, migrate, the job', async () => {
    recipient = await openSession(inject('chromiumWsEndpoint'));
    const other = recipient.page;
    await other.goto(link);
    await other.getByRole('link', { name: 'Copy to my account' }).click();
    await other.getByRole('heading', { level: 1, name: 'Copy a shared playlist', exact: true }).waitFor();
    const copyPage = () => other.locator('opl-share-copy-page');
    await expect.poll(() => copyPage().locator('[data-field="share-name"]').textContent(), { timeout: 15_000 }).toBe(PLAYLIST);
    await copyPage().getByRole('button', { name: 'Copy to my account' }).click();

    // The share session: the recipient's own Connections, none of the owner's areas.
    const connections = copyPage().locator('opl-connections-page');
    await connections.getByRole('button', { name: 'Connect Spotify' }).waitFor({ timeout: 15_000 });
    expect(await other.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    const cookies = await recipient.context.cookies();
    const shareCookie = cookies.find((cookie) => cookie.name === 'opl_share_session');
    expect(shareCookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    // Whatever the owner connected on this engine, the recipient starts with no account.
    expect(await copyPage().locator('[data-field="no-account"]').isVisible()).toBe(true);

    // Leave for the (demo) provider and come back: the engine's callback lands on the copy page again.
    await connections.getByRole('button', { name: 'Connect Spotify' }).click();
    const target = copyPage().locator('[data-field="target"]');
    await target.waitFor({ timeout: 30_000 });
    await other.getByRole('heading', { level: 1, name: 'Copy a shared playlist', exact: true }).waitFor();
    expect(normalise(await target.textContent())).toContain('Spotify');

    await copyPage().getByRole('button', { name: 'Copy into this account' }).click();
    const board = copyPage().locator('opl-migration-board');
    await board.waitFor({ timeout: 30_000 });
    // The board (its own shadow root) names the job by the playlist it copies.
    await board.getByText(PLAYLIST).first().waitFor({ timeout: 30_000 });
    const jobs = (await (await other.request.get(`${baseUrl}/api/migrations`)).json()) as unknown;
    // The recipient's job list holds their job only; the owner's list (this engine's demo owner) does not hold it.
    const recipientJobs = (Array.isArray(jobs) ? jobs : ((jobs as { jobs?: unknown[] }).jobs ?? [])) as Array<{ id: string; source_provider: string }>;
    expect(recipientJobs).toHaveLength(1);
    expect(recipientJobs[0]!.source_provider).toBe('import');
    const ownerJobs = await (await page.request.get(`${baseUrl}/api/migrations?limit=200`)).text();
    expect(ownerJobs).not.toContain(recipientJobs[0]!.id);
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

    // The recipient's share session ended with the share: their page says so.
    const other = recipient!.page;
    await other.reload();
    await other.locator('opl-share-copy-page [data-field="share-ended"]').waitFor({ timeout: 15_000 });
    await other.locator('opl-share-copy-page').getByRole('button', { name: 'Leave this share' }).click();
    await other.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 15_000 });
  });
});
