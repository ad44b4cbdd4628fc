import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openSession, type BrowserSession } from './support/page.ts';

/**
 * The whole connection story in a real browser against the demo engine (`OPL_DEMO=1`): the user
 * clicks "Connect Spotify", the browser really leaves for the (fake) provider's authorize page with
 * a PKCE challenge, comes back through the engine's callback, sees the account, and browses its
 * playlists and tracks. No route is stubbed here.
 */

const baseUrl = inject('oplBaseUrl');

describe('connecting a demo Spotify account in the browser', () => {
  let session: BrowserSession;
  let page: Page;
  const connections = () => page.locator('opl-connections-page');

  beforeAll(async () => {
    session = await openSession(inject('chromiumWsEndpoint'));
    page = session.page;
  });

  afterAll(async () => {
    await session?.close();
  });

  it('goes through the real PKCE redirect and lists the demo playlists', async () => {
    await page.goto(`${baseUrl}/#/connections`);
    await page.getByRole('heading', { level: 1, name: 'Connections', exact: true }).waitFor();
    // The banner comes with the provider list, which is read after the heading shows: wait for it.
    const banner = connections().getByText(/demo mode/i).first();
    await banner.waitFor({ timeout: 15_000 });
    expect(await banner.isVisible()).toBe(true);

    // Leave for the provider: the browser follows the authorize URL (PKCE S256) to the demo
    // provider, which approves as its demo user and sends the browser back to the callback.
    const visited: string[] = [];
    page.on('request', (request) => {
      if (request.isNavigationRequest()) visited.push(request.url());
    });
    await connections().getByRole('button', { name: 'Connect Spotify' }).click();
    await connections().locator('[data-testid="auth-outcome"][data-outcome="connected"]').waitFor({ timeout: 30_000 });

    const authorize = visited.map((url) => new URL(url)).find((url) => url.pathname === '/authorize');
    expect(authorize, `navigations: ${visited.join(', ')}`).toBeDefined();
    expect(authorize!.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize!.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorize!.searchParams.get('state')).toBeTruthy();
    expect(visited.some((url) => url.includes('/api/auth/spotify/callback?code='))).toBe(true);
    // The hash no longer carries the outcome, so a reload does not announce it again.
    expect(page.url()).not.toContain('connected=');

    // Other browser tests on the same engine may have connected demo accounts of other providers.
    const card = connections().locator('[data-testid="account-card"]').filter({ hasText: 'Demo Listener' }).filter({ hasText: 'Name on Spotify' });
    await card.waitFor();
    expect(await card.getAttribute('data-status')).toBe('connected');

    await card.getByRole('button', { name: /Browse playlists/ }).click();
    const table = connections().locator('[data-testid="playlists-table"]');
    await table.waitFor({ timeout: 30_000 });
    for (const name of ['Liked songs', 'Road Trip 2024', 'Podcasts & Bootlegs', '夜のプレイリスト']) expect(await table.getByText(name, { exact: true }).count()).toBeGreaterThan(0);

    await table.getByText('Podcasts & Bootlegs', { exact: true }).click();
    const tracks = connections().locator('[data-testid="tracks-table"]');
    await tracks.waitFor({ timeout: 30_000 });
    expect(await connections().locator('[data-testid="not-migratable-reason"]').count()).toBe(4);

    // Nothing the browser received carries a token.
    const html = await page.content();
    expect(html).not.toMatch(/access_token|refresh_token|Bearer /);
  });
});
