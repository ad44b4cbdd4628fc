import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Download, Locator, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openSession, type BrowserSession } from './support/page.ts';

/**
 * The Export page in a real browser against the demo engine (`OPL_DEMO=1`: the Spotify fake, the
 * real format plugins in the sandbox): an import exported whole as CSV, two playlists of a
 * connected account as one ZIP with its manifest read back in the page, some tracks only with the
 * partial_selection warning in words, and the whole path by keyboard alone. No route is stubbed;
 * the refusals are in export-refusals.test.ts, against an engine whose Spotify fake the test steers.
 */

const baseUrl = inject('oplBaseUrl');

const normalise = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();

const M3U8 = ['#EXTM3U', '#PLAYLIST:Night Drive', '#EXTINF:215,Daft Punk - One More Time', 'one-more-time.mp3', '#EXTINF:3725,Kraftwerk - Autobahn', 'autobahn.mp3', ''].join('\n');

/** Refused requests are logged by Chromium on its own; those are expected. */
const expectedConsoleNoise = (message: string) => /Failed to load resource: the server responded with a status of (4\d\d|5\d\d)/.test(message);

interface Focus {
  readonly tag: string;
  readonly type: string | null;
  readonly label: string;
  readonly checked: boolean | null;
  readonly outlineStyle: string;
}

describe('Export page', () => {
  let session: BrowserSession;
  let page: Page;
  let directory: string;

  const exportPage = () => page.locator('opl-export-page');
  const collections = () => exportPage().locator('opl-selection-step [data-testid="collection"]');
  const collection = (name: string) => collections().filter({ hasText: name });
  const result = () => exportPage().locator('opl-export-result [data-testid="export-result"]');
  const announcement = () => exportPage().locator('[data-testid="announcement"]');

  async function open(): Promise<void> {
    // Through another area first, so the page is created afresh.
    await page.goto(`${baseUrl}/#/connections`);
    await page.getByRole('heading', { level: 1, name: 'Connections', exact: true }).waitFor();
    await page.goto(`${baseUrl}/#/export`);
    await page.getByRole('heading', { level: 1, name: 'Export', exact: true }).waitFor();
    await exportPage().getByRole('group', { name: 'Export from' }).waitFor({ timeout: 15_000 });
  }

  const spotifyRadio = (): Locator => exportPage().getByRole('group', { name: 'Export from' }).getByRole('radio', { name: / on Spotify$/ }).first();

  async function chooseSpotify(): Promise<void> {
    await spotifyRadio().check();
    await collections().first().waitFor({ timeout: 30_000 });
  }

  /** Presses Download and returns the browser's download and the engine's answer. */
  async function download(): Promise<{ file: Download; status: number; headers: Record<string, string> }> {
    const [file, response] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      page.waitForResponse((answer) => answer.url().endsWith('/api/exports') && answer.request().method() === 'POST', { timeout: 60_000 }),
      exportPage().getByRole('button', { name: 'Download', exact: true }).click(),
    ]);
    return { file, status: response.status(), headers: response.headers() };
  }

  async function saved(file: Download): Promise<Buffer> {
    const path = join(directory, `${Date.now()}-${file.suggestedFilename()}`);
    await file.saveAs(path);
    return readFileSync(path);
  }

  /** The focused element through shadow roots, with its label for form controls. */
  async function focusedControl(): Promise<Focus> {
    return page.evaluate(() => {
      let element: Element | null = document.activeElement;
      while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
      const input = element instanceof HTMLInputElement ? element : null;
      const label = input?.labels?.[0]?.textContent ?? element?.textContent ?? '';
      return {
        tag: element?.tagName.toLowerCase() ?? '',
        type: input?.type ?? null,
        label: label.replace(/\s+/g, ' ').trim(),
        checked: input ? input.checked : null,
        outlineStyle: element ? getComputedStyle(element).outlineStyle : 'none',
      };
    });
  }

  async function tabUntil(describe: string, matches: (focus: Focus) => boolean, max = 40): Promise<Focus> {
    const seen: string[] = [];
    for (let press = 0; press < max; press += 1) {
      await page.keyboard.press('Tab');
      const focus = await focusedControl();
      if (matches(focus)) return focus;
      seen.push(`${focus.tag}${focus.type ? `[${focus.type}]` : ''}:${focus.label.slice(0, 30)}`);
    }
    throw new Error(`Tab never reached ${describe}; focus went through: ${seen.join(' → ')}`);
  }

  beforeAll(async () => {
    session = await openSession(inject('chromiumWsEndpoint'));
    page = session.page;
    directory = mkdtempSync(join(tmpdir(), 'opl-e2e-export-'));
  });

  afterAll(async () => {
    await session?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('opens with its title', async () => {
    await open();
    expect(await page.title()).toBe('Export · Open Playlist Engine');
  });

  it('connects the demo Spotify account', async () => {
    await page.goto(`${baseUrl}/#/connections`);
    const card = page.locator('opl-connections-page li[data-provider="spotify"]');
    await card.waitFor({ timeout: 30_000 });
    const pkce = card.getByRole('radio', { name: 'Sign in on the service’s website' });
    if ((await pkce.count()) > 0) await pkce.check();
    await card.getByRole('button', { name: 'Connect Spotify' }).click();
    await page.locator('opl-connections-page [data-testid="auth-outcome"][data-outcome="connected"]').waitFor({ timeout: 30_000 });
  });

  it('exports a whole import as CSV: the file starts with the BOM and the v1 header', async () => {
    await page.goto(`${baseUrl}/#/import`);
    await page.getByRole('heading', { level: 1, name: 'Import', exact: true }).waitFor();
    await page.locator('opl-import-page #file-input').setInputFiles({ name: 'Night Drive.m3u8', mimeType: 'audio/x-mpegurl', buffer: Buffer.from(M3U8) });
    const preview = page.locator('opl-import-page [data-testid="import-preview"]');
    await preview.waitFor({ timeout: 15_000 });
    const importId = (await preview.getAttribute('data-import-id')) ?? '';
    expect(importId).toMatch(/^[0-9a-f-]{36}$/);

    // The Import page hands the import over; the Export page arrives with it chosen as the source.
    await preview.getByRole('button', { name: 'Choose playlists to export…' }).click();
    await page.getByRole('heading', { level: 1, name: 'Export', exact: true }).waitFor();
    expect(await exportPage().getByRole('radio', { name: 'An imported file or link' }).isChecked()).toBe(true);
    expect(await exportPage().getByRole('textbox', { name: 'Import id' }).inputValue()).toBe(importId);
    await collection('Night Drive').waitFor({ timeout: 15_000 });
    expect(normalise(await collection('Night Drive').textContent())).toContain('2 tracks');
    await collection('Night Drive').getByRole('checkbox').check();
    await exportPage().getByRole('radio', { name: /^CSV/ }).check();
    expect(normalise(await exportPage().locator('[data-testid="export-summary"]').textContent())).toBe('1 playlist as one CSV file.');

    const posts: unknown[] = [];
    const listen = (request: Request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/exports')) posts.push(request.postDataJSON());
    };
    page.on('request', listen);
    const { file, status, headers } = await download();
    page.off('request', listen);
    expect(status).toBe(200);
    expect(posts).toEqual([{ source_provider: 'import', source_account_id: importId, format: 'csv', selection: { playlist_ids: [expect.any(String)] } }]);
    expect(headers['content-disposition']).toMatch(/^attachment;/);
    expect(file.suggestedFilename()).toBe('Night Drive.csv');
    const bytes = await saved(file);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
    expect(text.split(/\r?\n/)[0]).toMatch(/^"schema_version","playlist_id","playlist_name"/);
    expect(text).toContain('"One More Time","Daft Punk"');

    await result().waitFor();
    expect(normalise(await result().locator('h3').textContent())).toBe('Downloaded Night Drive.csv');
    expect(await result().getAttribute('data-archive')).toBe('false');
    // The file's entries are local files (paths, no service links): a CSV cannot say so, the page does.
    expect(headers['x-open-playlist-warning-count']).toBe('1');
    expect(headers['x-open-playlist-warning-codes']).toBe('unsupported_items');
    expect(normalise(await result().locator('[data-testid="export-warnings"] li[data-code="unsupported_items"]').textContent())).toContain(
      'It holds podcast episodes, videos, local files or other entries streaming services cannot play; they were exported as they are.',
    );
    expect(await result().locator('[data-testid="unnamed-warnings"]').count()).toBe(0);
    expect(normalise(await announcement().textContent())).toBe('Downloaded Night Drive.csv with 1 warning.');
  });

  it('exports only the tracks picked from an import, with partial_selection in words', async () => {
    // The page still has the import of the test above as its source.
    expect(await exportPage().getByRole('radio', { name: 'An imported file or link' }).isChecked()).toBe(true);
    const nightDrive = collection('Night Drive');
    await nightDrive.getByRole('button', { name: /Choose tracks/ }).click();
    const picker = nightDrive.locator('[data-testid="track-picker"]');
    await picker.waitFor({ timeout: 15_000 });
    // Every track of the import is offered, local files too (they are exported as they are).
    expect((await picker.getByRole('checkbox').allTextContents()).length).toBe(2);
    expect(normalise(await picker.textContent())).toContain('Autobahn — Kraftwerk');
    // The playlist is still ticked from the test above: unticking one track leaves the other.
    await picker.getByRole('checkbox', { name: /One More Time/ }).uncheck();
    expect(normalise(await nightDrive.textContent())).toContain('1 chosen');
    await exportPage().getByRole('radio', { name: /^CSV/ }).check();

    const posts: Record<string, unknown>[] = [];
    const listen = (request: Request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/exports')) posts.push(request.postDataJSON() as Record<string, unknown>);
    };
    page.on('request', listen);
    const { file, status, headers } = await download();
    page.off('request', listen);
    expect(status).toBe(200);
    const selection = posts[0]?.['selection'] as { playlist_ids: string[]; tracks: Record<string, string[]> };
    expect(posts[0]).toMatchObject({ source_provider: 'import', format: 'csv' });
    expect(selection.tracks).toEqual({ [selection.playlist_ids[0]!]: ['pos:1'] });
    const rows = (await saved(file)).toString('utf8').replace(/^\uFEFF/, '').trim().split(/\r?\n/);
    expect(rows).toHaveLength(2); // the header and the one track picked
    expect(rows[1]).toContain('"Autobahn","Kraftwerk"');
    expect(headers['x-open-playlist-warning-codes']).toBe('partial_selection,unsupported_items');
    const warning = result().locator('li[data-code="partial_selection"]');
    await warning.waitFor();
    expect(normalise(await warning.textContent())).toContain('Only the tracks you picked were exported, not the whole playlist.');
  });

  it('exports two playlists of the account as one ZIP with its manifest, and says what each holds', async () => {
    await open();
    await chooseSpotify();
    await collection('Podcasts & Bootlegs').getByRole('checkbox').first().check();
    await collection('Empty For Now').getByRole('checkbox').first().check();
    await exportPage().getByRole('radio', { name: /^M3U8/ }).check();
    expect(normalise(await exportPage().locator('[data-testid="export-summary"]').textContent())).toBe('2 playlists as one ZIP archive of M3U8 files with a manifest.json.');

    const { file, status, headers } = await download();
    expect(status).toBe(200);
    expect(headers['content-type']).toMatch(/^application\/zip/);
    expect(file.suggestedFilename()).toMatch(/\.zip$/);
    const bytes = await saved(file);
    expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
    const path = join(directory, 'two.zip');
    await file.saveAs(path);
    // A real unzip tool reads the archive the browser saved.
    const listing = execFileSync('unzip', ['-Z1', path], { encoding: 'utf8' }).trim().split('\n');
    expect(listing).toContain('manifest.json');
    expect(listing.filter((name) => name.endsWith('.m3u8'))).toHaveLength(2);
    const manifest = JSON.parse(execFileSync('unzip', ['-p', path, 'manifest.json'], { encoding: 'utf8' })) as { entries: { playlist_name: string; status: string; warning_codes: string[] }[]; warnings: unknown[] };
    expect(manifest.entries.map((entry) => [entry.playlist_name, entry.status])).toEqual([
      ['Podcasts & Bootlegs', 'warning'],
      ['Empty For Now', 'warning'],
    ]);

    // The page read the same manifest: its entries, and every warning in words.
    await result().waitFor();
    expect(await result().getAttribute('data-archive')).toBe('true');
    const rows = result().locator('[data-testid="manifest-entries"] tbody tr');
    expect(await rows.count()).toBe(2);
    expect(normalise(await rows.nth(1).textContent())).toContain('Exported, no tracks');
    expect(Number(headers['x-open-playlist-warning-count'])).toBe(manifest.warnings.length);
    const warnings = result().locator('[data-testid="export-warnings"] li');
    expect(await warnings.count()).toBe(manifest.warnings.length);
    const codes = await warnings.evaluateAll((items) => items.map((item) => item.getAttribute('data-code')));
    expect(codes).toEqual(expect.arrayContaining(['unsupported_items', 'empty_playlist']));
    expect(normalise(await result().locator('li[data-code="unsupported_items"]').first().textContent())).toContain('podcast episodes, videos, local files');
    expect(normalise(await result().locator('li[data-code="empty_playlist"]').first().textContent())).toContain('has no tracks');
  });

  it('exports only the tracks picked, and names partial_selection in words', async () => {
    await open();
    await chooseSpotify();
    const roadTrip = collection('Road Trip 2024');
    const total = Number(/(\d+) tracks/.exec(normalise(await roadTrip.textContent()))?.[1]);
    expect(total).toBeGreaterThan(3);
    await roadTrip.getByRole('button', { name: /Choose tracks/ }).click();
    const picker = roadTrip.locator('[data-testid="track-picker"]');
    await picker.waitFor({ timeout: 30_000 });
    const boxes = picker.getByRole('checkbox');
    expect(await boxes.count()).toBe(total);
    await boxes.nth(0).check();
    await boxes.nth(2).check();
    expect(normalise(await roadTrip.textContent())).toContain('2 chosen');
    await exportPage().getByRole('radio', { name: /^Open Playlist JSON/ }).check();

    const posts: Record<string, unknown>[] = [];
    const listen = (request: Request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/exports')) posts.push(request.postDataJSON() as Record<string, unknown>);
    };
    page.on('request', listen);
    const { file, status } = await download();
    page.off('request', listen);
    expect(status).toBe(200);
    expect(posts[0]).toMatchObject({ source_provider: 'spotify', format: 'json' });
    const selection = posts[0]?.['selection'] as { playlist_ids: string[]; tracks: Record<string, string[]> };
    expect(selection.tracks).toEqual({ [selection.playlist_ids[0]!]: ['pos:0', 'pos:2'] });
    const bundle = JSON.parse((await saved(file)).toString('utf8')) as { playlists: { tracks: unknown[] }[]; warnings: { code: string }[] };
    expect(bundle.playlists[0]?.tracks).toHaveLength(2);

    const warning = result().locator('li[data-code="partial_selection"]');
    await warning.waitFor();
    expect(normalise(await warning.textContent())).toContain('Only the tracks you picked were exported, not the whole playlist.');
    expect(normalise(await announcement().textContent())).toMatch(/^Downloaded .*\.json with \d+ warnings?\.$/);
  });

  it('works by keyboard alone: source, playlist, format, download', async () => {
    await open();
    await exportPage().getByRole('group', { name: 'Export from' }).waitFor();
    await page.getByRole('heading', { level: 1, name: 'Export', exact: true }).focus();

    // Tab enters the source radio group once (at its chosen or first account, which depends on
    // what the shared engine connected first); arrow keys move within it.
    let radio = await tabUntil('a source radio', (focus) => focus.type === 'radio' && / on [A-Z][\w ]+$/.test(focus.label));
    for (let press = 0; press < 8 && !/ on Spotify$/.test(radio.label); press += 1) {
      await page.keyboard.press('ArrowDown');
      radio = await focusedControl();
    }
    expect(radio.label).toMatch(/ on Spotify$/);
    expect(radio.outlineStyle).not.toBe('none');
    await page.keyboard.press('Space');
    await collections().first().waitFor({ timeout: 30_000 });

    await tabUntil('the Late Night Focus checkbox', (focus) => focus.type === 'checkbox' && focus.label === 'Late Night Focus', 60);
    await page.keyboard.press('Space');
    expect((await focusedControl()).checked).toBe(true);

    const csv = await tabUntil('the format radios', (focus) => focus.type === 'radio' && focus.label.startsWith('CSV'), 80);
    expect(csv.checked).toBe(true);
    // Arrow keys move within the radio group and choose.
    await page.keyboard.press('ArrowDown');
    expect(await focusedControl()).toMatchObject({ type: 'radio', checked: true });
    expect((await focusedControl()).label).toMatch(/^TXT/);

    const button = await tabUntil('Download', (focus) => focus.tag === 'button' && focus.label === 'Download');
    expect(button.outlineStyle).not.toBe('none');
    const [file] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.keyboard.press('Enter')]);
    expect(file.suggestedFilename()).toBe('Late Night Focus.txt');
    const text = (await saved(file)).toString('utf8');
    expect(text.startsWith('#')).toBe(true);
    // Focus lands on what was downloaded.
    await expect.poll(async () => (await focusedControl()).label).toBe('Downloaded Late Night Focus.txt');
    expect(session.errors.filter((error) => !expectedConsoleNoise(error))).toEqual([]);
  });
});
