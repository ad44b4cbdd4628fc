import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { focused, openSession, tabTo, type BrowserSession } from './support/page.ts';

const baseUrl = inject('oplBaseUrl');

const normalise = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();

/** A small M3U8 file: two tracks with durations, and a third entry without a location (a warning on line 7). */
const M3U8 = [
  '#EXTM3U',
  '#PLAYLIST:Road Trip',
  '#EXTINF:215,Daft Punk - One More Time',
  'one-more-time.mp3',
  '#EXTINF:3725,Kraftwerk - Autobahn',
  'autobahn.mp3',
  '#EXTINF:200,Air - Sexy Boy',
  '',
].join('\n');

/** Answers a fetch with a non-2xx status, which Chromium reports on the console; those are expected here. */
const expectedConsoleNoise = (message: string) => /Failed to load resource: the server responded with a status of (4\d\d|5\d\d)/.test(message);

describe('Import page', () => {
  let session: BrowserSession;
  let page: Page;

  const importPage = () => page.locator('opl-import-page');
  const preview = () => importPage().locator('[data-testid="import-preview"]');
  const problem = () => importPage().getByRole('alert');
  /** The alert's own words (title, detail, code) and what the page slots into it (next steps, links, issues). */
  const problemText = async () =>
    `${normalise(await problem().textContent())} ${normalise(await importPage().locator('[data-testid="import-problem"]').textContent())}`;
  const announcement = () => importPage().locator('[data-testid="announcement"]');

  async function open(): Promise<void> {
    // Through another area first, so the page is created afresh (a hash change alone keeps the document).
    await page.goto(`${baseUrl}/#/connections`);
    await page.getByRole('heading', { level: 1, name: 'Connections', exact: true }).waitFor();
    await page.goto(`${baseUrl}/#/import`);
    await page.getByRole('heading', { level: 1, name: 'Import', exact: true }).waitFor();
  }

  beforeAll(async () => {
    session = await openSession(inject('chromiumWsEndpoint'));
    page = session.page;
  });

  afterAll(async () => {
    await session?.close();
  });

  describe('against the real engine', () => {
    let importId = '';

    it('is an available area with three ways in', async () => {
      await open();
      expect(await page.title()).toBe('Import · Open Playlist Engine');
      expect(await importPage().getByRole('button', { name: 'Choose a file…' }).isVisible()).toBe(true);
      expect(await importPage().getByRole('textbox', { name: 'Playlist text' }).isVisible()).toBe(true);
      expect(await importPage().getByRole('textbox', { name: 'Playlist link' }).isVisible()).toBe(true);
    });

    it('uploads an M3U8 file and previews its tracks and issue lines, with focus on the preview', async () => {
      const upload = page.waitForRequest((request) => request.url().endsWith('/api/imports/preview') && request.method() === 'POST');
      await importPage().locator('#file-input').setInputFiles({ name: 'Road Trip – Été.m3u8', mimeType: 'audio/x-mpegurl', buffer: Buffer.from(M3U8) });
      const request = await upload;
      expect(request.headers()['x-filename']).toBe(encodeURIComponent('Road Trip – Été.m3u8'));

      await expect.poll(() => preview().isVisible(), { timeout: 15_000 }).toBe(true);
      const heading = importPage().locator('#preview-heading');
      expect(normalise(await heading.textContent())).toBe('Preview: Road Trip – Été.m3u8');
      await expect.poll(async () => (await focused(page)).text).toBe('Preview: Road Trip – Été.m3u8');
      importId = (await preview().getAttribute('data-import-id')) ?? '';
      expect(importId).toMatch(/^[0-9a-f-]{36}$/);

      expect(normalise(await preview().locator('[data-field="format"]').textContent())).toBe('M3U8');
      expect(normalise(await preview().locator('[data-field="source"]').textContent())).toBe('Uploaded file');
      expect(normalise(await preview().locator('[data-field="counts"]').textContent())).toBe('1 playlist, 3 tracks');
      expect(await preview().locator('[data-field="expires"] time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);

      const rows = preview().locator('[data-testid="tracks-table"] tbody tr');
      expect(await rows.count()).toBe(3);
      const cells = async (index: number) => (await rows.nth(index).locator('th, td').allTextContents()).map(normalise);
      expect(await cells(0)).toEqual(['1', 'One More Time', 'Daft Punk', '', '3:35']);
      expect(await cells(1)).toEqual(['2', 'Autobahn', 'Kraftwerk', '', '1:02:05']);
      expect(normalise(await preview().getByRole('heading', { level: 3, name: /^Road Trip/ }).textContent())).toBe('Road Trip (3 tracks)');

      const warnings = preview().locator('[data-testid="issue-warnings"] li');
      expect(await warnings.count()).toBeGreaterThan(0);
      expect(normalise(await warnings.first().textContent())).toMatch(/^Line 7\b/);
      expect(await preview().getByRole('heading', { name: /^Warnings, rows kept/ }).isVisible()).toBe(true);
      expect(normalise(await announcement().textContent())).toMatch(/^Preview ready: 1 playlist, 3 tracks, 0 errors and \d+ warnings?\.$/);
    });

    it('exports the import as a real file, and offers migration only as a clearly unavailable button', async () => {
      await preview().getByRole('combobox', { name: 'Export as' }).selectOption('csv');
      const download = page.waitForEvent('download');
      const exported = page.waitForResponse((response) => response.url().endsWith('/api/exports') && response.request().method() === 'POST');
      await preview().getByRole('button', { name: 'Download export' }).click();
      const response = await exported;
      expect(response.status()).toBe(200);
      expect(response.headers()['x-open-playlist-schema-version']).toBe('1');
      const file = await download;
      expect(file.suggestedFilename()).toMatch(/\.csv$/);
      // The browser runs as a remote server: save a local copy of the download to read it.
      const { mkdtempSync, readFileSync, rmSync } = await import('node:fs');
      const directory = mkdtempSync(`${(await import('node:os')).tmpdir()}/opl-e2e-download-`);
      await file.saveAs(`${directory}/${file.suggestedFilename()}`);
      const content = readFileSync(`${directory}/${file.suggestedFilename()}`, 'utf8');
      rmSync(directory, { recursive: true, force: true });
      expect(content.startsWith('\uFEFF"schema_version","playlist_id"')).toBe(true);
      expect(content).toContain('"One More Time","Daft Punk"');
      await expect.poll(async () => normalise(await announcement().textContent())).toMatch(/^Exported .*\.csv/);

      const migrate = preview().getByRole('button', { name: 'Start a migration…' });
      expect(await migrate.getAttribute('aria-describedby')).toBe('migrate-note');
    });

    it('deletes the import by keyboard, and the engine no longer has it', async () => {
      await importPage().locator('#preview-heading').focus();
      await tabTo(page, 'Delete import', { max: 10 });
      const deletion = page.waitForResponse((response) => response.url().endsWith(`/api/imports/${importId}`) && response.request().method() === 'DELETE');
      await page.keyboard.press('Enter');
      expect((await deletion).status()).toBe(204);
      await expect.poll(() => preview().count(), { timeout: 10_000 }).toBe(0);
      expect(normalise(await announcement().textContent())).toBe('Import deleted.');
      expect((await focused(page)).text).toBe('Add a playlist');
      const after = await fetch(`${baseUrl}/api/imports/${importId}`, { headers: { accept: 'application/json' } });
      expect(after.status).toBe(404);
    });

    it('previews pasted text under the name given', async () => {
      await importPage().getByRole('textbox', { name: 'Playlist text' }).fill('Daft Punk - One More Time\nAir - Sexy Boy\n');
      await importPage().getByRole('textbox', { name: 'Playlist name (optional)' }).fill('Pasted mix');
      await importPage().getByRole('button', { name: 'Preview text' }).click();
      await expect.poll(() => preview().isVisible(), { timeout: 15_000 }).toBe(true);
      expect(normalise(await importPage().locator('#preview-heading').textContent())).toBe('Preview: Pasted mix');
      expect(normalise(await preview().locator('[data-field="source"]').textContent())).toBe('Pasted text');
      const titles = await preview().locator('[data-testid="tracks-table"] tbody th').allTextContents();
      expect(titles.map(normalise)).toEqual(['One More Time', 'Sexy Boy']);
      await expect.poll(async () => (await focused(page)).text).toBe('Preview: Pasted mix');
      const id = await preview().getAttribute('data-import-id');
      // "Start a migration…" hands the import to the Migrate wizard as its source.
      await preview().getByRole('button', { name: 'Start a migration…' }).click();
      await expect.poll(() => new URL(page.url()).hash).toBe('#/migrate');
      await expect.poll(async () => page.locator('opl-migrate-page #import-id').inputValue()).toBe(id);
      await page.goto(page.url().replace(/#.*$/, '#/import'));
      await expect.poll(() => importPage().getByRole('textbox', { name: 'Playlist text' }).isVisible()).toBe(true);
      expect((await fetch(`${baseUrl}/api/imports/${id}`, { method: 'DELETE' })).status).toBe(204);
    });

    it('shows a pasted link that names no title by its link', async () => {
      const links = ['https://tidal.com/browse/track/1234/u', 'https://www.deezer.com/track/3135556', 'Air - Sexy Boy'];
      await importPage().getByRole('textbox', { name: 'Playlist text' }).fill(links.join('\n'));
      await importPage().getByRole('textbox', { name: 'Playlist name (optional)' }).fill('Links');
      await importPage().getByRole('button', { name: 'Preview text' }).click();
      await expect.poll(() => preview().isVisible(), { timeout: 15_000 }).toBe(true);
      const titles = await preview().locator('[data-testid="tracks-table"] tbody th').allTextContents();
      expect(titles.map(normalise)).toEqual(['Only a link: tidal:track:1234', 'Only a link: https://www.deezer.com/track/3135556', 'Sexy Boy']);
      const id = await preview().getAttribute('data-import-id');
      expect((await fetch(`${baseUrl}/api/imports/${id}`, { method: 'DELETE' })).status).toBe(204);
    });

    it('uploads a file dropped on the drop zone', async () => {
      const zone = importPage().locator('[data-testid="drop-zone"]');
      const dataTransfer = await page.evaluateHandle((text) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([text], 'dropped.m3u8', { type: 'audio/x-mpegurl' }));
        return transfer;
      }, M3U8);
      await zone.dispatchEvent('dragenter', { dataTransfer });
      await zone.dispatchEvent('dragover', { dataTransfer });
      expect(await zone.getAttribute('data-over')).toBe('true');
      await zone.dispatchEvent('drop', { dataTransfer });
      expect(await zone.getAttribute('data-over')).toBe('false');
      await expect.poll(() => importPage().locator('#preview-heading').textContent(), { timeout: 15_000 }).toBe('Preview: dropped.m3u8');
      expect(await preview().locator('[data-testid="tracks-table"] tbody tr').count()).toBe(3);
      await importPage().getByRole('button', { name: 'Delete import' }).click();
      await expect.poll(() => preview().count(), { timeout: 10_000 }).toBe(0);
    });

    it('asks for text before sending an empty paste', async () => {
      await importPage().getByRole('textbox', { name: 'Playlist text' }).fill('  ');
      await importPage().getByRole('button', { name: 'Preview text' }).click();
      expect(normalise(await importPage().locator('#import-text-error').textContent())).toMatch(/^Paste at least one line/);
      expect(await importPage().locator('#import-text').getAttribute('aria-invalid')).toBe('true');
      await expect.poll(async () => (await focused(page)).tag).toBe('textarea');
    });

    it('shows why a link is refused and what to do instead', async () => {
      await importPage().getByRole('textbox', { name: 'Playlist link' }).fill('https://example.com/playlists/road-trip.json');
      const answer = page.waitForResponse((response) => response.url().endsWith('/api/imports/url-preview'));
      await importPage().getByRole('button', { name: 'Preview link' }).click();
      const response = await answer;
      expect(response.status()).toBe(422);
      const body = (await response.json()) as { reason?: string; detail?: string };
      expect(body.reason).toBeTruthy();

      await expect.poll(() => problem().count(), { timeout: 10_000 }).toBe(1);
      const text = await problemText();
      expect(text).toContain('This link cannot be imported');
      expect(text).toContain(normalise(body.detail ?? ''));
      expect(text).toContain(`Reason: ${body.reason}`);
      expect(text).toMatch(/upload the file/);
      expect(await preview().count()).toBe(0);
      expect(normalise(await announcement().textContent())).toBe('Not imported: This link cannot be imported.');
    });

    it('logged nothing unexpected on the console', () => {
      expect(session.errors.filter((error) => !expectedConsoleNoise(error))).toEqual([]);
    });
  });

  describe('refusals the test engine cannot produce on demand (page.route)', () => {
    const problemJson = (status: number, body: Record<string, unknown>) => (route: Route) =>
      route.fulfill({ status, contentType: 'application/problem+json', body: JSON.stringify({ status, ...body }) });

    beforeAll(async () => {
      await page.unrouteAll({ behavior: 'wait' });
      await open();
    });

    afterAll(async () => {
      await page.unrouteAll({ behavior: 'wait' });
    });

    it('413: says the file is too large, with the limit in MiB', async () => {
      await page.route(
        '**/api/imports/preview',
        problemJson(413, {
          type: 'https://opl.example/problems/payload_too_large',
          title: 'The request body is too large',
          code: 'payload_too_large',
          detail: 'The upload is larger than the import limit of 10 MiB.',
          max_bytes: 10 * 1024 * 1024,
        }),
      );
      await importPage().locator('#file-input').setInputFiles({ name: 'huge.m3u8', mimeType: 'audio/x-mpegurl', buffer: Buffer.from(M3U8) });
      await expect.poll(() => problem().count(), { timeout: 10_000 }).toBe(1);
      const text = await problemText();
      expect(text).toContain('The file is too large');
      expect(text).toContain('Imports accept at most 10 MiB.');
      expect(text).toContain('Split the playlist into smaller files');
      expect(text).toContain('payload_too_large');
      await page.unroute('**/api/imports/preview');
    });

    it('415: lists the readable formats; the file picker works from the keyboard', async () => {
      await page.route(
        '**/api/imports/preview',
        problemJson(415, {
          title: 'Unsupported media type',
          code: 'unsupported_media_type',
          detail: 'No format plugin reads "notes.docx".',
          readable_formats: ['csv', 'txt', 'm3u8', 'pls', 'xspf', 'json'],
        }),
      );
      // Listening before moving focus: Playwright turns on file chooser interception asynchronously.
      const chooser = page.waitForEvent('filechooser');
      await importPage().locator('#add-heading').focus();
      await tabTo(page, 'Choose a file…', { max: 5 });
      await page.keyboard.press('Enter');
      await (await chooser).setFiles({ name: 'notes.docx', mimeType: 'application/octet-stream', buffer: Buffer.from('PK\u0003\u0004') });
      await expect.poll(() => problem().count(), { timeout: 10_000 }).toBe(1);
      const text = await problemText();
      expect(text).toContain('This file cannot be read');
      expect(text).toContain('This engine reads CSV, TXT, M3U8, PLS, XSPF, Open Playlist JSON.');
      expect(text).toContain('Save or export the playlist in one of these formats');
      await page.unroute('**/api/imports/preview');
    });

    it('422 with a connect action: links to Connections naming the provider', async () => {
      await page.route(
        '**/api/imports/url-preview',
        problemJson(422, {
          title: 'The request cannot be processed',
          code: 'unprocessable_content',
          detail: 'This is a Spotify playlist link. Connect a Spotify account, then import the playlist from it.',
          action: { type: 'connect_source_account', provider: 'spotify', display_name: 'Spotify' },
        }),
      );
      await importPage().getByRole('textbox', { name: 'Playlist link' }).fill('https://open.spotify.com/playlist/37i9dQZF1DXcBWIGoYBM5M');
      await importPage().getByRole('textbox', { name: 'Playlist link' }).press('Enter');
      await expect.poll(() => problem().count(), { timeout: 10_000 }).toBe(1);
      expect(await problemText()).toContain('Connect a Spotify account first');
      const link = importPage().locator('[data-testid="import-problem"]').getByRole('link', { name: 'Connect a Spotify account' });
      expect(await link.getAttribute('href')).toBe('#/connections');
      await link.focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Connections');
      await page.unroute('**/api/imports/url-preview');
    });

    it('409 with a reconnect action: links to Connections to reconnect that account', async () => {
      await open();
      await page.route(
        '**/api/imports/url-preview',
        problemJson(409, {
          title: 'The provider account needs reconnecting',
          code: 'provider_auth_expired',
          detail: 'The Spotify connection "Mine" needs to be renewed before it can read this playlist.',
          action: { type: 'reconnect_account', provider: 'spotify', display_name: 'Spotify', account_id: '0b8c3f7e-1111-4222-8333-444455556666' },
        }),
      );
      await importPage().getByRole('textbox', { name: 'Playlist link' }).fill('https://open.spotify.com/playlist/37i9dQZF1DXcBWIGoYBM5M');
      await importPage().getByRole('button', { name: 'Preview link' }).click();
      await expect.poll(() => problem().count(), { timeout: 10_000 }).toBe(1);
      const text = await problemText();
      expect(text).toContain('Reconnect your Spotify account');
      expect(text).toContain('then paste the link here again');
      const link = importPage().locator('[data-testid="import-problem"]').getByRole('link', { name: 'Reconnect the Spotify account' });
      expect(await link.getAttribute('href')).toBe('#/connections');
      await page.unroute('**/api/imports/url-preview');
    });

    it('429 from the provider: says how long to wait', async () => {
      await open();
      await page.route('**/api/imports/url-preview', problemJson(429, { title: 'The provider asks to slow down', code: 'provider_rate_limited', detail: 'Spotify asks to slow down.', retry_after_s: 30 }));
      await importPage().getByRole('textbox', { name: 'Playlist link' }).fill('https://open.spotify.com/playlist/37i9dQZF1DXcBWIGoYBM5M');
      await importPage().getByRole('button', { name: 'Preview link' }).click();
      await expect.poll(() => problem().count(), { timeout: 10_000 }).toBe(1);
      expect(await problemText()).toContain('Try again in 30 seconds.');
      await page.unroute('**/api/imports/url-preview');
    });

    it('with several accounts of one provider, the link is read by the account chosen', async () => {
      const account = (id: string, name: string) => ({
        id,
        provider: 'spotify',
        provider_display_name: 'Spotify',
        plugin_id: 'opl.provider.spotify',
        display_name: name,
        provider_user_id: name.toLowerCase(),
        account_label: null,
        status: 'connected',
        auth_kind: 'OAUTH_PKCE',
        scopes: [],
        expires_at: null,
        connected_at: '2026-11-21T10:00:00.000Z',
        demo: false,
      });
      const first = '0b8c3f7e-1111-4222-8333-444455556666';
      const second = '0b8c3f7e-1111-4222-8333-777788889999';
      await page.route('**/api/auth/accounts', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ accounts: [account(first, 'Home'), account(second, 'Work')] }) }));
      await page.route('**/api/imports/url-preview', problemJson(422, { title: 'x', code: 'unprocessable_content', detail: 'None of your connected Spotify accounts can read this playlist.', action: { type: 'connect_source_account', provider: 'spotify', display_name: 'Spotify' } }));
      await open();
      const choice = importPage().getByRole('combobox', { name: 'Read provider links with' });
      await choice.waitFor({ timeout: 10_000 });
      expect((await choice.locator('option').allTextContents()).map(normalise)).toEqual(['Any connected account that can read it', 'Spotify — Home', 'Spotify — Work']);
      await choice.selectOption(second);
      await importPage().getByRole('textbox', { name: 'Playlist link' }).fill('https://open.spotify.com/playlist/37i9dQZF1DXcBWIGoYBM5M');
      const sent = page.waitForRequest((request) => request.url().endsWith('/api/imports/url-preview'));
      await importPage().getByRole('button', { name: 'Preview link' }).click();
      expect((await sent).postDataJSON()).toEqual({ url: 'https://open.spotify.com/playlist/37i9dQZF1DXcBWIGoYBM5M', account_id: second });
      await expect.poll(() => problem().count(), { timeout: 10_000 }).toBe(1);
      expect(await problemText()).toContain('Connect a Spotify account first');
      await page.unroute('**/api/imports/url-preview');
      await page.unroute('**/api/auth/accounts');
    });

    it('502: says to try again later', async () => {
      await open();
      await page.route('**/api/imports/url-preview', problemJson(502, { title: 'An upstream server failed', code: 'bad_gateway', detail: 'The remote server answered HTTP 503 instead of the playlist.' }));
      await importPage().getByRole('textbox', { name: 'Playlist link' }).fill('https://lists.example.org/road-trip.json');
      await importPage().getByRole('button', { name: 'Preview link' }).click();
      await expect.poll(() => problem().count(), { timeout: 10_000 }).toBe(1);
      const text = await problemText();
      expect(text).toContain('The remote server did not deliver the playlist');
      expect(text).toContain('Try again later.');
      await page.unroute('**/api/imports/url-preview');
    });

    it('shows that it is reading until the engine answers', async () => {
      let answer: () => void = () => undefined;
      const answered = new Promise<void>((resolve) => (answer = resolve));
      await page.route('**/api/imports/text-preview', async (route) => {
        await answered;
        await route.continue();
      });
      await importPage().getByRole('textbox', { name: 'Playlist text' }).fill('Air - Sexy Boy');
      await importPage().getByRole('button', { name: 'Preview text' }).click();
      const loading = importPage().getByRole('status').filter({ hasText: 'Reading the pasted text…' });
      await expect.poll(() => loading.first().isVisible(), { timeout: 10_000 }).toBe(true);
      expect(await importPage().getByRole('button', { name: 'Preview text' }).getAttribute('aria-disabled')).toBe('true');
      answer();
      await expect.poll(() => preview().isVisible(), { timeout: 15_000 }).toBe(true);
      expect(await importPage().getByRole('button', { name: 'Preview text' }).getAttribute('aria-disabled')).toBe('false');
      await importPage().getByRole('button', { name: 'Delete import' }).click();
      await expect.poll(() => preview().count(), { timeout: 10_000 }).toBe(0);
      await page.unroute('**/api/imports/text-preview');
    });
  });
});
