import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startFakeSpotify, type FakeSpotifyServer } from '../fakes/spotify/index.ts';
import { isAvailableOn, seedCatalog } from '../fakes/seed-catalog.ts';
import type { FakeAccountTokens } from '../fakes/fake-provider.ts';
import { connectByRedirect } from '../integration/migrations/migration-harness.ts';
import { startInProcessEngine, type InProcessEngine } from './support/in-process-engine.ts';
import { openSession, type BrowserSession } from './support/page.ts';

/**
 * The Organizer page in real Chromium against a real engine (HTTP and worker, embedded
 * PostgreSQL, the Spotify plugin in its sandbox) whose Spotify is this test's stateful fake: the
 * user sees what can be done to each playlist and why not, removes a followed playlist from the
 * library, and removes one copy of a duplicated song after reading the preflight's diff and typing
 * the phrase. Every request reaches the real engine; the fake's state is the proof.
 */

const catalog = seedCatalog();
const [a, b, c, d] = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'spotify')).map((track) => track.key) as [string, string, string, string];

let spotify: FakeSpotifyServer;
let listener: FakeAccountTokens;
let engine: InProcessEngine;

beforeAll(async () => {
  spotify = await startFakeSpotify();
  listener = spotify.createAccount({
    displayName: 'Tidy Listener',
    library: { playlists: [{ name: 'Road Trip', trackKeys: [a, b, a, c] }], followed: [{ name: 'Friend Mix', trackKeys: [c, d] }, { name: 'Old Mix', trackKeys: [a, d] }] },
  });
  spotify.setAuthorizeUser(listener.userId);
  engine = await startInProcessEngine({ name: 'organizer', fakes: [spotify], providers: ['spotify'], worker: true });
  await connectByRedirect(engine.baseUrl, 'spotify');
}, 300_000);

afterAll(async () => {
  await engine?.stop();
  await spotify?.close();
});

describe('the Organizer page', () => {
  let session: BrowserSession;
  let page: Page;
  const organizer = () => page.locator('opl-organizer-page');
  const row = (name: string) => organizer().locator('[data-testid="organizer-row"]').filter({ has: page.getByRole('rowheader', { name, exact: true }) });
  const playlist = (name: string) => spotify.playlistByName(listener.userId, name)!;

  beforeAll(async () => {
    session = await openSession(inject('chromiumWsEndpoint'));
    page = session.page;
    await page.goto(`${engine.baseUrl}/#/organizer`);
    await page.getByRole('heading', { level: 1, name: 'Organizer', exact: true }).waitFor();
    const account = organizer().locator('[data-testid="organizer-account"]');
    await account.waitFor();
    await account.selectOption({ label: (await account.locator('option').nth(1).textContent())!.trim() });
    await organizer().locator('[data-testid="organizer-playlists"]').waitFor({ timeout: 60_000 });
  });

  afterAll(async () => {
    await session?.close();
  });

  it('shows what can be done to each playlist, and why not', async () => {
    await row('Friend Mix').waitFor();
    // What Spotify offers for no playlist is said once above the table; each row says what is particular to it.
    expect(await organizer().locator('[data-testid="provider-limits"] li[data-action="delete_playlist"]').textContent()).toMatch(/no endpoint that deletes a playlist/);
    expect(await row('Road Trip').locator('td[data-action="delete_playlist"]').count()).toBe(0);
    expect(await row('Friend Mix').locator('td[data-action="remove_tracks"]').textContent()).toMatch(/only for your own playlists or collaborative playlists/);
    expect(await row('Liked songs').locator('td[data-action="all"]').textContent()).toMatch(/not ordinary playlists/);
  });

  it('removes a followed playlist from the library after a preflight', async () => {
    const friend = playlist('Friend Mix');
    await row('Friend Mix').getByRole('button', { name: 'Remove from library: Friend Mix' }).click();
    const preflight = organizer().locator('[data-testid="preflight"]');
    await preflight.waitFor({ timeout: 30_000 });
    expect(await preflight.locator('[data-testid="effect"]').textContent()).toMatch(/stays on Spotify/);
    await preflight.getByRole('button', { name: 'Confirm' }).click();
    await organizer().locator('[data-testid="organizer-job"][data-status="completed"]').waitFor({ timeout: 60_000 });
    expect(spotify.library(listener.userId)!.playlists).not.toContain(friend.id);
  });

  it('removes one chosen copy of a duplicated song, shown as a diff, only after the phrase is typed', async () => {
    const road = playlist('Road Trip');
    await row('Road Trip').getByRole('button', { name: 'Remove songs…: Road Trip' }).click();
    const picker = organizer().locator('[data-testid="song-picker"]');
    await picker.waitFor({ timeout: 30_000 });
    // Keyboard: focus the third entry (the second copy of the first song) and tick it with Space.
    await picker.locator('input[data-position="2"]').focus();
    await page.keyboard.press('Space');
    await picker.getByRole('button', { name: 'Check removal of 1 song' }).click();
    const preflight = organizer().locator('[data-testid="preflight"]');
    await preflight.waitFor({ timeout: 30_000 });
    expect(await preflight.locator('.diff li').count()).toBe(1);
    expect(await preflight.locator('.diff li').getAttribute('data-position')).toBe('2');
    expect(await preflight.locator('[data-code="unselected_copies_put_back"]').textContent()).toMatch(/put back/);
    const confirm = preflight.getByRole('button', { name: 'Confirm' });
    expect(await confirm.isDisabled()).toBe(true);
    await preflight.locator('[data-testid="phrase"]').fill('remove 1 song');
    expect(await confirm.isDisabled()).toBe(false);
    expect(playlist('Road Trip').uris).toEqual(road.uris);
    await confirm.click();
    const job = organizer().locator('[data-testid="organizer-job"][data-status="completed"]');
    await job.waitFor({ timeout: 60_000 });
    expect(await job.textContent()).toMatch(/put back/);
    expect(playlist('Road Trip').uris).toEqual([road.uris[0], road.uris[1], road.uris[3]]);

    // Undo puts the removed entry back where it was.
    await organizer().getByRole('button', { name: 'Undo: put the removed songs back' }).click();
    await organizer().locator('[data-testid="organizer-job"][data-status="completed"]').filter({ hasText: 'put back at its position (2)' }).waitFor({ timeout: 60_000 });
    expect(playlist('Road Trip').uris).toEqual(road.uris);
  });

  it('stops a job whose connection was revoked, links to Connections, and retries it after reconnecting', async () => {
    const old = playlist('Old Mix');
    await row('Old Mix').getByRole('button', { name: 'Remove from library: Old Mix' }).click();
    const preflight = organizer().locator('[data-testid="preflight"]');
    await preflight.waitFor({ timeout: 30_000 });
    // The user removes the app's access at Spotify between the preflight and the confirmation.
    spotify.revokeUser(listener.userId);
    await preflight.getByRole('button', { name: 'Confirm' }).click();
    const failed = organizer().locator('[data-testid="organizer-job"][data-status="failed"]');
    await failed.waitFor({ timeout: 60_000 });
    const reconnect = failed.locator('[data-testid="reconnect-needed"]');
    expect(await reconnect.getByRole('link', { name: /reconnect it on Connections/ }).getAttribute('href')).toBe('#/connections');
    expect(spotify.library(listener.userId)!.playlists).toContain(old.id);

    await connectByRedirect(engine.baseUrl, 'spotify');
    await failed.getByRole('button', { name: 'Retry failed items' }).click();
    await organizer().locator('[data-testid="organizer-job"][data-status="completed"]').waitFor({ timeout: 60_000 });
    expect(spotify.library(listener.userId)!.playlists).not.toContain(old.id);
  });
});
