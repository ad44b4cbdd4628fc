import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { focused, openSession, tabTo, type BrowserSession } from './support/page.ts';

const AREAS = [
  'Home',
  'Connections',
  'Library',
  'Migrate',
  'History',
  'Import',
  'Export',
  'Organizer',
  'Sync',
  'Generator',
  'Snapshots',
  'Shares',
  'Plugins',
  'Settings',
];

const baseUrl = inject('oplBaseUrl');
const screenshotDir = join(tmpdir(), 'opl-e2e-screenshots');

let session: BrowserSession;
let page: Page;

const heading = () => page.getByRole('heading', { level: 1 });
const nav = () => page.getByRole('navigation', { name: 'Main' });
const currentNavItem = () => nav().locator('a[aria-current="page"]');

beforeAll(async () => {
  session = await openSession(inject('chromiumWsEndpoint'));
  page = session.page;
  mkdirSync(screenshotDir, { recursive: true });
});

afterAll(async () => {
  await session?.close();
});

describe('web UI shell', () => {
  it('opens on Home once an account is connected, else on Connections, with the product name, landmarks and all fourteen areas in order', async () => {
    // The engine is shared with the other browser tests: whether an account is connected depends on which ran first.
    const accounts = (await (await fetch(`${baseUrl}/api/auth/accounts`, { headers: { accept: 'application/json' } })).json()) as { accounts: unknown[] };
    const start = accounts.accounts.length > 0 ? 'Home' : 'Connections';
    await page.goto(`${baseUrl}/`);
    // An empty engine shows Home until its overview answers, then goes on to Connections.
    await expect.poll(() => heading().textContent(), { timeout: 15_000 }).toBe(start);
    expect(new URL(page.url()).hash).toBe(`#/${start.toLowerCase()}`);
    expect(await page.title()).toBe(`${start} · Open Playlist Engine`);
    expect(await page.getByRole('banner').textContent()).toContain('Open Playlist Engine');
    expect(await page.getByRole('main').count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');

    const links = nav().getByRole('listitem').getByRole('link');
    expect((await links.allTextContents()).map((text) => text.trim())).toEqual(AREAS);
    expect(await currentNavItem().count()).toBe(1);
    expect((await currentNavItem().textContent())?.trim()).toBe(start);
  });

  it('has a working page behind every area: none says it is not built', async () => {
    for (const area of AREAS) {
      await page.goto(`${baseUrl}/#/${area.toLowerCase()}`);
      await expect.poll(() => heading().textContent()).toBe(area);
      expect(await page.getByRole('main').getByText(/not available yet/i).count(), area).toBe(0);
    }
  });

  it('offers a skip link first, which moves focus to the main content', async () => {
    await page.goto(`${baseUrl}/#/connections`);
    // Start from the top of the document, as on a fresh load (a hash change keeps focus where the
    // router put it). No navigation: it could abort a request of the page still in flight.
    await page.evaluate(() => {
      document.body.tabIndex = -1;
      document.body.focus();
      document.body.removeAttribute('tabindex');
    });
    await expect.poll(() => heading().textContent()).toBe('Connections');
    await page.keyboard.press('Tab');
    expect((await focused(page)).text).toBe('Skip to main content');
    await expect.poll(async () => (await focused(page)).inViewport).toBe(true);
    await page.keyboard.press('Enter');
    expect((await focused(page)).tag).toBe('main');
    expect(new URL(page.url()).hash).toBe('#/connections');
  });

  it('navigates with the keyboard alone: Tab through the navigation, Enter to open an area', async () => {
    await page.goto(`${baseUrl}/#/connections`);
    await expect.poll(() => heading().textContent()).toBe('Connections');

    // Six providers put two stops each on the Connections page before the navigation comes round.
    const library = await tabTo(page, 'Library', { max: 60 });
    expect(library.tag).toBe('a');
    expect(library.outlineStyle).not.toBe('none');
    expect(library.outlineWidthPx).toBeGreaterThanOrEqual(2);
    await page.keyboard.press('Enter');

    await expect.poll(() => heading().textContent()).toBe('Library');
    expect(new URL(page.url()).hash).toBe('#/library');
    expect((await currentNavItem().textContent())?.trim()).toBe('Library');
    expect(await currentNavItem().count()).toBe(1);
    // Focus lands on the new page's heading.
    expect(await focused(page)).toMatchObject({ tag: 'h1', text: 'Library' });

    // Backwards from the heading reaches the navigation again; walk up to Migrate.
    await tabTo(page, 'Migrate', { backwards: true });
    await page.keyboard.press('Enter');
    await expect.poll(() => heading().textContent()).toBe('Migrate');
    expect(new URL(page.url()).hash).toBe('#/migrate');
    expect((await currentNavItem().textContent())?.trim()).toBe('Migrate');
    expect(await focused(page)).toMatchObject({ tag: 'h1', text: 'Migrate' });
    expect(await page.title()).toBe('Migrate · Open Playlist Engine');

    await page.goBack();
    await expect.poll(() => heading().textContent()).toBe('Library');
    expect((await currentNavItem().textContent())?.trim()).toBe('Library');
  });

  it('shows the engine as Ready, with each readiness check on request', async () => {
    const state = page.locator('opl-health-indicator .state');
    await expect.poll(() => state.textContent(), { timeout: 15_000 }).toBe('Ready');

    // From the top of the document: the page before may have left focus in a long list.
    await page.evaluate(() => {
      document.body.tabIndex = -1;
      document.body.focus();
      document.body.removeAttribute('tabindex');
    });
    await tabTo(page, 'Engine Ready', { max: 5 });
    await page.keyboard.press('Enter');
    const checks = page.getByRole('list', { name: 'Readiness checks' });
    await expect.poll(() => checks.isVisible()).toBe(true);
    const rows = (await checks.getByRole('listitem').allTextContents()).map((text) => text.replace(/\s+/g, ' ').trim());
    expect(rows).toEqual(['Database Up', 'Job queue Up', 'Plugin host Up']);
    await page.keyboard.press('Escape');
    await expect.poll(() => checks.isVisible()).toBe(false);
    expect((await focused(page)).text).toBe('Engine Ready');

    // The panel also closes like any popup when the pointer goes elsewhere.
    await page.locator('opl-health-indicator summary').click();
    await expect.poll(() => checks.isVisible()).toBe(true);
    await heading().click();
    await expect.poll(() => checks.isVisible()).toBe(false);
  });

  it('shows the deployment from GET /api/me on Settings', async () => {
    await page.goto(`${baseUrl}/#/settings`);
    await expect.poll(() => heading().textContent()).toBe('Settings');
    const mode = page.locator('opl-settings-page [data-field="deployment-mode"]');
    await expect.poll(() => mode.textContent(), { timeout: 10_000 }).toContain('self_host');
    expect(await page.locator('opl-settings-page [data-field="owner"]').textContent()).toContain('local');
    expect((await page.locator('opl-settings-page [data-field="session-gate"]').textContent())?.trim()).toMatch(/^Off/);
    expect(await page.getByLabel('Owner secret').count()).toBe(0);
    await page.screenshot({ path: join(screenshotDir, 'settings-light.png'), fullPage: true });
  });

  it('answers an unknown address with a page that leads back', async () => {
    await page.goto(`${baseUrl}/#/no-such-area`);
    await expect.poll(() => heading().textContent()).toBe('Page not found');
    expect(await currentNavItem().count()).toBe(0);
    await page.getByRole('main').getByRole('link', { name: 'Connections' }).click();
    await expect.poll(() => heading().textContent()).toBe('Connections');
  });

  it('looks right in the dark colour scheme and on a narrow screen', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${baseUrl}/#/migrate`);
    await expect.poll(() => page.locator('opl-health-indicator .state').textContent(), { timeout: 15_000 }).toBe('Ready');
    await page.screenshot({ path: join(screenshotDir, 'migrate-dark.png'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${baseUrl}/#/connections`);
    await expect.poll(() => heading().textContent()).toBe('Connections');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
    await page.screenshot({ path: join(screenshotDir, 'connections-narrow.png'), fullPage: true });
  });

  it('logged no console errors, failed requests or uncaught exceptions', () => {
    expect(session.errors).toEqual([]);
  });

  it('runs the production build of the UI: no warnings, Lit\'s "dev mode" notice among them', () => {
    // The suite runs under NODE_ENV=test; the UI it serves must still be built for production.
    expect(session.warnings).toEqual([]);
  });
});
