import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { account, challengeBase, expectedConsoleNoise, FakeConnectionsApi, type Json, normalise, problem, provider, shownText } from './support/connections-page.ts';
import { focused, openSession, tabTo, type BrowserSession } from './support/page.ts';

const baseUrl = inject('oplBaseUrl');

describe('Connections page', () => {
  let session: BrowserSession;
  let page: Page;

  const connections = () => page.locator('opl-connections-page');
  const announcement = () => connections().locator('[data-testid="announcement"]');
  const providerCard = (name: string) => connections().locator(`li[data-provider="${name}"]`);
  const accountCard = (id: string) => connections().locator(`[data-testid="account-card"][data-account-id="${id}"]`);
  const challenge = () => connections().locator('opl-connect-challenge [data-testid="challenge"]');
  const browser = () => connections().locator('opl-playlist-browser [data-testid="playlist-browser"]');

  /** Through another area first, so the page is created afresh (a hash change alone keeps the document). */
  async function open(hash = '#/connections'): Promise<void> {
    await page.goto(`${baseUrl}/#/settings`);
    await page.getByRole('heading', { level: 1, name: 'Settings', exact: true }).waitFor();
    await page.goto(`${baseUrl}/${hash}`);
    await page.getByRole('heading', { level: 1, name: 'Connections', exact: true }).waitFor();
  }

  beforeAll(async () => {
    session = await openSession(inject('chromiumWsEndpoint'));
    page = session.page;
  });

  afterAll(async () => {
    await session?.close();
  });

  describe('against the real engine', () => {
    it('is an available area listing the providers of GET /providers, and the accounts of GET /api/auth/accounts (none on a fresh engine)', async () => {
      const answer = await fetch(`${baseUrl}/providers`, { headers: { accept: 'application/json' } });
      expect(answer.status).toBe(200);
      const { providers } = (await answer.json()) as { providers: { name: string; display_name: string; demo?: boolean }[] };
      // Other e2e files share this engine and may have connected a demo account before this file runs.
      const listed = await fetch(`${baseUrl}/api/auth/accounts`, { headers: { accept: 'application/json' } });
      expect(listed.status).toBe(200);
      const { accounts } = (await listed.json()) as { accounts: { id: string }[] };

      await open();
      expect(await page.title()).toBe('Connections · Open Playlist Engine');
      await expect.poll(() => connections().getByRole('heading', { level: 2, name: 'Connect a service' }).isVisible(), { timeout: 15_000 }).toBe(true);
      expect(normalise(await connections().getByRole('heading', { level: 2, name: /^Connected accounts/ }).textContent())).toBe(`Connected accounts (${accounts.length})`);
      if (accounts.length === 0) {
        expect(normalise(await connections().locator('[data-testid="accounts-empty"]').textContent())).toMatch(/^No accounts are connected yet\./);
      } else {
        expect(await connections().locator('[data-testid="account-card"]').count()).toBe(accounts.length);
      }

      if (providers.length === 0) {
        expect(normalise(await connections().locator('[data-testid="providers-empty"]').textContent())).toMatch(/No provider plugins are loaded/);
        expect(await connections().getByRole('link', { name: 'Plugins' }).getAttribute('href')).toBe('#/plugins');
      } else {
        const names = await connections().locator('[data-testid="provider-list"] > li').evaluateAll((items) => items.map((item) => item.getAttribute('data-provider')));
        expect(names).toEqual(providers.map((row) => row.name));
        for (const row of providers) {
          expect(await providerCard(row.name).getByRole('button', { name: `Connect ${row.display_name}` }).count()).toBe(1);
          expect(await providerCard(row.name).getByRole('textbox', { name: 'Label (optional)' }).count()).toBe(1);
        }
      }
      const demo = providers.some((row) => row.demo === true);
      expect(await connections().locator('[data-testid="demo-banner"]').count()).toBe(demo ? 1 : 0);
    });

    it('is keyboard operable from the page heading: the first control of the first service is next', async () => {
      await open();
      await expect.poll(() => connections().getByRole('heading', { level: 2, name: 'Connect a service' }).isVisible(), { timeout: 15_000 }).toBe(true);
      await page.getByRole('heading', { level: 1, name: 'Connections' }).focus();
      await page.keyboard.press('Tab');
      const first = await focused(page);
      const providerCount = await connections().locator('[data-testid="provider-list"] > li').count();
      if (providerCount > 0) {
        expect(first.tag).toBe('input');
        expect(first.outlineStyle).not.toBe('none');
      } else {
        expect(first).toMatchObject({ tag: 'a', text: 'Plugins' });
      }
    });

    it('logged nothing unexpected on the console', () => {
      expect(session.errors.filter((error) => !expectedConsoleNoise(error))).toEqual([]);
    });
  });

  describe('states the test engine cannot produce on demand (page.route)', () => {
    let fake: FakeConnectionsApi;

    async function openWith(providers: Json[], accounts: Json[], hash = '#/connections'): Promise<void> {
      fake = new FakeConnectionsApi(providers, accounts);
      await page.unrouteAll({ behavior: 'wait' });
      await page.route('**/providers', fake.handle);
      await page.route('**/api/auth/**', fake.handle);
      await page.route('**/api/playlists**', fake.handle);
      await open(hash);
      await expect.poll(() => connections().getByRole('heading', { level: 2, name: /^Connected accounts/ }).count(), { timeout: 10_000 }).toBe(1);
    }

    const tidal = provider({ name: 'tidal', display_name: 'TIDAL', auth_kinds: ['OAUTH_PKCE', 'OAUTH_DEVICE'], plugin: { id: 'opl.provider.tidal', version: '1.0.0', signed: true } });
    const ytm = provider({
      name: 'ytmusic',
      display_name: 'YouTube Music',
      auth_kinds: ['OAUTH_DEVICE', 'HEADER_PASTE'],
      official: false,
      stability: 'beta',
      demo: false,
      warning: 'Unofficial: it may break when the service changes.',
    });
    const apple = provider({ name: 'apple', display_name: 'Apple Music', demo: false, connectable: false, connect_unavailable_reason: 'No developer key is configured: set OPL_APPLE_MUSIC_KEY_FILE.' });

    afterAll(async () => {
      await page.unrouteAll({ behavior: 'wait' });
    });

    it('labels demo services everywhere and explains a service that cannot be connected', async () => {
      await openWith([provider(), tidal, ytm, apple], [account()]);
      expect(normalise(await connections().locator('[data-testid="demo-banner"]').textContent())).toBe(
        'Demo Demo mode: these are simulated services with made-up music; nothing here touches a real account.',
      );
      expect(normalise(await providerCard('spotify').getByRole('heading', { level: 3 }).textContent())).toBe('Spotify Demo');
      expect(normalise(await providerCard('ytmusic').getByRole('heading', { level: 3 }).textContent())).toBe('YouTube Music Unofficial beta');
      expect(normalise(await providerCard('ytmusic').textContent())).toContain('Unofficial: it may break when the service changes.');
      expect(normalise(await accountCard('acct-1').getByRole('heading', { level: 4 }).textContent())).toBe('Work Demo');

      const blocked = providerCard('apple').getByRole('button', { name: 'Connect Apple Music' });
      expect(await blocked.getAttribute('aria-disabled')).toBe('true');
      const reasonId = await blocked.getAttribute('aria-describedby');
      expect(normalise(await connections().locator(`[id="${reasonId}"]`).textContent())).toBe('No developer key is configured: set OPL_APPLE_MUSIC_KEY_FILE.');
      await blocked.click({ force: true });
      await page.waitForTimeout(300);
      expect(fake.count('POST', '/api/auth/apple/begin')).toBe(0);
    });

    it('offers a label and, where there are several, a choice of sign-in method, in keyboard order', async () => {
      const card = providerCard('tidal');
      expect(await card.getByRole('textbox', { name: 'Label (optional)' }).isVisible()).toBe(true);
      const methods = card.getByRole('group', { name: 'Sign-in method' }).getByRole('radio');
      expect(await methods.count()).toBe(2);
      expect(await card.getByRole('radio', { name: 'Sign in on the service’s website' }).isChecked()).toBe(true);
      expect(await providerCard('spotify').getByRole('group', { name: 'Sign-in method' }).count()).toBe(0);

      await card.getByRole('textbox', { name: 'Label (optional)' }).focus();
      await page.keyboard.press('Tab');
      expect(await focused(page)).toMatchObject({ tag: 'input' });
      await page.keyboard.press('ArrowDown');
      expect(await card.getByRole('radio', { name: 'Enter a code on another device' }).isChecked()).toBe(true);
      const connect = await tabTo(page, 'Connect TIDAL', { max: 3 });
      expect(connect.outlineStyle).not.toBe('none');
      expect(connect.outlineWidthPx).toBeGreaterThanOrEqual(2);
    });

    it('redirect: leaves for the service, and announces the account the engine sends back, once', async () => {
      await openWith([provider()], []);
      fake.queue('POST /api/auth/spotify/begin', { status: 200, body: { ...challengeBase('spotify', 'OAUTH_PKCE'), shape: 'redirect', redirect_url: `${baseUrl}/stub-authorize?state=s1` } });
      await page.route('**/stub-authorize**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Authorize</title><p>Agree?</p>' }));
      await providerCard('spotify').getByRole('textbox', { name: 'Label (optional)' }).fill('  Work  ');
      await providerCard('spotify').getByRole('button', { name: 'Connect Spotify' }).click();
      await page.waitForURL('**/stub-authorize**');
      expect(fake.last('POST', '/api/auth/spotify/begin')?.body).toEqual({ account_label: 'Work' });
      // The user agrees; the engine's callback stores the account and sends the browser back (a new document).
      fake.accounts = [account({ id: 'acct-new' })];
      await page.goto(`${baseUrl}/#/connections?connected=acct-new`);
      await expect.poll(() => new URL(page.url()).hash, { timeout: 10_000 }).toBe('#/connections');
      await expect.poll(async () => normalise(await announcement().textContent()), { timeout: 10_000 }).toBe('Connected Work (Ada Lovelace) on Spotify.');
      expect(normalise(await connections().locator('[data-testid="auth-outcome"]').textContent())).toBe('Connected Work (Ada Lovelace) on Spotify.');
      expect(new URL(page.url()).hash).toBe('#/connections');
      await expect.poll(async () => (await focused(page)).text).toBe('Work Demo');

      await page.reload();
      await expect.poll(() => accountCard('acct-new').count(), { timeout: 10_000 }).toBe(1);
      expect(await connections().locator('[data-testid="auth-outcome"]').count()).toBe(0);
      expect(normalise(await announcement().textContent())).toBe('');
      await page.unroute('**/stub-authorize**');
    });

    it('redirect refused: an alert with the engine’s message and Try again, which starts the same sign-in', async () => {
      await openWith([provider(), tidal], [], '#/connections?auth_error=access_denied&message=You%20chose%20Cancel%20on%20TIDAL.&provider=tidal');
      const alert = connections().locator('[data-testid="auth-outcome"]').getByRole('alert');
      await expect.poll(() => alert.count(), { timeout: 10_000 }).toBe(1);
      expect(await shownText(alert)).toContain('The service did not grant access');
      expect(await shownText(alert)).toContain('You chose Cancel on TIDAL.');
      expect(await shownText(alert)).toContain('access_denied');
      expect(new URL(page.url()).hash).toBe('#/connections');

      fake.queue('POST /api/auth/tidal/begin', problem(409, 'provider_not_configured', 'TIDAL is not configured', 'Set OPL_TIDAL_CLIENT_ID to connect TIDAL accounts.'));
      await connections().getByRole('button', { name: 'Try again to connect TIDAL' }).click();
      await expect.poll(() => fake.count('POST', '/api/auth/tidal/begin')).toBe(1);
      const notice = providerCard('tidal').locator('[data-testid="connect-problem"]');
      await expect.poll(() => notice.count()).toBe(1);
      expect(await shownText(notice)).toContain('Set OPL_TIDAL_CLIENT_ID to connect TIDAL accounts.');
      expect(await shownText(notice)).toContain('restarts the engine');
      expect(await notice.getByRole('button', { name: 'Try again' }).count()).toBe(0);
    });

    it('device code: shows the code and link, polls until approved, then shows the account', async () => {
      await openWith([tidal], []);
      fake.queue('POST /api/auth/tidal/begin', {
        status: 200,
        body: { ...challengeBase('tidal', 'OAUTH_DEVICE'), shape: 'device_code', user_code: 'WDJB-MJHT', verification_url: 'https://link.tidal.example/device', poll_interval_s: 1 },
      });
      fake.queue('POST /api/auth/tidal/complete', { status: 202, body: { status: 'pending', retry_after_s: 1 } }, { status: 200, body: { status: 'connected', account: account({ id: 'acct-t', provider: 'tidal', provider_display_name: 'TIDAL', account_label: 'Living room', auth_kind: 'OAUTH_DEVICE' }) } });
      await providerCard('tidal').getByRole('radio', { name: 'Enter a code on another device' }).check();
      await providerCard('tidal').getByRole('textbox', { name: 'Label (optional)' }).fill('Living room');
      await providerCard('tidal').getByRole('button', { name: 'Connect TIDAL' }).click();

      await expect.poll(() => challenge().getAttribute('data-shape'), { timeout: 10_000 }).toBe('device_code');
      expect(fake.last('POST', '/api/auth/tidal/begin')?.body).toEqual({ account_label: 'Living room', auth_kind: 'OAUTH_DEVICE' });
      expect(normalise(await challenge().locator('[data-testid="user-code"]').textContent())).toBe('WDJB-MJHT');
      expect(await challenge().getByRole('link', { name: 'https://link.tidal.example/device' }).getAttribute('href')).toBe('https://link.tidal.example/device');
      expect(await challenge().getByRole('button', { name: 'Copy code' }).isVisible()).toBe(true);
      expect(normalise(await challenge().locator('[data-testid="polling"]').textContent())).toBe('Waiting for you to approve on TIDAL…');
      expect(await focused(page)).toMatchObject({ tag: 'h4' });

      await expect.poll(() => accountCard('acct-t').count(), { timeout: 15_000 }).toBe(1);
      expect(fake.count('POST', '/api/auth/tidal/complete')).toBe(2);
      expect(fake.last('POST', '/api/auth/tidal/complete')?.body).toEqual({ state: 'state-tidal-OAUTH_DEVICE' });
      expect(await challenge().count()).toBe(0);
      expect(normalise(await announcement().textContent())).toBe('Connected Living room (Ada Lovelace) on TIDAL.');
      await expect.poll(async () => (await focused(page)).text).toBe('Living room Demo');
    });

    it('device code: Cancel stops polling; an expired attempt offers to start again', async () => {
      await openWith([tidal], []);
      const device = { ...challengeBase('tidal', 'OAUTH_DEVICE'), shape: 'device_code', user_code: 'AAAA-BBBB', verification_url: 'https://link.tidal.example/device', poll_interval_s: 1 };
      fake.queue('POST /api/auth/tidal/begin', { status: 200, body: device }, { status: 200, body: device }, { status: 200, body: { ...device, user_code: 'CCCC-DDDD' } });
      fake.queue('POST /api/auth/tidal/complete', { status: 202, body: { status: 'pending' } }, { status: 202, body: { status: 'pending' } });
      await providerCard('tidal').getByRole('radio', { name: 'Enter a code on another device' }).check();
      await providerCard('tidal').getByRole('button', { name: 'Connect TIDAL' }).click();
      await expect.poll(() => challenge().count(), { timeout: 10_000 }).toBe(1);
      await expect.poll(() => fake.count('POST', '/api/auth/tidal/complete'), { timeout: 10_000 }).toBe(1);
      await challenge().getByRole('button', { name: 'Cancel' }).click();
      expect(await challenge().count()).toBe(0);
      const polled = fake.count('POST', '/api/auth/tidal/complete');
      await page.waitForTimeout(2_500);
      expect(fake.count('POST', '/api/auth/tidal/complete')).toBe(polled);
      expect((await focused(page)).text).toBe('Connect TIDAL');

      fake.replies.delete('POST /api/auth/tidal/complete');
      fake.queue('POST /api/auth/tidal/complete', problem(410, 'auth_attempt_expired', 'The sign-in attempt expired', 'Codes are valid for 5 minutes.'));
      await providerCard('tidal').getByRole('button', { name: 'Connect TIDAL' }).click();
      const notice = challenge().locator('[data-testid="challenge-problem"]');
      await expect.poll(() => notice.count(), { timeout: 10_000 }).toBe(1);
      expect(await shownText(notice)).toContain('Codes are valid for 5 minutes.');
      expect(await challenge().locator('[data-testid="polling"]').count()).toBe(0);
      expect(await notice.getByRole('button', { name: 'Check again' }).count()).toBe(0);
      await notice.getByRole('button', { name: 'Start again' }).click();
      await expect.poll(async () => normalise(await challenge().locator('[data-testid="user-code"]').textContent()), { timeout: 10_000 }).toBe('CCCC-DDDD');
      expect(fake.count('POST', '/api/auth/tidal/begin')).toBe(3);
      await challenge().getByRole('button', { name: 'Cancel' }).click();
    });

    it('form: labelled fields, secret ones hidden with a show toggle, help under each, then connected', async () => {
      await openWith([ytm], []);
      fake.queue('POST /api/auth/ytmusic/begin', {
        status: 200,
        body: {
          ...challengeBase('ytmusic', 'HEADER_PASTE'),
          demo: false,
          instructions: 'Copy the request headers from a signed-in browser tab.',
          shape: 'form',
          form: {
            fields: [
              { name: 'cookie', label: 'Cookie header', secret: true, help: 'The whole value of the Cookie request header.' },
              { name: 'authuser', label: 'Account index', secret: false, help: null },
            ],
            submit_label: 'Connect with these headers',
          },
        },
      });
      await providerCard('ytmusic').getByRole('radio', { name: /Paste request headers/ }).check();
      await providerCard('ytmusic').getByRole('button', { name: 'Connect YouTube Music' }).click();
      await expect.poll(() => challenge().getAttribute('data-shape'), { timeout: 10_000 }).toBe('form');
      expect(normalise(await challenge().textContent())).toContain('Copy the request headers from a signed-in browser tab.');

      const cookie = challenge().getByLabel('Cookie header', { exact: true });
      expect(await cookie.getAttribute('type')).toBe('password');
      await expect.poll(async () => (await focused(page)).tag).toBe('input');
      const helpId = await cookie.getAttribute('aria-describedby');
      expect(normalise(await challenge().locator(`[id="${helpId}"]`).textContent())).toBe('The whole value of the Cookie request header.');
      const toggle = challenge().getByRole('button', { name: 'Show Cookie header' });
      await toggle.click();
      expect(await cookie.getAttribute('type')).toBe('text');
      expect(await challenge().getByRole('button', { name: 'Hide Cookie header' }).getAttribute('aria-pressed')).toBe('true');

      await challenge().getByRole('button', { name: 'Connect with these headers' }).click();
      expect(await cookie.getAttribute('aria-invalid')).toBe('true');
      expect(normalise(await challenge().locator('.field-error').first().textContent())).toBe('Enter cookie header.');
      expect(fake.count('POST', '/api/auth/ytmusic/complete')).toBe(0);

      fake.queue('POST /api/auth/ytmusic/complete', { status: 200, body: { status: 'connected', account: account({ id: 'acct-y', provider: 'ytmusic', provider_display_name: 'YouTube Music', account_label: null, demo: false, auth_kind: 'HEADER_PASTE', expires_at: null }) } });
      await cookie.fill('SID=abc; HSID=def');
      await challenge().getByLabel('Account index').fill(' 0 ');
      await challenge().getByRole('button', { name: 'Connect with these headers' }).press('Enter');
      await expect.poll(() => accountCard('acct-y').count(), { timeout: 10_000 }).toBe(1);
      expect(fake.last('POST', '/api/auth/ytmusic/complete')?.body).toEqual({ state: 'state-ytmusic-HEADER_PASTE', values: { cookie: 'SID=abc; HSID=def', authuser: '0' } });
      expect(normalise(await accountCard('acct-y').locator('[data-field="expires"]').textContent())).toBe('Does not expire');
    });

    it('hosted mode: pasting headers is refused with the reason and another way forward', async () => {
      await openWith([ytm], []);
      fake.queue(
        'POST /api/auth/ytmusic/begin',
        problem(403, 'header_paste_disabled', 'Header paste is disabled', 'This hosted engine does not accept pasted browser headers.'),
      );
      await providerCard('ytmusic').getByRole('radio', { name: /Paste request headers/ }).check();
      await providerCard('ytmusic').getByRole('button', { name: 'Connect YouTube Music' }).click();
      const notice = providerCard('ytmusic').locator('[data-testid="connect-problem"]');
      await expect.poll(() => notice.count(), { timeout: 10_000 }).toBe(1);
      const text = await shownText(notice);
      expect(text).toContain('This hosted engine does not accept pasted browser headers.');
      expect(text).toContain('Choose another sign-in method');
      expect(await shownText(providerCard('ytmusic').getByRole('alert'))).toContain('header_paste_disabled');
      expect(normalise(await announcement().textContent())).toBe('Not connected: Header paste is disabled.');
    });

    it('shows each account’s facts, and an expired one with a prominent Reconnect that starts a reconnect', async () => {
      const expired = account({ id: 'acct-x', account_label: null, display_name: 'Grace', status: 'reauth_required', expires_at: new Date(Date.now() - 3 * 3600_000).toISOString() });
      await openWith([provider()], [account(), expired]);
      const ok = accountCard('acct-1');
      expect(normalise(await ok.locator('[data-field="label"]').textContent())).toBe('Work');
      expect(normalise(await ok.locator('[data-field="display-name"]').textContent())).toBe('Ada Lovelace');
      expect(normalise(await ok.locator('[data-field="provider-user-id"]').textContent())).toBe('ada-l');
      expect(normalise(await ok.locator('[data-field="status"]').textContent())).toBe('Connected');
      expect((await ok.locator('[data-field="scopes"] li').allTextContents()).map(normalise)).toEqual(['playlist-read-private', 'playlist-modify-private']);
      expect(normalise(await ok.locator('[data-field="scopes"] .explain').textContent())).toBe('Sign in on the service’s website');
      expect(normalise(await ok.locator('[data-field="expires"]').textContent())).toMatch(/^In 4[45] minutes/);
      expect(await ok.locator('[data-testid="reconnect-note"]').count()).toBe(0);

      const card = accountCard('acct-x');
      expect(normalise(await card.locator('[data-field="status"]').textContent())).toBe('Sign-in expired');
      expect(normalise(await card.locator('[data-field="expires"]').textContent())).toBe('Expired 3 hours ago');
      const note = card.locator('[data-testid="reconnect-note"]');
      expect(normalise(await note.textContent())).toContain('Sign-in expired.');
      const reconnect = note.getByRole('button', { name: 'Reconnect Grace' });
      expect(await reconnect.getAttribute('class')).toBe('primary');
      fake.queue('POST /api/auth/spotify/begin', {
        status: 200,
        body: { ...challengeBase('spotify', 'OAUTH_DEVICE'), shape: 'device_code', user_code: 'RECO-NNEC', verification_url: 'https://example.com/device', poll_interval_s: 30 },
      });
      await reconnect.click();
      await expect.poll(() => fake.count('POST', '/api/auth/spotify/begin'), { timeout: 10_000 }).toBe(1);
      expect(fake.last('POST', '/api/auth/spotify/begin')?.body).toEqual({ account_label: null, auth_kind: 'OAUTH_PKCE', reconnect_account_id: 'acct-x' });
      // The challenge of a reconnect shows on the account it is for.
      await expect.poll(() => card.locator('opl-connect-challenge [data-testid="challenge"]').count()).toBe(1);
      await card.locator('opl-connect-challenge').getByRole('button', { name: 'Cancel' }).click();
    });

    it('tests a connection and edits a label inline (Escape cancels)', async () => {
      await openWith([provider()], [account()]);
      const card = accountCard('acct-1');
      await card.getByRole('button', { name: 'Test connection Work' }).click();
      await expect.poll(() => card.locator('[data-testid="test-result"]').getAttribute('data-ok'), { timeout: 10_000 }).toBe('true');
      expect(normalise(await card.locator('[data-testid="test-result"]').textContent())).toMatch(/^The connection works\. Signed in as Ada Lovelace\. Checked /);
      expect(normalise(await announcement().textContent())).toBe('The connection to Work (Ada Lovelace) on Spotify works.');

      await card.getByRole('button', { name: 'Edit label of Work' }).click();
      const input = card.getByRole('textbox', { name: 'Label for Ada Lovelace' });
      await expect.poll(async () => (await focused(page)).tag).toBe('input');
      await input.fill('Changed my mind');
      await page.keyboard.press('Escape');
      expect(await input.count()).toBe(0);
      expect((await focused(page)).text).toBe('Edit label of Work');
      expect(fake.count('PATCH', '/api/auth/accounts/acct-1')).toBe(0);

      await page.keyboard.press('Enter');
      await input.fill('  Personal ');
      await page.keyboard.press('Enter');
      await expect.poll(async () => normalise(await card.locator('[data-field="label"]').textContent()), { timeout: 10_000 }).toBe('Personal');
      expect(fake.last('PATCH', '/api/auth/accounts/acct-1')?.body).toEqual({ account_label: 'Personal' });
      expect(normalise(await announcement().textContent())).toBe('Label saved: Personal.');
    });

    it('disconnects only after a confirmation naming the account', async () => {
      await openWith([provider()], [account(), account({ id: 'acct-2', account_label: 'Home', display_name: 'Ada at home' })]);
      const card = accountCard('acct-1');
      const dialog = connections().locator('[data-testid="disconnect-dialog"]');
      await card.getByRole('button', { name: 'Disconnect Work' }).click();
      await expect.poll(() => dialog.isVisible()).toBe(true);
      expect(normalise(await dialog.getByRole('heading').textContent())).toBe('Disconnect Work (Ada Lovelace) on Spotify?');
      expect((await focused(page)).text).toBe('Cancel');
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.count()).toBe(0);
      expect((await focused(page)).text).toBe('Disconnect Work');
      expect(fake.count('DELETE', '/api/auth/accounts/acct-1')).toBe(0);

      await page.keyboard.press('Enter');
      await expect.poll(() => dialog.isVisible()).toBe(true);
      await dialog.getByRole('button', { name: 'Disconnect', exact: true }).click();
      await expect.poll(() => card.count(), { timeout: 10_000 }).toBe(0);
      expect(fake.count('DELETE', '/api/auth/accounts/acct-1')).toBe(1);
      expect(await accountCard('acct-2').count()).toBe(1);
      expect(normalise(await announcement().textContent())).toBe('Disconnected Work (Ada Lovelace) on Spotify.');
      await expect.poll(async () => (await focused(page)).text).toBe('Connected accounts (1)');
    });

    it('browses an account’s playlists with Refresh and the time read, then a playlist’s tracks with unmigratable entries marked', async () => {
      await openWith([provider()], [account()]);
      fake.playlists = [
        { id: 'liked', name: 'Liked Songs', description: null, track_count: 120, owner_name: 'Ada', is_owned: true, is_followed: null, collaborative: null, snapshot_id: null, kind: 'LIKED_TRACKS', artwork_uri: null },
        { id: 'pl-1', name: 'Road Trip', description: 'Long drives', track_count: 3, owner_name: 'Ada', is_owned: true, is_followed: true, collaborative: false, snapshot_id: 's1', kind: 'PLAYLIST', artwork_uri: null },
        { id: 'pl-2', name: 'Friends’ mix', description: null, track_count: null, owner_name: 'Bo', is_owned: false, is_followed: true, collaborative: true, snapshot_id: 's2', kind: 'PLAYLIST', artwork_uri: null },
      ];
      fake.tracks = [
        { title: 'One More Time', artist: 'Daft Punk', album: 'Discovery', duration_s: 320, isrc: 'GBDUW0000053', explicit: false, media_type: 'track', is_migratable: true, unsupported_reason: null, position: 0 },
        { title: 'Episode 12: Synths', artist: 'Tape Talk', album: null, duration_s: 3725, isrc: null, explicit: true, media_type: 'episode', is_migratable: false, unsupported_reason: 'Podcast episodes cannot be added to playlists on other services.', position: 1 },
        { title: 'demo-take.mp3', artist: 'Me', album: null, duration_s: null, isrc: null, explicit: null, media_type: 'local_file', is_migratable: false, unsupported_reason: null, position: 2 },
      ];
      await accountCard('acct-1').getByRole('button', { name: 'Browse playlists of Work' }).click();
      await expect.poll(() => browser().locator('[data-testid="playlists-table"]').count(), { timeout: 10_000 }).toBe(1);
      expect(fake.last('GET', '/api/playlists')?.query.get('account_id')).toBe('acct-1');
      expect(fake.last('GET', '/api/playlists')?.query.get('refresh')).toBeNull();
      expect(normalise(await browser().getByRole('heading', { level: 2 }).textContent())).toBe('Playlists of Work (Ada Lovelace) on Spotify');
      expect(normalise(await browser().locator('[data-testid="fetched-at"]').textContent())).toMatch(/^3 playlists, as of .+ \(from the engine’s cache\)\.$/);
      const rows = browser().locator('[data-testid="playlists-table"] tbody tr');
      const cells = async (index: number) => (await rows.nth(index).locator('th, td').allTextContents()).map(normalise);
      expect(await cells(0)).toEqual(['Liked Songs', 'Liked songs', '120', 'Your library']);
      expect(await cells(1)).toEqual(['Road Trip Long drives', 'Playlist', '3', 'Yours']);
      expect(await cells(2)).toEqual(['Friends’ mix', 'Playlist', '—Unknown', 'Followed, by Bo, collaborative']);

      await browser().getByRole('button', { name: 'Refresh playlists' }).click();
      await expect.poll(() => fake.last('GET', '/api/playlists')?.query.get('refresh')).toBe('true');
      await expect.poll(async () => normalise(await browser().locator('[data-testid="fetched-at"]').textContent())).toMatch(/^3 playlists, as of [^(]+\.$/);
      expect(normalise(await announcement().textContent())).toBe('Playlists refreshed: 3 playlists.');

      await browser().getByRole('button', { name: 'Road Trip' }).click();
      const tracks = browser().locator('[data-testid="playlist-tracks"]');
      await expect.poll(() => tracks.count(), { timeout: 10_000 }).toBe(1);
      await expect.poll(async () => (await focused(page)).text).toBe('Road Trip (3 tracks)');
      expect(normalise(await tracks.locator('[data-testid="not-migratable-count"]').textContent())).toBe('2 entries cannot be migrated.');
      const trackRows = tracks.locator('[data-testid="tracks-table"] tbody tr');
      expect(await trackRows.count()).toBe(3);
      expect(await trackRows.nth(0).getAttribute('data-migratable')).toBe('true');
      expect(normalise(await trackRows.nth(0).textContent())).toBe('1 One More Time Daft Punk Discovery 5:20 GBDUW0000053');
      expect(await trackRows.nth(1).getAttribute('data-migratable')).toBe('false');
      expect(normalise(await trackRows.nth(1).locator('[data-testid="not-migratable-reason"]').textContent())).toBe(
        'Not migratable: Podcast episodes cannot be added to playlists on other services.',
      );
      expect(normalise(await trackRows.nth(1).textContent())).toContain('(explicit)');
      expect(normalise(await trackRows.nth(2).locator('[data-testid="not-migratable-reason"]').textContent())).toBe('Not migratable: Local file: other services cannot receive it');

      await browser().getByRole('button', { name: 'Close playlists' }).click();
      expect(await browser().count()).toBe(0);
      expect((await focused(page)).text).toBe('Browse playlists of Work');
    });

    it('playlists of an expired account: the problem with Reconnect; a rate limit says when to retry', async () => {
      await openWith([provider()], [account()]);
      fake.queue('GET /api/playlists', problem(409, 'provider_auth_expired', 'The sign-in for this account expired', 'Spotify no longer accepts the stored sign-in.'));
      await accountCard('acct-1').getByRole('button', { name: 'Browse playlists of Work' }).click();
      const notice = browser().locator('[data-testid="playlists-problem"]');
      await expect.poll(() => notice.count(), { timeout: 10_000 }).toBe(1);
      expect(await shownText(notice)).toContain('Spotify no longer accepts the stored sign-in.');
      expect(await shownText(notice)).toContain('Reconnect the account');
      expect(await notice.getByRole('button', { name: 'Try again' }).count()).toBe(0);
      fake.queue('POST /api/auth/spotify/begin', problem(502, 'provider_unavailable', 'Spotify is not answering', 'The accounts service timed out.'));
      await notice.getByRole('button', { name: 'Reconnect' }).click();
      await expect.poll(() => fake.last('POST', '/api/auth/spotify/begin')?.body, { timeout: 10_000 }).toEqual({ account_label: 'Work', auth_kind: 'OAUTH_PKCE', reconnect_account_id: 'acct-1' });
      const reconnectProblem = accountCard('acct-1').locator('[data-testid="connect-problem"]');
      await expect.poll(() => reconnectProblem.count()).toBe(1);
      expect(await shownText(reconnectProblem)).toContain('Try again in a moment');

      fake.queue('GET /api/playlists', problem(429, 'provider_rate_limited', 'Spotify asks to slow down', 'Too many requests to Spotify.', { retry_after_s: 30 }));
      await browser().getByRole('button', { name: 'Close playlists' }).click();
      await accountCard('acct-1').getByRole('button', { name: 'Browse playlists of Work' }).click();
      await expect.poll(() => shownText(notice), { timeout: 10_000 }).toContain('Try again in 30 seconds.');
      expect(await shownText(notice.getByRole('alert'))).toContain('provider_rate_limited');
      fake.playlists = [];
      await notice.getByRole('button', { name: 'Try again' }).click();
      await expect.poll(() => browser().locator('[data-testid="playlists-empty"]').count(), { timeout: 10_000 }).toBe(1);
    });

    it('logged nothing unexpected on the console', () => {
      expect(session.errors.filter((error) => !expectedConsoleNoise(error) && !error.includes('stub-authorize'))).toEqual([]);
    });
  });
});
