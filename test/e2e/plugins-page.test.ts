import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { focused, openSession, tabTo, type BrowserSession } from './support/page.ts';
import { normalise, pageHeading, pluginRowIds } from './support/plugins-page.ts';

const baseUrl = inject('oplBaseUrl');

describe('Plugins page against the real engine', () => {
  let session: BrowserSession;
  let page: Page;

  beforeAll(async () => {
    session = await openSession(inject('chromiumWsEndpoint'));
    page = session.page;
  });

  afterAll(async () => {
    await session?.close();
  });

  it('lists the loaded and refused plugins that GET /api/admin/plugins returns', async () => {
    const response = await fetch(`${baseUrl}/api/admin/plugins`, { headers: { accept: 'application/json' } });
    expect(response.status, await response.clone().text()).toBe(200);
    const body = (await response.json()) as {
      mode: string;
      loaded: { id: string; name: string; version: string }[];
      refused: { id: string; reason: string }[];
    };

    await page.goto(`${baseUrl}/#/plugins`);
    await expect.poll(() => pageHeading(page).textContent()).toBe('Plugins');
    await expect.poll(() => page.locator('opl-plugins-page [data-field="mode"]').textContent(), { timeout: 10_000 }).toContain(body.mode);

    const loadedHeading = page.getByRole('heading', { name: `Loaded plugins (${body.loaded.length})` });
    expect(await loadedHeading.isVisible()).toBe(true);
    expect(await page.getByRole('heading', { name: `Refused plugins (${body.refused.length})` }).isVisible()).toBe(true);
    expect(await pluginRowIds(page, 'loaded-table')).toEqual(body.loaded.map((plugin) => plugin.id));
    expect(await pluginRowIds(page, 'refused-table')).toEqual(body.refused.map((plugin) => plugin.id));
    for (const plugin of body.loaded) {
      const row = normalise(await page.locator(`[data-testid="loaded-table"] tr[data-plugin="${plugin.id}"]`).textContent());
      expect(row).toContain(plugin.name);
      expect(row).toContain(plugin.version);
    }
    // Every refusal is put into words rather than shown as a bare code.
    for (const label of await page.locator('[data-testid="refused-table"] .reason-label').allTextContents()) {
      expect(label).not.toMatch(/_/);
    }
  });

  it('reloads the plugins through POST /api/admin/plugins/reload', async () => {
    const reload = page.waitForResponse((response) => response.url().endsWith('/api/admin/plugins/reload') && response.request().method() === 'POST');
    await tabTo(page, 'Reload plugins', { max: 40 });
    await page.keyboard.press('Enter');
    expect((await reload).status()).toBe(200);
    const status = page.locator('opl-plugins-page').getByRole('status').filter({ hasText: /^Plugins reloaded: \d+ loaded, \d+ refused\.$/ });
    await expect.poll(() => status.count(), { timeout: 10_000 }).toBe(1);
    expect((await focused(page)).text).toBe('Reload plugins');
    expect(await page.locator('opl-plugins-page').getByRole('alert').count()).toBe(0);
  });

  it('logged no console errors, failed requests or uncaught exceptions', () => {
    expect(session.errors).toEqual([]);
  });
});
