import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startEngineOnSharedDatabase, type RunningEngine } from './support/engine.ts';
import { focused, openSession, tabTo, type BrowserSession } from './support/page.ts';

// A second engine with the owner-session gate on: OPL_PUBLIC_BASE_URL names this engine's own address.
const OWNER_SECRET = 'e2e owner secret, not for real use';

let engine: RunningEngine;
let session: BrowserSession;
let page: Page;

const heading = (name: string) => page.getByRole('heading', { name, exact: true });
const field = (name: string) => page.locator(`opl-settings-page [data-field="${name}"]`);

beforeAll(async () => {
  engine = await startEngineOnSharedDatabase((baseUrl) => ({ OPL_PUBLIC_BASE_URL: baseUrl, OPL_OWNER_SECRET: OWNER_SECRET }));
  session = await openSession(inject('chromiumWsEndpoint'));
  page = session.page;
});

afterAll(async () => {
  await session?.close();
  await engine?.stop();
});

describe('owner session gate in the web UI', () => {
  it('asks for the owner secret on Settings when there is no session', async () => {
    await page.goto(`${engine.baseUrl}/#/settings`);
    await expect.poll(() => heading('Sign in').isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await page.getByLabel('Owner secret').getAttribute('type')).toBe('password');
    expect(await field('deployment-mode').count()).toBe(0);
  });

  it('says in words why a wrong secret was refused', async () => {
    await page.getByLabel('Owner secret').focus();
    await page.keyboard.type('not the secret at all');
    await page.keyboard.press('Enter');
    const alert = page.locator('opl-login-form').getByRole('alert');
    await expect.poll(() => alert.isVisible(), { timeout: 10_000 }).toBe(true);
    const text = (await alert.textContent())?.replace(/\s+/g, ' ') ?? '';
    expect(text).toContain('The owner secret is not correct.');
    expect(text).toContain('invalid_owner_secret');
  });

  it('signs in with the keyboard and shows the deployment', async () => {
    await page.getByLabel('Owner secret').fill('');
    await page.getByLabel('Owner secret').focus();
    await page.keyboard.type(OWNER_SECRET);
    await tabTo(page, 'Sign in');
    await page.keyboard.press('Enter');
    await expect.poll(() => field('deployment-mode').textContent(), { timeout: 10_000 }).toContain('self_host');
    expect((await field('session-gate').textContent())?.trim()).toMatch(/^On/);
    expect((await field('session').textContent())?.trim()).toBe('Signed in as the owner');
    expect(await focused(page)).toMatchObject({ tag: 'h2', text: 'This engine' });
    const cookies = await session.context.cookies(engine.baseUrl);
    expect(cookies.find((cookie) => cookie.name === 'opl_session')?.httpOnly).toBe(true);
  });

  it('keeps the session across a reload', async () => {
    await page.reload();
    await expect.poll(() => field('session').textContent(), { timeout: 10_000 }).toBe('Signed in as the owner');
  });

  it('signs out', async () => {
    await tabTo(page, 'Sign out', { max: 40 });
    await page.keyboard.press('Enter');
    await expect.poll(() => heading('Sign in').isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await focused(page)).toMatchObject({ tag: 'h2', text: 'Sign in' });
    expect(await field('deployment-mode').count()).toBe(0);
  });

  it('keeps reporting engine health, which needs no session', async () => {
    await expect.poll(() => page.locator('opl-health-indicator .state').textContent(), { timeout: 15_000 }).toBe('Ready');
  });

  it('logged nothing unexpected: only the refused requests the gate answers with 401', () => {
    const unexpected = session.errors.filter((error) => !/status of 401 \(Unauthorized\)/.test(error));
    expect(unexpected).toEqual([]);
  });
});
