import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openSession, type BrowserSession } from './support/page.ts';

/**
 * Connecting YouTube Music by device code in a real browser against the demo engine
 * (`OPL_DEMO=1`): the engine registers at the demo fake with the shared demo client, the page
 * shows the code and the verification link, polls, and the demo fake approves as its demo
 * listener at the first poll. No route is stubbed.
 */

const baseUrl = inject('oplBaseUrl');

describe('connecting a demo YouTube Music account by device code', () => {
  let session: BrowserSession;
  let page: Page;
  const connections = () => page.locator('opl-connections-page');
  const providerCard = () => connections().locator('li[data-provider="ytmusic"]');
  const challenge = () => connections().locator('opl-connect-challenge [data-testid="challenge"]');

  beforeAll(async () => {
    session = await openSession(inject('chromiumWsEndpoint'));
    page = session.page;
  });

  afterAll(async () => {
    await session?.close();
  });

  it('shows the code, polls until the demo approves, then lists the account and its playlists', async () => {
    await page.goto(`${baseUrl}/#/connections`);
    await page.getByRole('heading', { level: 1, name: 'Connections', exact: true }).waitFor();
    await providerCard().waitFor({ timeout: 30_000 });
    expect(await providerCard().getAttribute('data-connectable')).toBe('true');

    const begins: unknown[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/auth/ytmusic/begin')) begins.push(request.postDataJSON());
    });
    // The device flow needs no client fields of the user here: demo mode registers the engine's own.
    await providerCard().getByRole('radio', { name: 'Enter a code on another device' }).check();
    await providerCard().getByRole('textbox', { name: 'Label (optional)' }).fill('Kitchen');
    await providerCard().getByRole('button', { name: 'Connect YouTube Music' }).click();

    await expect.poll(() => challenge().getAttribute('data-shape'), { timeout: 15_000 }).toBe('device_code');
    expect(begins).toEqual([{ account_label: 'Kitchen', auth_kind: 'OAUTH_DEVICE' }]);
    const code = (await challenge().locator('[data-testid="user-code"]').textContent())?.replace(/\s+/g, '') ?? '';
    expect(code).toMatch(/^[A-Z0-9-]{6,}$/);
    const link = challenge().getByRole('link').first();
    expect(await link.getAttribute('href')).toMatch(/^https?:\/\//);

    // The demo fake approves at the first poll (every 2 s): the challenge gives way to the account.
    const card = connections().locator('[data-testid="account-card"]').filter({ hasText: 'Kitchen' });
    await card.waitFor({ timeout: 30_000 });
    expect(await card.getAttribute('data-status')).toBe('connected');
    expect(await card.textContent()).toContain('YouTube Music');
    expect(await challenge().count()).toBe(0);

    await card.getByRole('button', { name: /Browse playlists/ }).click();
    const table = connections().locator('[data-testid="playlists-table"]');
    await table.waitFor({ timeout: 30_000 });
    expect(await table.getByText('Road Trip 2024', { exact: true }).count()).toBeGreaterThan(0);

    expect(await page.content()).not.toMatch(/access_token|refresh_token|Bearer /);
  });
});
