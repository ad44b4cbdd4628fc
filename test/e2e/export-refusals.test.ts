import type { Locator, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { App } from '../../core/app/index.ts';
import type { FakeSpotifyServer } from '../fakes/spotify/index.ts';
import { connectByRedirect } from '../integration/migrations/migration-harness.ts';
import { exportPageParts, normalise, SPOTIFY_SONGS } from './support/export-page.ts';
import { startSpotifyListenerEngine, type SpotifyListenerEngine } from './support/in-process-engine.ts';
import { openSession, type BrowserSession } from './support/page.ts';

/**
 * The Export page's refusals in real Chromium against a real engine (HTTP, embedded PostgreSQL, the
 * Spotify and CSV plugins in the sandbox) whose Spotify is this test's own stateful fake: the fake
 * answers a rate limit, then an expired sign-in, and the engine (limited to one playlist per
 * export) refuses two playlists; then format plugins are quarantined, before the page loads (the
 * format is offered as not available) and after (the export is refused). Each refusal is the
 * engine's own answer, put into words with its next action; the browser's requests all reach the
 * engine, none is intercepted.
 */

let engine: SpotifyListenerEngine;
let spotify: FakeSpotifyServer;
let app: App;
let baseUrl: string;

beforeAll(async () => {
  engine = await startSpotifyListenerEngine({
    name: 'export-refusals',
    displayName: 'Refused Listener',
    playlists: [
      { name: 'Late Night Focus', trackKeys: SPOTIFY_SONGS.slice(0, 3).map((track) => track.key) },
      { name: 'Morning Run', trackKeys: SPOTIFY_SONGS.slice(3, 6).map((track) => track.key) },
      ], env: { OPL_EXPORT_MAX_PLAYLISTS: '1' },
  });
  ({ spotify, app, baseUrl } = engine);
}, 300_000);

afterAll(async () => {
  await engine?.stop();
});

describe('Export page refusals (the engine’s own answers)', () => {
  let session: BrowserSession;
  let page: Page;
  const { exportPage, collection, failure, announcement, openOnSpotify } = exportPageParts(() => page);

  /** Presses `button` and returns the engine's answer to the export request. */
  async function answerTo(button: Locator): Promise<{ response: Response; body: Record<string, unknown> }> {
    const [response] = await Promise.all([page.waitForResponse((answer) => answer.url().endsWith('/api/exports') && answer.request().method() === 'POST', { timeout: 60_000 }), button.click()]);
    return { response, body: (await response.json()) as Record<string, unknown> };
  }

  beforeAll(async () => {
    session = await openSession(inject('chromiumWsEndpoint'));
    page = session.page;
    await openOnSpotify(baseUrl, 'Late Night Focus');
    await collection('Late Night Focus').getByRole('checkbox').first().check();
  });

  afterAll(async () => {
    await session?.close();
  });

  it('a rate limit: the wait the service asked for, and a Try again that works once it has passed', async () => {
    spotify.failNext({ kind: 'rate_limit', retryAfterS: 120, pathPrefix: '/v1/playlists/', times: 50 });
    const { response, body } = await answerTo(exportPage().getByRole('button', { name: 'Download', exact: true }));
    spotify.clearFailures();
    expect(response.status()).toBe(429);
    expect(body).toMatchObject({ code: 'provider_rate_limited' });
    await expect.poll(async () => failure().getAttribute('data-code')).toBe('provider_rate_limited');
    expect(normalise(await failure().textContent())).toContain('Try again in 2 minutes.');
    const retry = failure().getByRole('button', { name: /Try again/ });
    expect(await retry.isVisible()).toBe(true);
  });

  it('an expired sign-in: the engine’s words and a link to reconnect on Connections', async () => {
    // Try again waits out the 2 minutes the rate limit asked for; choosing the playlist again ends the wait.
    expect(await failure().getByRole('button', { name: /Try again/ }).getAttribute('aria-disabled')).toBe('true');
    await collection('Late Night Focus').getByRole('checkbox').first().uncheck();
    await collection('Late Night Focus').getByRole('checkbox').first().check();
    spotify.failNext({ kind: 'expired_token', pathPrefix: '/v1/', times: 1_000 });
    const { response, body } = await answerTo(exportPage().getByRole('button', { name: 'Download', exact: true }));
    spotify.clearFailures();
    expect(response.status()).toBe(409);
    expect(body).toMatchObject({ code: 'provider_auth_expired', action: { type: 'reconnect_account' } });
    await expect.poll(async () => failure().getAttribute('data-code')).toBe('provider_auth_expired');
    // The engine's detail is inside the notice; the next steps are what the page adds.
    expect(normalise(await failure().locator('div[role="alert"] .detail').textContent())).toBe(normalise(String(body['detail'])));
    expect(normalise(await failure().textContent())).toContain('Reconnect the account on Connections, then export again.');
    expect(await failure().getByRole('link', { name: 'Reconnect the account on Connections' }).getAttribute('href')).toBe('#/connections');
    expect(normalise(await announcement().textContent())).toBe('Not exported: The music service no longer accepts this connection.');
    expect(await exportPage().locator('opl-export-result [data-testid="export-result"]').count()).toBe(0);
  });

  it('more playlists than the engine allows in one export: how many, and what to do', async () => {
    // Reconnecting the same Spotify user makes the account usable again.
    await connectByRedirect(baseUrl, 'spotify');
    await collection('Morning Run').getByRole('checkbox').first().check();
    const { response, body } = await answerTo(exportPage().getByRole('button', { name: 'Download', exact: true }));
    expect(response.status()).toBe(422);
    expect(body).toMatchObject({ reason: 'too_many_playlists', max_playlists: 1 });
    await expect.poll(async () => failure().getAttribute('data-reason')).toBe('too_many_playlists');
    expect(normalise(await failure().textContent())).toContain('Select at most 1 playlists and export the rest in another download.');
    // The browser logged nothing but the refused requests themselves.
    expect(session.errors.filter((error) => !/Failed to load resource: the server responded with a status of 4\d\d/.test(error))).toEqual([]);
  });

  it('a format whose plugin is quarantined: offered as not available, and refused in words when it went away after the page loaded', async () => {
    const release = async (pluginId: string) => expect((await fetch(`${baseUrl}/api/admin/plugins/${pluginId}/release`, { method: 'POST' })).status).toBe(200);
    const formatRadio = (name: string) => exportPage().getByRole('group', { name: 'File format' }).getByRole('radio', { name: new RegExp(`^${name} `) });
    await app.services.plugins.catalogue.quarantine('opl.format.csv', 'e2e: broke its limits');
    try {
      // A fresh page asks the engine which formats it can write now.
      await page.goto(`${baseUrl}/#/connections`);
      await page.getByRole('heading', { level: 1, name: 'Connections', exact: true }).waitFor();
      await page.goto(`${baseUrl}/#/export`);
      await exportPage().getByRole('group', { name: 'Export from' }).getByRole('radio', { name: / on Spotify$/ }).first().check();
      await collection('Late Night Focus').getByRole('checkbox').first().check();
      await expect.poll(() => formatRadio('CSV').isDisabled()).toBe(true);
      expect(await formatRadio('TXT').isChecked()).toBe(true);
      expect(normalise(await exportPage().locator('.format[data-available="false"]').textContent())).toContain('Not available now: its plugin is not loaded');
      expect(await exportPage().locator('.format[data-available="false"] input').getAttribute('id')).toBe('format-csv');

      // JSON goes away after the page loaded: the engine refuses, and the page says what to choose instead.
      await formatRadio('Open Playlist JSON').check();
      await app.services.plugins.catalogue.quarantine('opl.format.json', 'e2e: broke its limits');
      const { response, body } = await answerTo(exportPage().getByRole('button', { name: 'Download', exact: true }));
      expect(response.status()).toBe(503);
      expect(body).toMatchObject({ reason: 'format_unavailable', writable_formats: ['txt', 'm3u8', 'xspf'] });
      await expect.poll(async () => failure().getAttribute('data-reason')).toBe('format_unavailable');
      expect(normalise(await announcement().textContent())).toBe('Not exported: This format is not available on this engine right now.');
      expect(normalise(await failure().textContent())).toContain('Choose one of: txt, m3u8, xspf.');
    } finally {
      await release('opl.format.csv');
      await release('opl.format.json');
    }
    expect(session.errors.filter((error) => !/Failed to load resource: the server responded with a status of (4\d\d|503)/.test(error))).toEqual([]);
  });
});
