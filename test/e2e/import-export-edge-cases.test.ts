import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { focused, openSession, type BrowserSession } from './support/page.ts';
import { account, bundle, expectedConsoleNoise, HEBREW, LONG_M3U8, LONG_NAME, normalise, problemJson } from './support/edge-case-fixtures.ts';

/**
 * The Import and Export pages as a demanding user meets them, in real Chromium against the demo
 * engine: long and right-to-left names at phone and desktop width, an import of hundreds of
 * playlists, an empty file, several files dropped at once, refusals that leave no stale notice
 * behind, the Import page's own export (formats the engine cannot write, an import that is gone),
 * and the Export page when the accounts cannot be read or one needs reconnecting.
 */

const baseUrl = inject('oplBaseUrl');

describe('Import and Export pages, edge cases', () => {
  let session: BrowserSession;
  let page: Page;

  const importPage = () => page.locator('opl-import-page');
  const preview = () => importPage().locator('[data-testid="import-preview"]');
  const importProblems = () => importPage().locator('[data-testid="import-problem"]');
  const importAnnouncement = () => importPage().locator('[data-testid="announcement"]');
  const exportPage = () => page.locator('opl-export-page');
  const picker = () => exportPage().locator('opl-source-picker');

  /** How far the document is wider than the window (0: no sideways scrolling). */
  const sidewaysOverflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

  async function openArea(area: string, heading: string): Promise<void> {
    // Through another area first, so the page is created afresh (a hash change alone keeps the document).
    await page.goto(`${baseUrl}/#/settings`);
    await page.getByRole('heading', { level: 1, name: 'Settings', exact: true }).waitFor();
    await page.goto(`${baseUrl}/#/${area}`);
    await page.getByRole('heading', { level: 1, name: heading, exact: true }).waitFor();
  }

  async function upload(name: string, content: string | Buffer, mimeType = 'application/octet-stream'): Promise<void> {
    await importPage().locator('#file-input').setInputFiles({ name, mimeType, buffer: Buffer.isBuffer(content) ? content : Buffer.from(content) });
  }

  async function deleteImport(id: string | null): Promise<void> {
    if (id) await fetch(`${baseUrl}/api/imports/${id}`, { method: 'DELETE' });
  }

  beforeAll(async () => {
    session = await openSession(inject('chromiumWsEndpoint'));
    page = session.page;
  });

  afterAll(async () => {
    await session?.close();
  });

  describe('Import page', () => {
    for (const width of [360, 1280]) {
      it(`keeps a very long playlist name and right-to-left titles inside the page at ${width} px`, async () => {
        await page.setViewportSize({ width, height: 800 });
        await openArea('import', 'Import');
        await upload(`${'Longfilename'.repeat(12)}.m3u8`, LONG_M3U8, 'audio/x-mpegurl');
        await preview().waitFor({ timeout: 15_000 });
        expect(await sidewaysOverflow()).toBeLessThanOrEqual(0);
        // User text is isolated, so a right-to-left name keeps its punctuation on its own side.
        const heading = preview().locator('[data-testid="preview-playlist"] h3').first();
        expect(await heading.locator('bdi').textContent()).toBe(LONG_NAME);
        const hebrew = preview().locator('[data-testid="tracks-table"] tbody tr').nth(1).locator('th');
        expect(await hebrew.getAttribute('dir')).toBe('auto');
        expect(normalise(await hebrew.textContent())).toBe(HEBREW);
        await deleteImport(await preview().getAttribute('data-import-id'));

        // With several playlists, the share block offers them by name in a list box.
        await upload('two.json', bundle(2, 1, (index) => (index === 0 ? LONG_NAME : 'Second')), 'application/json');
        await expect.poll(async () => normalise(await preview().locator('[data-field="counts"]').textContent()), { timeout: 15_000 }).toBe('2 playlists, 2 tracks');
        expect(await preview().getByRole('combobox', { name: 'Playlist' }).count()).toBe(1);
        expect(await sidewaysOverflow()).toBeLessThanOrEqual(0);
        await deleteImport(await preview().getAttribute('data-import-id'));
      });
    }

    it('shows the first playlists of a large import and the rest on request, without building every table at once', async () => {
      await page.setViewportSize({ width: 1280, height: 800 });
      await openArea('import', 'Import');
      await upload('many.json', bundle(300, 25), 'application/json');
      await preview().waitFor({ timeout: 30_000 });
      expect(normalise(await preview().locator('[data-field="counts"]').textContent())).toBe('300 playlists, 7,500 tracks');
      const playlists = preview().locator('[data-testid="preview-playlist"]');
      expect(await playlists.count()).toBe(20);
      expect(normalise(await preview().locator('[data-testid="more-playlists"]').textContent())).toContain('Showing 20 of 300 playlists.');
      const more = preview().getByRole('button', { name: 'Show 20 more playlists' });
      await more.click();
      await expect.poll(() => playlists.count()).toBe(40);
      // Focus lands on the first playlist that was added, so the keyboard carries on from there.
      await expect.poll(async () => (await focused(page)).text).toBe('Playlist 21 (25 tracks)');
      await deleteImport(await preview().getAttribute('data-import-id'));
    });

    it('says an empty file is empty, without sending it', async () => {
      await openArea('import', 'Import');
      let sent = 0;
      const count = () => (sent += 1);
      page.on('request', (request) => {
        if (request.url().endsWith('/api/imports/preview')) count();
      });
      await upload('empty.csv', Buffer.alloc(0), 'text/csv');
      await expect.poll(() => importProblems().count()).toBe(1);
      const text = normalise(await importProblems().textContent());
      const title = normalise(await importProblems().locator('div[role="alert"] .title').textContent());
      expect(title).toBe('“empty.csv” is empty');
      expect(text).toContain('Choose the playlist file itself');
      expect(sent).toBe(0);
      expect(normalise(await importAnnouncement().textContent())).toBe('Not imported: “empty.csv” is empty.');
    });

    it('refuses several dropped files at once, naming how many, instead of silently reading one', async () => {
      await openArea('import', 'Import');
      const zone = importPage().locator('[data-testid="drop-zone"]');
      const dataTransfer = await page.evaluateHandle(() => {
        const transfer = new DataTransfer();
        transfer.items.add(new File(['Air - Sexy Boy\n'], 'one.txt', { type: 'text/plain' }));
        transfer.items.add(new File(['Daft Punk - Da Funk\n'], 'two.txt', { type: 'text/plain' }));
        return transfer;
      });
      await zone.dispatchEvent('drop', { dataTransfer });
      await expect.poll(() => importProblems().count()).toBe(1);
      expect(normalise(await importProblems().locator('div[role="alert"] .title').textContent())).toBe('Drop one file at a time');
      expect(normalise(await importProblems().locator('div[role="alert"] .detail').textContent())).toBe('2 files were dropped; a preview reads one file.');
      expect(normalise(await importProblems().textContent())).toContain('Drop or choose the files one by one');
      expect(await preview().count()).toBe(0);
    });

    it('drops the notice of an earlier refusal when the form itself is incomplete', async () => {
      await openArea('import', 'Import');
      await page.route('**/api/imports/text-preview', problemJson(413, { title: 'The request body is too large', code: 'payload_too_large', detail: 'Too large.', max_bytes: 1024 }));
      try {
        await importPage().getByRole('textbox', { name: 'Playlist text' }).fill('Air - Sexy Boy');
        await importPage().getByRole('button', { name: 'Preview text' }).click();
        await expect.poll(() => importProblems().count()).toBe(1);
        await importPage().getByRole('textbox', { name: 'Playlist text' }).fill('');
        await importPage().getByRole('button', { name: 'Preview text' }).click();
        expect(normalise(await importPage().locator('#import-text-error').textContent())).toMatch(/^Paste at least one line/);
        expect(await importProblems().count()).toBe(0);

        await page.route('**/api/imports/url-preview', problemJson(422, { title: 'x', code: 'unprocessable_content', detail: 'Not allowed.', reason: 'host_not_allowed' }));
        await importPage().getByRole('textbox', { name: 'Playlist link' }).fill('https://lists.example.org/a.json');
        await importPage().getByRole('button', { name: 'Preview link' }).click();
        await expect.poll(() => importProblems().count()).toBe(1);
        await importPage().getByRole('textbox', { name: 'Playlist link' }).fill('not a link');
        await importPage().getByRole('button', { name: 'Preview link' }).click();
        expect(normalise(await importPage().locator('#import-url-error').textContent())).toBe('Enter a full link, starting with https://.');
        expect(await importProblems().count()).toBe(0);
      } finally {
        await page.unroute('**/api/imports/text-preview');
        await page.unroute('**/api/imports/url-preview');
      }
    });

    it('says where the problems are when nothing could be read', async () => {
      await openArea('import', 'Import');
      await upload('binary.csv', Buffer.from(Array.from({ length: 4096 }, (_, index) => (index * 37) % 256)), 'text/csv');
      await expect.poll(() => importProblems().count(), { timeout: 15_000 }).toBe(1);
      const text = normalise(await importProblems().textContent());
      expect(text).toContain('Errors, rows skipped');
      // The issues are listed before the next step, which points up at them.
      expect(text).not.toContain('listed below');
    });

    it('its own export offers only the formats the engine can write now, and explains a gone import in words', async () => {
      await openArea('import', 'Import');
      await page.route('**/api/exports/formats', (route) =>
        route.fulfill({
          status: 200,
          contentType: 'application/json',
          body: JSON.stringify({ formats: ['csv', 'txt', 'm3u8', 'xspf', 'json'].map((format) => ({ format, available: format !== 'csv' })), max_playlists: 100 }),
        }),
      );
      try {
        await openArea('import', 'Import');
        await importPage().getByRole('textbox', { name: 'Playlist text' }).fill('Air - Sexy Boy\nDaft Punk - Da Funk');
        await importPage().getByRole('button', { name: 'Preview text' }).click();
        await preview().waitFor({ timeout: 15_000 });
        const select = preview().getByRole('combobox', { name: 'Export as' });
        const csv = select.locator('option[value="csv"]');
        await expect.poll(() => csv.isDisabled()).toBe(true);
        expect(normalise(await csv.textContent())).toContain('not available now');
        expect(await select.inputValue()).toBe('txt');

        // The import goes away (deleted elsewhere, or expired) while it is still shown.
        const id = await preview().getAttribute('data-import-id');
        expect((await fetch(`${baseUrl}/api/imports/${id}`, { method: 'DELETE' })).status).toBe(204);
        await preview().getByRole('button', { name: 'Download export' }).click();
        const notice = preview().locator('[data-testid="export-failure"]');
        await notice.waitFor({ timeout: 15_000 });
        const text = normalise(await notice.textContent());
        expect(text).toContain('The import was deleted or has expired. Import the file, text or link again above, then export it.');
        expect(normalise(await importAnnouncement().textContent())).toBe('Not exported: The source was not found.');
        // On the Import page itself, importing again is done right here: no link back to it.
        expect(await notice.getByRole('link', { name: 'Go to Import' }).count()).toBe(0);
      } finally {
        await page.unroute('**/api/exports/formats');
      }
    });

    it('its own export shows what the file holds and every warning in words, a ZIP’s from its manifest', async () => {
      await openArea('import', 'Import');
      // Two playlists: one whose songs have no link a player can open, one empty.
      const lists = JSON.parse(bundle(2, 3)) as { playlists: { tracks: unknown[] }[] };
      lists.playlists[1]!.tracks = [];
      await upload('Two lists.json', JSON.stringify(lists), 'application/json');
      await preview().waitFor({ timeout: 15_000 });
      const id = await preview().getAttribute('data-import-id');
      try {
        await preview().getByRole('combobox', { name: 'Export as' }).selectOption('m3u8');
        const [response] = await Promise.all([
          page.waitForResponse((answer) => answer.url().endsWith('/api/exports') && answer.request().method() === 'POST', { timeout: 60_000 }),
          page.waitForEvent('download', { timeout: 60_000 }),
          preview().getByRole('button', { name: 'Download export' }).click(),
        ]);
        expect(response.headers()['content-type']).toMatch(/^application\/zip/);
        const count = Number(response.headers()['x-open-playlist-warning-count']);
        expect(count).toBe(2);
        const result = preview().locator('opl-export-result [data-testid="export-result"]');
        await result.waitFor({ timeout: 15_000 });
        expect(await result.getAttribute('data-archive')).toBe('true');
        expect(await result.locator('[data-testid="manifest-entries"] tbody tr').count()).toBe(2);
        expect(await result.locator('[data-testid="export-warnings"] li').count()).toBe(count);
        expect(normalise(await result.locator('[data-testid="export-warnings"] h4').textContent())).toBe('2 warnings');
        expect(normalise(await result.locator('li[data-code="missing_source_uri"]').textContent())).toContain('Some tracks have no link a player can open');
        expect(normalise(await result.locator('li[data-code="empty_playlist"]').textContent())).toContain('has no tracks');
        // Never a raw code where words are expected.
        expect(normalise(await result.textContent())).not.toMatch(/missing_source_uri|empty_playlist/);
        expect(normalise(await importAnnouncement().textContent())).toMatch(/^Exported .*\.zip with 2 warnings\.$/);
      } finally {
        await deleteImport(id);
      }
    });
  });

  describe('Export page', () => {
    it('lists imports with correct counts and keeps a long import name inside the page at 360 px', async () => {
      await page.setViewportSize({ width: 360, height: 800 });
      const created = await fetch(`${baseUrl}/api/imports/text-preview`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'Air - Sexy Boy', name: LONG_NAME.slice(0, 250) }),
      });
      const single = (await created.json()) as { id: string };
      const many = (await (
        await fetch(`${baseUrl}/api/imports/preview`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-filename': 'ten-thousand.json' }, body: bundle(1, 10_000) })
      ).json()) as { id: string };
      try {
        await openArea('export', 'Export');
        await exportPage().getByRole('radio', { name: 'An imported file or link' }).check();
        const list = picker().locator('[data-testid="import-sources"]');
        await list.waitFor({ timeout: 15_000 });
        expect(normalise(await list.locator('label').filter({ hasText: 'Verylong' }).textContent())).toContain('1 playlist, 1 track ·');
        expect(normalise(await list.locator('label').filter({ hasText: 'ten-thousand.json' }).textContent())).toContain('1 playlist, 10,000 tracks ·');
        expect(await sidewaysOverflow()).toBeLessThanOrEqual(0);
      } finally {
        await deleteImport(single.id);
        await deleteImport(many.id);
        await page.setViewportSize({ width: 1280, height: 800 });
      }
    });

    it('keeps a long playlist name inside the playlist choice at 360 px, and lists 10,000 tracks a page at a time', async () => {
      await page.setViewportSize({ width: 360, height: 800 });
      const created = (await (
        await fetch(`${baseUrl}/api/imports/preview`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-filename': 'long.json' }, body: bundle(1, 10_000, () => LONG_NAME) })
      ).json()) as { id: string };
      try {
        await openArea('export', 'Export');
        await exportPage().getByRole('radio', { name: 'An imported file or link' }).check();
        await picker().getByRole('textbox', { name: 'Import id' }).fill(created.id);
        await picker().getByRole('button', { name: 'Use this import' }).click();
        const collection = exportPage().locator('[data-testid="collection"]').first();
        await collection.waitFor({ timeout: 15_000 });
        expect(normalise(await collection.textContent())).toContain('10,000 tracks');
        expect(await sidewaysOverflow()).toBeLessThanOrEqual(0);

        await collection.getByRole('button', { name: /Choose tracks/ }).click();
        const tracks = collection.locator('[data-testid="track-picker"]');
        await tracks.waitFor();
        expect(await tracks.getByRole('checkbox').count()).toBe(200);
        expect(normalise(await tracks.locator('[data-testid="tracks-shown"]').textContent())).toBe('Showing 200 tracks of 10,000.');
        await tracks.getByRole('button', { name: 'Show 200 more tracks' }).click();
        expect(await tracks.getByRole('checkbox').count()).toBe(400);
        // Reading goes on where the new tracks begin.
        expect(await page.evaluate(() => {
          let active: Element | null = document.activeElement;
          while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
          return active instanceof HTMLInputElement ? active.closest('li')?.textContent?.trim() ?? null : null;
        })).toMatch(/^Song 201\b/);
        expect(await sidewaysOverflow()).toBeLessThanOrEqual(0);
      } finally {
        await deleteImport(created.id);
        await page.setViewportSize({ width: 1280, height: 800 });
      }
    });

    it('finds tracks of 5,000-track playlists by words, ticks what matches at once, and keeps the choice across playlists and formats', async () => {
      const created = (await (
        await fetch(`${baseUrl}/api/imports/preview`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-filename': 'two-long.json' }, body: bundle(2, 5_000) })
      ).json()) as { id: string };
      try {
        await openArea('export', 'Export');
        await exportPage().getByRole('radio', { name: 'An imported file or link' }).check();
        await picker().getByRole('textbox', { name: 'Import id' }).fill(created.id);
        await picker().getByRole('button', { name: 'Use this import' }).click();
        const first = exportPage().locator('[data-testid="collection"]').filter({ hasText: 'Playlist 1' });
        const second = exportPage().locator('[data-testid="collection"]').filter({ hasText: 'Playlist 2' });
        await first.waitFor({ timeout: 15_000 });

        await first.getByRole('button', { name: /Choose tracks/ }).click();
        const tracks = first.locator('[data-testid="track-picker"]');
        await tracks.getByRole('searchbox', { name: 'Find tracks' }).fill('song 4242');
        await expect.poll(() => tracks.getByRole('checkbox').count()).toBe(1);
        expect(normalise(await tracks.locator('[data-testid="track-matches"]').textContent())).toBe('1 track of 5,000 match. 0 tracks chosen.');
        await tracks.getByRole('checkbox', { name: /^Song 4242 — Band 1$/ }).check();
        // Every song with 49 in its title (199 of them): ticked at once, not one by one.
        await tracks.getByRole('searchbox', { name: 'Find tracks' }).fill('song 49');
        await tracks.getByRole('button', { name: 'Tick all 199 matches', exact: true }).click();
        expect(normalise(await tracks.locator('[data-testid="track-matches"]').textContent())).toBe('199 tracks of 5,000 match. 200 tracks chosen.');
        expect(normalise(await first.textContent())).toContain('200 chosen');

        // Another playlist: all of it but one track.
        await second.getByRole('button', { name: /Choose tracks/ }).click();
        const others = second.locator('[data-testid="track-picker"]');
        await others.getByRole('button', { name: 'Tick all', exact: true }).click();
        await others.getByRole('checkbox', { name: /^Song 2 — Band 2$/ }).uncheck();
        expect(normalise(await others.locator('[data-testid="track-matches"]').textContent())).toBe('4,999 tracks chosen.');
        expect(await tracks.count()).toBe(0);

        // Formats come and go; the choice stays, and reopening the first playlist shows it unfiltered.
        await exportPage().getByRole('radio', { name: /^Open Playlist JSON/ }).check();
        await exportPage().getByRole('radio', { name: /^CSV/ }).check();
        await first.getByRole('button', { name: /Choose tracks/ }).click();
        expect(await tracks.getByRole('searchbox', { name: 'Find tracks' }).inputValue()).toBe('');
        expect(normalise(await tracks.locator('[data-testid="track-matches"]').textContent())).toBe('200 tracks chosen.');
        expect(normalise(await exportPage().locator('[data-testid="export-summary"]').textContent())).toBe('2 playlists as one ZIP archive of CSV files with a manifest.json.');

        const [request] = await Promise.all([
          page.waitForRequest((sent) => sent.url().endsWith('/api/exports') && sent.method() === 'POST'),
          page.waitForEvent('download', { timeout: 60_000 }),
          exportPage().getByRole('button', { name: 'Download', exact: true }).click(),
        ]);
        const selection = (request.postDataJSON() as { selection: { playlist_ids: string[]; tracks: Record<string, string[]> } }).selection;
        const [one, two] = selection.playlist_ids;
        expect(selection.tracks[one!]).toHaveLength(200);
        expect(selection.tracks[one!]).toContain('pos:4241');
        expect(selection.tracks[two!]).toHaveLength(4_999);
        expect(selection.tracks[two!]).not.toContain('pos:1');
        const result = exportPage().locator('opl-export-result [data-testid="export-result"]');
        await result.waitFor({ timeout: 30_000 });
        expect(await result.locator('li[data-code="partial_selection"]').count()).toBe(2);
      } finally {
        await deleteImport(created.id);
      }
    });

    it('asks for an import id when “Use this import” is pressed with none', async () => {
      await openArea('export', 'Export');
      await exportPage().getByRole('radio', { name: 'An imported file or link' }).check();
      await picker().getByRole('button', { name: 'Use this import' }).click();
      const error = picker().locator('#import-id-error');
      await error.waitFor();
      expect(normalise(await error.textContent())).toMatch(/^Enter the id of an import/);
      expect(await picker().getByRole('textbox', { name: 'Import id' }).getAttribute('aria-invalid')).toBe('true');
      expect((await focused(page)).tag).toBe('input');
    });

    it('still exports a handed-over import when the accounts cannot be read', async () => {
      await page.route('**/api/auth/accounts', problemJson(500, { title: 'Internal error', code: 'internal_error', detail: 'The engine ran into a problem.' }));
      const created = (await (
        await fetch(`${baseUrl}/api/imports/text-preview`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'Air - Sexy Boy', name: 'Handed over' }) })
      ).json()) as { id: string };
      try {
        await openArea('import', 'Import');
        await page.evaluate((id) => sessionStorage.setItem('opl.export.import-id', id), created.id);
        await page.goto(`${baseUrl}/#/export`);
        await page.getByRole('heading', { level: 1, name: 'Export', exact: true }).waitFor();
        const notice = exportPage().locator('[data-testid="accounts-problem"]');
        await notice.waitFor({ timeout: 15_000 });
        expect(normalise(await notice.textContent())).toContain('an import can still be exported');
        expect(await exportPage().getByRole('radio', { name: 'An imported file or link' }).isChecked()).toBe(true);
        await exportPage().locator('opl-selection-step [data-testid="collection"]').filter({ hasText: 'Handed over' }).waitFor({ timeout: 15_000 });
      } finally {
        await page.unroute('**/api/auth/accounts');
        await deleteImport(created.id);
      }
    });

    it('names an account that needs reconnecting instead of leaving it out silently', async () => {
      await page.route('**/api/auth/accounts', (route) =>
        route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ accounts: [account('0b8c3f7e-1111-4222-8333-444455556666', 'Expired Listener', 'reauth_required')] }) }),
      );
      try {
        await openArea('export', 'Export');
        const note = exportPage().locator('[data-testid="reconnect-accounts"]');
        await note.waitFor({ timeout: 15_000 });
        expect(normalise(await note.textContent())).toContain('Expired Listener on Spotify');
        expect(await note.getByRole('link', { name: /Connections/ }).getAttribute('href')).toBe('#/connections');
        expect(await exportPage().getByRole('radio', { name: /Expired Listener/ }).count()).toBe(0);
      } finally {
        await page.unroute('**/api/auth/accounts');
      }
    });

    it('still saves a file that arrives after the page was left, and lets go of it afterwards', async () => {
      // Records the object URLs the page makes for downloads and the ones it gives back.
      await page.addInitScript(() => {
        const record = window as unknown as { oplCreated: string[]; oplRevoked: string[] };
        record.oplCreated = [];
        record.oplRevoked = [];
        const create = URL.createObjectURL.bind(URL);
        const revoke = URL.revokeObjectURL.bind(URL);
        URL.createObjectURL = (object: Blob | MediaSource) => {
          const url = create(object);
          record.oplCreated.push(url);
          return url;
        };
        URL.revokeObjectURL = (url: string) => {
          record.oplRevoked.push(url);
          revoke(url);
        };
      });
      const created = (await (
        await fetch(`${baseUrl}/api/imports/text-preview`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'Air - Sexy Boy', name: 'Slow export' }) })
      ).json()) as { id: string };
      let release: () => void = () => undefined;
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/exports', async (route) => {
        await released;
        await route.continue();
      });
      try {
        // The recorder is in place from the next document on. A readiness poll in flight when the
        // page reloads is cancelled by the reload itself (net::ERR_ABORTED), not by the engine.
        const recorded = session.errors.length;
        await page.reload();
        await page.waitForLoadState('load');
        session.errors.splice(recorded, Infinity, ...session.errors.slice(recorded).filter((error) => !/^request failed: GET \S+\/readyz net::ERR_ABORTED$/.test(error)));
        await openArea('import', 'Import');
        await page.evaluate((id) => sessionStorage.setItem('opl.export.import-id', id), created.id);
        await page.goto(`${baseUrl}/#/export`);
        const playlist = exportPage().locator('opl-selection-step [data-testid="collection"]').filter({ hasText: 'Slow export' });
        await playlist.waitFor({ timeout: 15_000 });
        await playlist.getByRole('checkbox').first().check();
        const sent = page.waitForRequest((request) => request.url().endsWith('/api/exports') && request.method() === 'POST');
        await exportPage().getByRole('button', { name: 'Download', exact: true }).click();
        await sent;
        // The user goes elsewhere while the engine works.
        await page.goto(`${baseUrl}/#/settings`);
        await page.getByRole('heading', { level: 1, name: 'Settings', exact: true }).waitFor();
        const download = page.waitForEvent('download', { timeout: 30_000 });
        release();
        expect((await download).suggestedFilename()).toBe('Slow export.csv');
        const urls = () =>
          page.evaluate(() => {
            const record = window as unknown as { oplCreated: string[]; oplRevoked: string[] };
            return { oplCreated: record.oplCreated, oplRevoked: record.oplRevoked };
          });
        await expect.poll(async () => {
          const { oplCreated, oplRevoked } = await urls();
          return oplCreated.length > 0 && oplCreated.every((url) => oplRevoked.includes(url));
        }, { timeout: 20_000 }).toBe(true);
      } finally {
        await page.unroute('**/api/exports');
        await deleteImport(created.id);
      }
    });

    it('logged nothing unexpected on the console', () => {
      expect(session.errors.filter((error) => !expectedConsoleNoise(error))).toEqual([]);
    });
  });
});
