import { rm, writeFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { App } from '../../core/app/index.ts';
import type { FakeSpotifyServer } from '../fakes/spotify/index.ts';
import { exportPageParts, normalise, SPOTIFY_SONGS } from './support/export-page.ts';
import { startSpotifyListenerEngine, type SpotifyListenerEngine } from './support/in-process-engine.ts';
import { openSession, type BrowserSession } from './support/page.ts';

/**
 * The Export page when an export does not end with a file, in real Chromium against a real engine
 * whose Spotify is this test's own fake: the user cancels an export the service never answers,
 * and the engine cannot write its temporary file. Afterwards the Download button works again, the
 * words say what happened and what to do, and focus lands on them. No request is intercepted.
 */

let engine: SpotifyListenerEngine;
let spotify: FakeSpotifyServer;
let app: App;
let baseUrl: string;

beforeAll(async () => {
  engine = await startSpotifyListenerEngine({
    name: 'export-interruptions',
    displayName: 'Patient Listener',
    playlists: [{ name: 'Slow Sunday', trackKeys: SPOTIFY_SONGS.slice(0, 4).map((track) => track.key) }],
  });
  ({ spotify, app, baseUrl } = engine);
}, 300_000);

afterAll(async () => {
  await engine?.stop();
});

describe('Export page, exports that end without a file', () => {
  let session: BrowserSession;
  let page: Page;
  const { exportPage, collection, failure, announcement, downloadButton, openOnSpotify } = exportPageParts(() => page);

  /** The focused element through shadow roots: its id, or its data-testid. */
  const focusedId = () =>
    page.evaluate(() => {
      let element: Element | null = document.activeElement;
      while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
      return element?.id || element?.getAttribute('data-testid') || element?.tagName.toLowerCase() || '';
    });

  beforeAll(async () => {
    session = await openSession(inject('chromiumWsEndpoint'));
    page = session.page;
    await openOnSpotify(baseUrl, 'Slow Sunday');
    await collection('Slow Sunday').getByRole('checkbox').first().check();
  });

  afterAll(async () => {
    await session?.close();
  });

  it('an export the service never answers can be cancelled, and Download works again afterwards', async () => {
    spotify.failNext({ kind: 'timeout', pathPrefix: '/v1/playlists/', times: 1 });
    await downloadButton().click();
    const cancel = exportPage().getByRole('button', { name: 'Cancel', exact: true });
    await cancel.waitFor({ timeout: 30_000 });
    expect(normalise(await downloadButton().textContent())).toBe('Exporting…');
    await cancel.click();

    await expect.poll(async () => normalise(await downloadButton().textContent())).toBe('Download');
    expect(await downloadButton().getAttribute('aria-disabled')).toBe('false');
    expect(await cancel.count()).toBe(0);
    expect(normalise(await exportPage().locator('[data-testid="export-cancelled"]').textContent())).toBe('Cancelled: nothing was saved. Press Download to start again.');
    expect(await failure().count()).toBe(0);
    expect(normalise(await announcement().textContent())).toBe('Export cancelled; nothing was saved.');
    // Focus was on Cancel, which is gone: it goes back to Download rather than to the page's start.
    expect(await focusedId()).toBe('download');

    spotify.clearFailures();
    const [file] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), downloadButton().click()]);
    expect(file.suggestedFilename()).toBe('Slow Sunday.csv');
    await exportPage().locator('opl-export-result [data-testid="export-result"]').waitFor();
    expect(await exportPage().locator('[data-testid="export-cancelled"]').count()).toBe(0);
  });

  it('the engine cannot write its temporary file: the words, a Try again that works, and focus on them', async () => {
    // The engine's scratch directory is a file now: every export fails writing it (503 temporary_storage_failed).
    const scratch = app.services.exports.temporaryDirectory;
    await rm(scratch, { recursive: true, force: true });
    await writeFile(scratch, 'not a directory');
    try {
      const [response] = await Promise.all([page.waitForResponse((answer) => answer.url().endsWith('/api/exports') && answer.request().method() === 'POST', { timeout: 60_000 }), downloadButton().click()]);
      expect(response.status()).toBe(503);
      expect(await response.json()).toMatchObject({ reason: 'temporary_storage_failed' });
      await expect.poll(async () => failure().getAttribute('data-reason')).toBe('temporary_storage_failed');
      expect(normalise(await failure().locator('div[role="alert"] .title').textContent())).toBe('The engine could not write the file');
      expect(normalise(await failure().textContent())).toContain('temporary filesystem (TMPDIR)');
      expect(normalise(await failure().textContent())).not.toContain('music service');
      expect(normalise(await announcement().textContent())).toBe('Not exported: The engine could not write the file.');
      // Focus moved to the refusal, so a keyboard user is next to its Try again.
      await expect.poll(focusedId).toBe('export-failure');
      expect(normalise(await downloadButton().textContent())).toBe('Download');
      expect(await downloadButton().getAttribute('aria-disabled')).toBe('false');
    } finally {
      await rm(scratch, { force: true });
    }
    await page.keyboard.press('Tab');
    expect(normalise(await page.evaluate(() => {
      let element: Element | null = document.activeElement;
      while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
      return element?.textContent ?? '';
    }))).toBe('Try again');
    const [file] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.keyboard.press('Enter')]);
    expect(file.suggestedFilename()).toBe('Slow Sunday.csv');
    expect(session.errors.filter((error) => !/Failed to load resource: the server responded with a status of 503/.test(error) && !/request failed: POST .*\/api\/exports net::ERR_ABORTED/.test(error))).toEqual([]);
  });
});
