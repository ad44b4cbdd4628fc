import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestIdp, TEST_IDP_CLIENT_ID, TEST_IDP_CLIENT_SECRET, type TestIdp } from '../fakes/oidc/oidc-test-provider.ts';
import { startEngineOnSharedDatabase, type RunningEngine } from './support/engine.ts';

/**
 * A hosted engine of its own (not the shared demo engine) whose users sign in at a real OpenID
 * provider running in this test process. Chromium goes through the whole sign-in: the Settings
 * button, the provider, the callback; the shell then shows the user and signs them out. Admin-only
 * areas (Plugins) are hidden from a user who is no admin, and the API refuses them; an admin has them.
 */

const CERT = fileURLToPath(new URL('../fixtures/tls/test-only-registry.cert.pem', import.meta.url));

let idp: TestIdp;
let engine: RunningEngine;
let browser: Browser;
let page: Page;
let engineBaseUrl = '';
const errors: string[] = [];

beforeAll(async () => {
  idp = await startTestIdp({ redirectUri: () => `${engineBaseUrl}/api/auth/oidc/callback` });
  idp.users.set('carol-sub', { email: 'carol@example.org', name: 'Carol Listener' });
  idp.users.set('dana-sub', { email: 'dana@example.org', name: 'Dana Admin', groups: ['opl-admins'] });
  engine = await startEngineOnSharedDatabase((baseUrl) => {
    engineBaseUrl = baseUrl;
    return {
      OPL_DEPLOYMENT_MODE: 'hosted',
      OPL_PUBLIC_BASE_URL: baseUrl,
      OPL_OIDC_ISSUER: idp.issuer,
      OPL_OIDC_CLIENT_ID: TEST_IDP_CLIENT_ID,
      OPL_OIDC_CLIENT_SECRET: TEST_IDP_CLIENT_SECRET,
      OPL_OIDC_ADMIN_GROUPS: 'opl-admins',
      // The engine process trusts the provider's test-only certificate.
      NODE_EXTRA_CA_CERTS: CERT,
    };
  });
  browser = await chromium.connect(inject('chromiumWsEndpoint'));
  // The browser visits the provider, whose certificate is the test-only one.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ignoreHTTPSErrors: true });
  page = await context.newPage();
  page.on('pageerror', (error) => errors.push(error.message));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await engine?.stop();
  await idp?.close();
});

describe('hosted sign-in through the OpenID provider in the web UI', () => {
  it('offers the provider sign-in on Settings when nobody is signed in', async () => {
    await page.goto(`${engine.baseUrl}/#/settings`);
    const button = page.getByRole('link', { name: 'Sign in with your account' });
    await expect.poll(() => button.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await page.getByLabel('Owner secret').count()).toBe(0);
    expect(await page.locator('opl-session-badge [data-field="signed-in-user"]').count()).toBe(0);
  });

  it('signs in at the provider and comes back signed in: the shell shows the user', async () => {
    idp.nextUser = 'carol-sub';
    await page.getByRole('link', { name: 'Sign in with your account' }).click();
    await page.waitForURL((url) => url.href.startsWith(engine.baseUrl) && !url.pathname.startsWith('/api/'), { timeout: 20_000 });
    const user = page.locator('opl-session-badge [data-field="signed-in-user"]');
    await expect.poll(() => user.textContent(), { timeout: 15_000 }).toBe('Carol Listener');
    await page.goto(`${engine.baseUrl}/#/settings`);
    await expect.poll(() => page.locator('opl-settings-page [data-field="user"]').textContent(), { timeout: 15_000 }).toContain('Carol Listener');
    const cookies = await page.context().cookies(engine.baseUrl);
    const session = cookies.find((cookie) => cookie.name === 'opl_session');
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Strict');
  });

  it('hides the admin-only Plugins area from a user who is no admin, and the API refuses it', async () => {
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect.poll(() => nav.getByRole('link', { name: 'Connections' }).isVisible(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => nav.getByRole('link', { name: 'Plugins' }).count(), { timeout: 15_000 }).toBe(0);
    await page.goto(`${engine.baseUrl}/#/plugins`);
    await expect.poll(() => page.locator('opl-app [data-field="admin-only"]').textContent(), { timeout: 15_000 }).toContain('Only the admins');
    expect(await page.locator('opl-plugins-page').count()).toBe(0);
    const refused = await page.request.get(`${engine.baseUrl}/api/admin/plugins`);
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe('admin_required');
  });

  it('signs out from the shell, and at the provider too, which sends the browser back', async () => {
    await page.locator('opl-session-badge').getByRole('button', { name: 'Sign out' }).click();
    // The provider advertises an end-session endpoint: the browser goes there, and confirms.
    await page.waitForURL((url) => url.href.startsWith(idp.issuer), { timeout: 20_000 });
    await page.getByRole('button', { name: 'Yes, sign me out' }).click();
    await page.waitForURL((url) => url.href.startsWith(engine.baseUrl), { timeout: 20_000 });
    await page.goto(`${engine.baseUrl}/#/settings`);
    await expect.poll(() => page.getByRole('link', { name: 'Sign in with your account' }).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await page.locator('opl-session-badge [data-field="signed-in-user"]').count()).toBe(0);
  });

  it('shows an admin the Plugins area', async () => {
    // Another person, another browser.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ignoreHTTPSErrors: true });
    page = await context.newPage();
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${engine.baseUrl}/#/settings`);
    idp.nextUser = 'dana-sub';
    await page.getByRole('link', { name: 'Sign in with your account' }).click();
    await page.waitForURL((url) => url.href.startsWith(engine.baseUrl) && !url.pathname.startsWith('/api/'), { timeout: 20_000 });
    await expect.poll(() => page.locator('opl-session-badge [data-field="signed-in-user"]').textContent(), { timeout: 15_000 }).toBe('Dana Admin');
    const plugins = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Plugins' });
    await expect.poll(() => plugins.isVisible(), { timeout: 15_000 }).toBe(true);
    await plugins.click();
    await expect.poll(() => page.locator('opl-plugins-page').count(), { timeout: 15_000 }).toBe(1);
    expect(await page.locator('opl-app [data-field="admin-only"]').count()).toBe(0);
    expect((await page.request.get(`${engine.baseUrl}/api/admin/plugins`)).status()).toBe(200);
    expect(errors).toEqual([]);
  });
});
