import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { focused, openSession, tabTo, type BrowserSession } from './support/page.ts';
import { FakePluginAdmin, hostedOverview, problem, type Overview } from './support/plugin-admin-fake.ts';
import { normalise, pageHeading, pluginRowIds } from './support/plugins-page.ts';

const baseUrl = inject('oplBaseUrl');

describe('Plugins page with a fake of the admin routes', () => {
  let session: BrowserSession;
  let page: Page;
  let fake: FakePluginAdmin;

  const plugins = () => page.locator('opl-plugins-page');
  const editor = () => page.locator('opl-allow-list-editor');
  const loadedRow = (id: string) => page.locator(`[data-testid="loaded-table"] tr[data-plugin="${id}"]`);
  const refusedRow = (id: string) => page.locator(`[data-testid="refused-table"] tr[data-plugin="${id}"]`);
  const allowListRows = () => editor().locator('tbody tr');
  const requestsTo = (method: string, path: string) => fake.requests.filter((request) => request.method === method && request.path === path);

  async function open(state: Overview): Promise<void> {
    fake = new FakePluginAdmin(state);
    await page.unrouteAll({ behavior: 'wait' });
    await page.route('**/api/admin/plugins**', fake.handle);
    await page.goto(`${baseUrl}/#/connections`);
    await expect.poll(() => pageHeading(page).textContent()).toBe('Connections');
    await page.goto(`${baseUrl}/#/plugins`);
    await expect.poll(() => pageHeading(page).textContent()).toBe('Plugins');
  }

  async function openLoaded(state: Overview): Promise<void> {
    await open(state);
    await expect.poll(() => page.getByRole('heading', { name: /^Loaded plugins/ }).count(), { timeout: 10_000 }).toBe(1);
  }

  beforeAll(async () => {
    session = await openSession(inject('chromiumWsEndpoint'));
    page = session.page;
  });

  afterAll(async () => {
    await session?.close();
  });

  it('says it is loading until the engine answers', async () => {
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    fake = new FakePluginAdmin(hostedOverview());
    await page.route('**/api/admin/plugins**', async (route) => {
      await answered;
      await fake.handle(route);
    });
    await page.goto(`${baseUrl}/#/plugins`);
    const loading = page.getByRole('status').filter({ hasText: 'Loading plugins…' });
    await expect.poll(() => loading.isVisible(), { timeout: 10_000 }).toBe(true);
    answer();
    await expect.poll(() => page.getByRole('heading', { name: 'Loaded plugins (2)' }).isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await loading.count()).toBe(0);
  });

  it('shows the registry, mode and the development flag', async () => {
    await openLoaded(hostedOverview());
    expect(normalise(await plugins().locator('[data-field="mode"]').textContent())).toContain('hosted');
    const registry = normalise(await plugins().locator('[data-field="registry"]').textContent());
    expect(registry).toContain('HTTPS registry');
    expect(registry).toContain('https://registry.example/opl/');
    expect(normalise(await plugins().locator('[data-field="allow-unsigned"]').textContent())).toMatch(/^Allowed — development only/);
  });

  it('lists loaded plugins with publisher, key and a clear badge on the unsigned one', async () => {
    expect(await pluginRowIds(page, 'loaded-table')).toEqual(['com.example.tunes', 'dev.local.scratch-format']);
    const headers = (await page.locator('[data-testid="loaded-table"] thead th').allTextContents()).map(normalise);
    expect(headers).toEqual(['Plugin', 'Version', 'Kind', 'Publisher', 'Signature', 'Access']);

    const tunes = normalise(await loadedRow('com.example.tunes').textContent());
    for (const text of ['Example Tunes', 'com.example.tunes', '1.4.0', 'Provider', 'Example Ltd', 'key example-2025', 'Signed', '2 network grants']) {
      expect(tunes).toContain(text);
    }
    expect(tunes).not.toContain('UNSIGNED');
    const scratch = normalise(await loadedRow('dev.local.scratch-format').textContent());
    expect(scratch).toContain('File format');
    expect(scratch).toContain('UNSIGNED — development only');
    expect(await loadedRow('com.example.tunes').getByRole('rowheader').textContent()).toContain('Example Tunes');
  });

  it('opens and closes the network grants and capabilities with the keyboard', async () => {
    const button = page.getByRole('button', { name: 'Details of Example Tunes' });
    await button.focus();
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    const details = page.locator(`#${await button.getAttribute('aria-controls')}`);
    expect(await details.isVisible()).toBe(false);

    await page.keyboard.press('Enter');
    await expect.poll(() => button.getAttribute('aria-expanded')).toBe('true');
    expect(await details.isVisible()).toBe(true);
    const text = normalise(await details.textContent());
    expect(text).toContain('GET, POST https://api.tunes.example/v1/');
    expect(text).toContain('Reads and writes playlists through the Tunes Web API.');
    expect(text).toContain('POST https://accounts.tunes.example/api/token');
    expect(text).toContain('read_playlists');
    expect(text).toContain('search');
    const focus = await focused(page);
    expect(focus.outlineStyle).toBe('solid');
    expect(focus.outlineWidthPx).toBeGreaterThanOrEqual(2);

    await page.keyboard.press('Space');
    await expect.poll(() => button.getAttribute('aria-expanded')).toBe('false');
    expect(await details.isVisible()).toBe(false);
  });

  it('puts every refusal reason into words next to the engine detail', async () => {
    expect(await pluginRowIds(page, 'refused-table')).toEqual(['com.example.broken', 'com.example.newcomer', 'com.example.flaky', 'com.example.mystery']);
    const broken = normalise(await refusedRow('com.example.broken').textContent());
    expect(broken).toContain('A file was changed after signing');
    expect(broken).toContain('plugin.js does not match the sha256 in the manifest.');
    expect(normalise(await refusedRow('com.example.newcomer').textContent())).toContain('Not on the allow-list');
    expect(normalise(await refusedRow('com.example.flaky').textContent())).toContain('Quarantined after misbehaving');
    const mystery = normalise(await refusedRow('com.example.mystery').textContent());
    expect(mystery).toContain('Could not be read');
    expect(mystery).toContain('Version unknown');
    expect(normalise(await refusedRow('com.example.newcomer').getByRole('rowheader').textContent())).toBe('com.example.newcomer Version 2.0.1');
    // Actions exist only where they help.
    expect(await refusedRow('com.example.broken').getByRole('button').count()).toBe(0);
    expect(await refusedRow('com.example.newcomer').getByRole('button').allTextContents().then((texts) => texts.map(normalise))).toEqual([
      'Allow com.example.newcomer',
    ]);
    expect(await refusedRow('com.example.flaky').getByRole('button').allTextContents().then((texts) => texts.map(normalise))).toEqual([
      'Release com.example.flaky',
    ]);
  });

  it('reloads the plugins and shows what the engine answers', async () => {
    fake.state.refused = fake.state.refused.filter((plugin) => plugin.id !== 'com.example.broken');
    await tabTo(page, 'Reload plugins', { max: 40 });
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('heading', { name: 'Refused plugins (3)' }).isVisible(), { timeout: 10_000 }).toBe(true);
    expect(requestsTo('POST', '/api/admin/plugins/reload')).toHaveLength(1);
    expect(await page.getByRole('status').filter({ hasText: 'Plugins reloaded: 2 loaded, 3 refused.' }).count()).toBe(1);
    expect((await focused(page)).text).toBe('Reload plugins');
  });

  it('shows a failed reload with the problem, keeping the lists', async () => {
    fake.overrides.push((request) =>
      request.url().endsWith('/reload') ? problem(503, 'service_unavailable', 'Service unavailable', 'The registry is being updated.') : undefined,
    );
    await page.getByRole('button', { name: 'Reload plugins' }).click();
    const alert = plugins().getByRole('alert');
    await expect.poll(() => alert.isVisible(), { timeout: 10_000 }).toBe(true);
    const text = normalise(await alert.textContent());
    expect(text).toContain('Service unavailable');
    expect(text).toContain('The registry is being updated.');
    expect(text).toContain('service_unavailable');
    expect(await page.getByRole('heading', { name: 'Loaded plugins (2)' }).isVisible()).toBe(true);
  });

  it('releases a quarantined plugin and reloads the view', async () => {
    await refusedRow('com.example.flaky').getByRole('button', { name: 'Release com.example.flaky' }).click();
    await expect.poll(() => pluginRowIds(page, 'loaded-table'), { timeout: 10_000 }).toContain('com.example.flaky');
    expect(requestsTo('POST', '/api/admin/plugins/com.example.flaky/release')).toHaveLength(1);
    expect(await pluginRowIds(page, 'refused-table')).not.toContain('com.example.flaky');
    expect(await page.getByRole('status').filter({ hasText: 'Released com.example.flaky from quarantine.' }).count()).toBe(1);
    expect(await focused(page)).toMatchObject({ tag: 'h2', text: 'Refused plugins (2)' });
  });

  it('prefills the allow-list form from a plugin refused for not being allow-listed', async () => {
    await refusedRow('com.example.newcomer').getByRole('button', { name: 'Allow com.example.newcomer' }).click();
    await expect.poll(async () => (await focused(page)).tag).toBe('input');
    expect(await editor().getByLabel('Plugin id').inputValue()).toBe('com.example.newcomer');
    expect(await editor().getByLabel('Version range').inputValue()).toBe('^2.0.1');
    expect(await editor().getByLabel('Key id').inputValue()).toBe('');
    expect(await page.evaluate(() => document.querySelector('opl-app')?.shadowRoot?.querySelector('opl-plugins-page')?.shadowRoot
      ?.querySelector('opl-allow-list-editor')?.shadowRoot?.activeElement?.id)).toBe('allow-key-id');
  });

  it('adds an allow-list entry from the keyboard', async () => {
    await page.keyboard.type('newcomer-2025');
    await page.keyboard.press('Enter');
    await expect.poll(() => allowListRows().count(), { timeout: 10_000 }).toBe(2);
    expect(requestsTo('POST', '/api/admin/plugins/allow-list').map((request) => request.body)).toEqual([
      { plugin_id: 'com.example.newcomer', key_id: 'newcomer-2025', version_range: '^2.0.1' },
    ]);
    const added = normalise(await allowListRows().nth(1).textContent());
    expect(added).toContain('com.example.newcomer');
    expect(added).toContain('newcomer-2025');
    expect(added).toContain('^2.0.1');
    expect(added).toContain('by admin-token');
    expect(await editor().getByLabel('Plugin id').inputValue()).toBe('');
    expect(await editor().getByRole('status').textContent()).toBe('Added com.example.newcomer to the allow-list. Reload plugins to apply it.');
  });

  it('names every empty field before sending anything', async () => {
    const before = fake.requests.length;
    await editor().getByRole('button', { name: 'Add to allow-list' }).click();
    const pluginId = editor().getByLabel('Plugin id');
    expect(await pluginId.getAttribute('aria-invalid')).toBe('true');
    expect(await editor().getByLabel('Key id').getAttribute('aria-invalid')).toBe('true');
    expect(normalise(await editor().locator('.field-error').first().textContent())).toMatch(/^Enter the plugin id/);
    expect(await page.evaluate(() => document.querySelector('opl-app')?.shadowRoot?.querySelector('opl-plugins-page')?.shadowRoot
      ?.querySelector('opl-allow-list-editor')?.shadowRoot?.activeElement?.id)).toBe('allow-plugin-id');
    expect(fake.requests.length).toBe(before);
  });

  it('shows the engine problem when it rejects an entry', async () => {
    fake.overrides.push((request) =>
      request.method() === 'POST' && request.url().endsWith('/allow-list')
        ? problem(400, 'validation_failed', 'The request is not valid', 'version_range: expected a semver range such as "^1.2.0"')
        : undefined,
    );
    await editor().getByLabel('Plugin id').fill('com.example.other');
    await editor().getByLabel('Key id').fill('other-key');
    await editor().getByLabel('Version range').fill('whenever');
    await editor().getByRole('button', { name: 'Add to allow-list' }).click();
    const alert = editor().getByRole('alert');
    await expect.poll(() => alert.isVisible(), { timeout: 10_000 }).toBe(true);
    const text = normalise(await alert.textContent());
    expect(text).toContain('The request is not valid');
    expect(text).toContain('expected a semver range');
    expect(text).toContain('validation_failed');
    expect(await allowListRows().count()).toBe(2);
    // What was typed stays, to be corrected.
    expect(await editor().getByLabel('Version range').inputValue()).toBe('whenever');
  });

  it('removes an allow-list entry and moves focus to the list heading', async () => {
    await editor().getByRole('button', { name: 'Remove com.example.tunes' }).click();
    await expect.poll(() => allowListRows().count(), { timeout: 10_000 }).toBe(1);
    expect(requestsTo('DELETE', '/api/admin/plugins/allow-list/entry-1')).toHaveLength(1);
    expect(normalise(await allowListRows().first().textContent())).toContain('com.example.newcomer');
    expect(await focused(page)).toMatchObject({ tag: 'h2', text: 'Allow-list' });
  });

  it('explains in self-hosted mode that the allow-list is enforced only in hosted mode', async () => {
    await openLoaded({ ...hostedOverview(), mode: 'self_host', allow_unsigned: false, registry: { source: 'directory', location: '/srv/opl/registry' } });
    expect(normalise(await editor().getByTestId('allow-list-note').textContent())).toMatch(/^Enforced only in hosted mode\./);
    expect(normalise(await plugins().locator('[data-field="registry"]').textContent())).toContain('Local directory /srv/opl/registry');
    expect(normalise(await plugins().locator('[data-field="allow-unsigned"]').textContent())).toMatch(/^Refused/);
    expect(await editor().getByRole('button', { name: 'Add to allow-list' }).isVisible()).toBe(true);
  });

  it('shows an empty registry plainly', async () => {
    await openLoaded({ ...hostedOverview(), loaded: [], refused: [], allow_list: [] });
    expect(await page.getByRole('heading', { name: 'Loaded plugins (0)' }).isVisible()).toBe(true);
    expect(await plugins().getByText('No plugins are loaded.').isVisible()).toBe(true);
    expect(await plugins().getByText('No plugins were refused.').isVisible()).toBe(true);
    expect(normalise(await editor().getByText(/The allow-list is empty/).textContent())).toContain('no plugin is loaded');
    expect(await page.locator('table').count()).toBe(0);
  });

  it('offers the owner sign-in when the engine asks for a session', async () => {
    await openLoaded(hostedOverview());
    // Registered once the page's first request is answered, so the reload is what gets it.
    fake.overrides.push(() => problem(401, 'session_required', 'Owner session required', 'Log in with the owner secret (POST /api/session) and retry.'));
    await page.reload();
    await expect.poll(() => page.getByRole('heading', { name: 'Sign in' }).isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await page.getByLabel('Owner secret').getAttribute('type')).toBe('password');
    expect(await page.getByRole('heading', { name: /^Loaded plugins/ }).count()).toBe(0);
  });

  it('asks a hosted engine for its admin token and sends it with every admin request', async () => {
    fake = new FakePluginAdmin(hostedOverview());
    const tokenRequired = (request: Request) =>
      request.headers()['authorization'] === 'Bearer s3cret-admin' ? undefined : problem(401, 'admin_token_required', 'Admin token required', 'Send the admin token.');
    fake.overrides.push(tokenRequired, tokenRequired);
    await page.unrouteAll({ behavior: 'wait' });
    await page.route('**/api/admin/plugins**', fake.handle);
    await page.reload();
    const token = page.getByRole('textbox', { name: 'Admin token' });
    await expect.poll(() => token.isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await token.getAttribute('type')).toBe('password');

    await token.fill('wrong');
    await token.press('Enter');
    await expect.poll(() => plugins().locator('#admin-token-error').textContent(), { timeout: 10_000 }).toBe('The engine did not accept this admin token.');
    expect(await token.getAttribute('aria-invalid')).toBe('true');
    expect(await token.inputValue()).toBe('');
    expect((await focused(page)).tag).toBe('input');

    await token.fill('s3cret-admin');
    await token.press('Enter');
    await expect.poll(() => page.getByRole('heading', { name: 'Loaded plugins (2)' }).isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await focused(page)).toMatchObject({ tag: 'h2', text: 'Registry and trust' });
    await editor().getByRole('button', { name: 'Remove com.example.tunes' }).click();
    await expect.poll(() => allowListRows().count(), { timeout: 10_000 }).toBe(0);
    expect(fake.requests.map((request) => request.authorization)).toEqual([undefined, 'Bearer wrong', 'Bearer s3cret-admin', 'Bearer s3cret-admin']);
  });

  it('explains a hosted engine whose admin routes are switched off', async () => {
    await openLoaded(hostedOverview());
    fake.overrides.push(() =>
      problem(403, 'admin_not_configured', 'Admin access is not configured', 'This hosted instance has no admin token (OPL_ADMIN_TOKEN). Use the `opl plugin` CLI on the server instead.'),
    );
    await page.reload();
    const alert = plugins().getByRole('alert');
    await expect.poll(() => alert.isVisible(), { timeout: 10_000 }).toBe(true);
    const text = normalise(await alert.textContent());
    expect(text).toContain('Admin access is not configured');
    expect(text).toContain('opl plugin');
    // Signing in would not help, so no hint points there.
    expect(await plugins().locator('opl-problem-notice').getByRole('link', { name: 'Settings' }).count()).toBe(0);
  });

  it('points to Settings when the engine refuses this browser', async () => {
    fake.overrides.push(() => problem(403, 'cross_origin_request', 'Cross-origin request refused', 'Requests must come from the engine origin.'));
    await page.reload();
    const alert = plugins().getByRole('alert');
    await expect.poll(() => alert.isVisible(), { timeout: 10_000 }).toBe(true);
    // The hint is slotted into the notice, so it is read as part of the alert.
    expect(await plugins().locator('opl-problem-notice').getByRole('link', { name: 'Settings' }).getAttribute('href')).toBe('#/settings');
  });

  it('says when the engine cannot be reached, and tries again on request', async () => {
    fake.overrides.push(() => 'abort');
    await page.reload();
    const alert = plugins().getByRole('alert');
    await expect.poll(() => alert.isVisible(), { timeout: 10_000 }).toBe(true);
    expect(normalise(await alert.textContent())).toContain('Cannot reach the engine');
    await tabTo(page, 'Try again', { max: 40 });
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('heading', { name: 'Loaded plugins (2)' }).isVisible(), { timeout: 10_000 }).toBe(true);
  });

  it('fits a narrow screen without widening the page', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openLoaded(hostedOverview());
    await page.getByRole('button', { name: 'Details of Example Tunes' }).click();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('logged nothing unexpected: only the error answers and the refused connection the tests asked for', () => {
    // Reloading the page aborts its pending health poll and favicon request; that is not a failure.
    const expected = /status of (400|401|403|503)|ERR_CONNECTION_REFUSED|request failed: GET .*\/api\/admin\/plugins|\/(readyz|favicon\.svg) net::ERR_ABORTED/;
    expect(session.errors.filter((error) => !expected.test(error))).toEqual([]);
  });
});
