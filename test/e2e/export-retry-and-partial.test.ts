import type { Locator, Page, Request, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { FakeSpotifyServer } from '../fakes/spotify/index.ts';
import { exportPageParts, normalise, SPOTIFY_SONGS } from './support/export-page.ts';
import { startSpotifyListenerEngine, type SpotifyListenerEngine } from './support/in-process-engine.ts';
import { openSession, type BrowserSession } from './support/page.ts';

/**
 * The Export page in real Chromium against a real engine whose Spotify is this test's own fake:
 * after a rate limit with Retry-After, Try again (and the same Download) is held back for the wait,
 * with the time left on it, and said once when it may be pressed, while changing the format makes
 * a normal Download again; and a playlist with only some tracks chosen shows its box partly
 * ticked. The page's clock is Playwright's, moved on by the test, so nothing really waits.
 */

let engine: SpotifyListenerEngine;
let spotify: FakeSpotifyServer;
let baseUrl: string;

beforeAll(async () => {
  engine = await startSpotifyListenerEngine({
    name: 'export-retry',
    displayName: 'Patient Listener',
    playlists: [
      { name: 'Late Night Focus', trackKeys: SPOTIFY_SONGS.slice(0, 3).map((track) => track.key) },
      { name: 'Morning Run', trackKeys: SPOTIFY_SONGS.slice(3, 6).map((track) => track.key) },
    ],
  });
  ({ spotify, baseUrl } = engine);
}, 300_000);

afterAll(async () => {
  await engine?.stop();
});

describe('Export page: the wait before Try again, and partly chosen playlists', () => {
  let session: BrowserSession;
  let page: Page;
  const { downloadButton: download, exportPage, collection, failure, announcement, openOnSpotify } = exportPageParts(() => page);
  const retry = () => failure().locator('[data-action="retry"]');
  const posts: unknown[] = [];

  async function answerTo(button: Locator): Promise<Response> {
    const [response] = await Promise.all([page.waitForResponse((answer) => answer.url().endsWith('/api/exports') && answer.request().method() === 'POST', { timeout: 60_000 }), button.click()]);
    return response;
  }

  /** Refused by the music service's rate limit, which asks for two minutes. */
  async function rateLimited(button: Locator): Promise<void> {
    spotify.failNext({ kind: 'rate_limit', retryAfterS: 120, pathPrefix: '/v1/playlists/', times: 50 });
    const response = await answerTo(button);
    spotify.clearFailures();
    expect(response.status()).toBe(429);
    await expect.poll(async () => failure().getAttribute('data-code')).toBe('provider_rate_limited');
  }

  beforeAll(async () => {
    session = await openSession(inject('chromiumWsEndpoint'));
    page = session.page;
    // Time runs as usual until the test moves it on.
    await page.clock.install();
    page.on('request', (request: Request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/exports')) posts.push(request.postDataJSON());
    });
    await openOnSpotify(baseUrl, 'Late Night Focus');
  });

  afterAll(async () => {
    await session?.close();
  });

  it('holds Try again back for the wait the service asked, counting down, and says once when it may be pressed', async () => {
    await collection('Late Night Focus').getByRole('checkbox').first().check();
    await rateLimited(download());
    expect(normalise(await failure().textContent())).toContain('Try again in 2 minutes.');
    expect(await retry().getAttribute('aria-disabled')).toBe('true');
    expect(normalise(await retry().textContent())).toMatch(/^Try again in (2 min|1 min \d+ s)$/);
    // The same export by Download is held back too.
    expect(await download().getAttribute('aria-disabled')).toBe('true');

    // Pressed anyway (an aria-disabled button still takes presses): nothing is sent, and the page says why.
    const sent = posts.length;
    await retry().click({ force: true });
    await download().click({ force: true });
    expect(posts.length).toBe(sent);
    await expect.poll(async () => normalise(await announcement().textContent())).toMatch(/^Not yet: try again in /);

    await page.clock.fastForward('01:00');
    await expect.poll(async () => normalise(await retry().textContent())).toMatch(/^Try again in (1 min|\d+ s)$/);
    expect(await retry().getAttribute('aria-disabled')).toBe('true');

    await page.clock.fastForward('01:01');
    await expect.poll(async () => retry().getAttribute('aria-disabled')).toBe('false');
    expect(normalise(await retry().textContent())).toBe('Try again');
    expect(normalise(await announcement().textContent())).toBe('You can try the export again now.');
    expect(await download().getAttribute('aria-disabled')).toBe('false');

    const response = await answerTo(retry());
    expect(response.status()).toBe(200);
    await exportPage().locator('opl-export-result [data-testid="export-result"]').waitFor();
  });

  it('changing the format ends the wait: Download is a normal Download again', async () => {
    // A playlist the engine has not read yet, so the service is asked (and refuses) again.
    await collection('Late Night Focus').getByRole('checkbox').first().uncheck();
    await collection('Morning Run').getByRole('checkbox').first().check();
    await rateLimited(download());
    expect(await download().getAttribute('aria-disabled')).toBe('true');
    await exportPage().getByRole('radio', { name: /^Open Playlist JSON/ }).check();
    await expect.poll(async () => download().getAttribute('aria-disabled')).toBe('false');
    expect(await failure().count()).toBe(0);
    const response = await answerTo(download());
    expect(response.status()).toBe(200);
  });

  it('a playlist with only some tracks chosen shows its box partly ticked; pressing it chooses the whole playlist', async () => {
    const run = collection('Late Night Focus');
    const box = run.getByRole('checkbox').first();
    await run.getByRole('button', { name: /Choose tracks/ }).click();
    const picker = run.locator('[data-testid="track-picker"]');
    await picker.waitFor({ timeout: 30_000 });
    const tracks = picker.getByRole('checkbox');
    await tracks.nth(0).check();
    await tracks.nth(2).check();
    expect(normalise(await run.locator('.muted').first().textContent())).toContain('2 chosen');
    expect(await box.evaluate((input) => [(input as HTMLInputElement).indeterminate, (input as HTMLInputElement).checked])).toEqual([true, false]);
    // What assistive technology is told: the box is mixed, not checked.
    expect(await box.ariaSnapshot()).toMatch(/checkbox "Late Night Focus" \[checked=mixed\]/);

    // Every track chosen is the whole playlist: a plain tick.
    await tracks.nth(1).check();
    expect(await box.ariaSnapshot()).toMatch(/checkbox "Late Night Focus" \[checked\]/);
    await tracks.nth(1).uncheck();
    expect(await box.ariaSnapshot()).toMatch(/\[checked=mixed\]/);

    await box.click();
    expect(await box.ariaSnapshot()).toMatch(/checkbox "Late Night Focus" \[checked\]/);
    expect(normalise(await run.locator('.muted').first().textContent())).not.toContain('chosen');
    expect(normalise(await picker.locator('[data-testid="track-matches"]').textContent())).toBe('3 tracks chosen.');
    await box.uncheck();
    expect(normalise(await picker.locator('[data-testid="track-matches"]').textContent())).toBe('0 tracks chosen.');
    expect(session.errors.filter((error) => !/Failed to load resource: the server responded with a status of 429/.test(error))).toEqual([]);
  });
});
