import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { isAvailableOn, seedCatalog } from '../fakes/seed-catalog.ts';
import { startFakeSpotify, type FakeSpotifyServer } from '../fakes/spotify/index.ts';
import { startFakeTidal, type FakeTidal } from '../fakes/tidal/index.ts';
import type { FakeAccountTokens } from '../fakes/fake-provider.ts';
import { connectByRedirect } from '../integration/migrations/migration-harness.ts';
import { startInProcessEngine, type InProcessEngine } from './support/in-process-engine.ts';
import { focused, openSession, type BrowserSession } from './support/page.ts';

/**
 * Review, pause and resume on the progress board, in real Chromium against a real engine (HTTP,
 * worker, embedded PostgreSQL, the real plugins in the sandbox) whose Spotify and TIDAL are the
 * test's own stateful fakes — so the test can expire the TIDAL sign-in mid-migration. A pasted
 * list is chosen from the wizard's list of imports; five of its songs have equally good twins on
 * TIDAL and wait for review. On the live board: approve one with the keyboard, correct one by
 * choosing another candidate, skip one, correct one by searching TIDAL, then approve the rest at once — and the expired target
 * pauses the job with the reason and a Resume that works once TIDAL is reconnected. History lists
 * the job, filters its items and downloads a filtered report. No route is stubbed.
 */

const IMPORT_NAME = 'Needs Review Mix';
const catalog = seedCatalog();
const onBoth = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'spotify') && isAvailableOn(track, 'tidal'));
const artistOf = (key: string) => catalog.artists.get(catalog.tracks.get(key)!.artistKeys[0]!)!.name;
/** The seed catalogue is deterministic: five of these 20 have "Remastered"/"Radio Edit" twins on TIDAL. */
const SONGS = onBoth.slice(0, 20);
const REVIEWS = 5;

let spotify: FakeSpotifyServer;
let tidal: FakeTidal;
let tidalUser: FakeAccountTokens;
let engine: InProcessEngine;
let baseUrl: string;
let tidalAccount: string;

async function api(path: string, init: RequestInit = {}): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${baseUrl}${path}`, { ...init, headers: { ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers } });
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as unknown) : null };
}

beforeAll(async () => {
  spotify = await startFakeSpotify();
  tidal = await startFakeTidal();
  spotify.setAuthorizeUser(spotify.createAccount({ displayName: 'Source Listener', library: {} }).userId);
  tidalUser = tidal.createAccount({ displayName: 'Target Listener', library: {} });
  tidal.setAuthorizeUser(tidalUser.userId);
  engine = await startInProcessEngine({ name: 'review', fakes: [spotify, tidal], providers: ['spotify', 'tidal'], worker: true });
  ({ baseUrl } = engine);
  await connectByRedirect(baseUrl, 'spotify');
  tidalAccount = await connectByRedirect(baseUrl, 'tidal');
  const text = SONGS.map((track) => `${artistOf(track.key)} - ${track.title}`).join('\n');
  const preview = await api('/api/imports/text-preview', { method: 'POST', body: JSON.stringify({ text, name: IMPORT_NAME }) });
  expect(preview.status, JSON.stringify(preview.json)).toBe(201);
}, 300_000);

afterAll(async () => {
  await engine?.stop();
  await spotify?.close();
  await tidal?.close();
});

describe('review, pause and resume on the board', () => {
  let session: BrowserSession;
  let page: Page;
  let jobId = '';
  const migrate = () => page.locator('opl-migrate-page');
  const history = () => page.locator('opl-history-page');
  const count = async (board: Locator, status: string) => Number(await board.locator(`[data-testid="status-counts"] [data-status="${status}"] dd`).textContent());

  beforeAll(async () => {
    session = await openSession(inject('chromiumWsEndpoint'));
    page = session.page;
  });

  afterAll(async () => {
    await session?.close();
  });

  it('starts a migration from an import chosen from the list, and the board shows what waits for review', async () => {
    await page.goto(`${baseUrl}/#/migrate`);
    await page.getByRole('heading', { level: 1, name: 'Migrate', exact: true }).waitFor();
    await migrate().getByRole('radio', { name: 'An imported file or link' }).check();
    const imports = migrate().locator('[data-testid="import-sources"]');
    await imports.waitFor({ timeout: 30_000 });
    const choice = imports.getByRole('radio', { name: new RegExp(IMPORT_NAME) });
    expect(await choice.textContent().catch(() => null)).toBeDefined();
    // Keyboard: focus the import and choose it with Space.
    await choice.focus();
    await page.keyboard.press('Space');
    expect(await choice.isChecked()).toBe(true);

    const collection = migrate().locator('opl-selection-step [data-testid="collection"]').first();
    await collection.waitFor({ timeout: 30_000 });
    expect(await collection.textContent()).toContain(`${SONGS.length} tracks`);
    await collection.getByRole('checkbox').first().check();
    await migrate().getByRole('group', { name: 'Migrate to' }).getByRole('radio', { name: / on TIDAL$/ }).first().check();
    await migrate().getByRole('button', { name: 'Check migration' }).click();
    const preflight = migrate().locator('[data-testid="preflight"]');
    await preflight.waitFor({ timeout: 60_000 });
    await preflight.getByRole('button', { name: 'Start migration' }).click();

    const board = migrate().locator('opl-migration-board [data-testid="migration-board"]');
    await board.waitFor({ timeout: 30_000 });
    await expect.poll(() => board.getAttribute('data-status'), { timeout: 120_000 }).toBe('awaiting_review');
    const queue = board.locator('[data-testid="review-queue"]');
    await expect.poll(() => queue.locator('[data-testid="review-item"]').count(), { timeout: 30_000 }).toBe(REVIEWS);
    expect(await queue.getByRole('heading').first().textContent()).toContain(`(${REVIEWS})`);
    expect(await count(board, 'needs_review')).toBe(REVIEWS);
    // Nothing is created on the target while items wait.
    expect(tidal.playlistsOf(tidalUser.userId).map((playlist) => playlist.name)).not.toContain(IMPORT_NAME);
    const jobs = (await api('/api/migrations')).json as { jobs?: { id: string }[] } | { id: string }[];
    jobId = (Array.isArray(jobs) ? jobs : (jobs.jobs ?? []))[0]!.id;
    expect(jobId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('approves one with the keyboard, corrects one with another candidate, skips one and corrects one by searching — live', async () => {
    const board = migrate().locator('opl-migration-board [data-testid="migration-board"]');
    const items = board.locator('[data-testid="review-item"]');

    // 1. Approve the first suggestion with the keyboard.
    const first = items.nth(0);
    const firstTitle = await first.locator('legend').textContent();
    await first.getByRole('button', { name: /^Approve/ }).focus();
    expect((await focused(page)).text).toMatch(/^Approve/);
    await page.keyboard.press('Enter');
    await expect.poll(() => items.count(), { timeout: 30_000 }).toBe(REVIEWS - 1);
    // The counts come with the job's own event, right behind the item's.
    await expect.poll(() => count(board, 'needs_review'), { timeout: 30_000 }).toBe(REVIEWS - 1);
    expect(await items.locator('legend').allTextContents()).not.toContain(firstTitle);

    // 2. Correct one: choose the second candidate (arrow keys move within the radio group), then approve.
    const second = items.nth(0);
    const secondId = await second.getAttribute('data-item-id');
    const radios = second.getByRole('radio');
    expect(await radios.count()).toBeGreaterThanOrEqual(2);
    const suggested = await radios.nth(0).isChecked();
    await radios.nth(suggested ? 0 : 1).focus();
    await page.keyboard.press(suggested ? 'ArrowDown' : 'ArrowUp');
    const chosenIndex = suggested ? 1 : 0;
    expect(await radios.nth(chosenIndex).isChecked()).toBe(true);
    await second.getByRole('button', { name: /^Approve/ }).click();
    await expect.poll(() => items.count(), { timeout: 30_000 }).toBe(REVIEWS - 2);
    const corrected = (await api(`/api/migrations/${jobId}/items`)).json as { id: string; status: string; reason: string; review_action: string | null; target_uri: string }[];
    expect(corrected.find((item) => item.id === secondId)).toMatchObject({ status: 'matched', review_action: 'approve', reason: 'Corrected in review.' });

    // 3. Skip one.
    await items.nth(0).getByRole('button', { name: /^Skip/ }).click();
    await expect.poll(() => items.count(), { timeout: 30_000 }).toBe(REVIEWS - 3);
    await expect.poll(() => count(board, 'skipped'), { timeout: 30_000 }).toBe(1);
    expect(await board.getAttribute('data-status')).toBe('awaiting_review');

    // 4. Correct one by searching the target: the search box starts with the song's title and artist.
    const searchedId = await items.nth(0).getAttribute('data-item-id');
    // Held by its id: the list may re-render while the search runs.
    const searched = board.locator(`[data-testid="review-item"][data-item-id="${searchedId}"]`);
    const before = ((await api(`/api/migrations/${jobId}/items`)).json as { id: string; target_uri: string | null; candidates: { uri: string | null; title: string }[] }[]).find((item) => item.id === searchedId)!;
    const suggestedTitle = before.candidates.find((candidate) => candidate.uri === before.target_uri)?.title ?? null;
    const search = searched.getByRole('searchbox', { name: /Search the target/ });
    expect(await search.inputValue()).not.toBe('');
    await search.press('Enter');
    const results = searched.locator('[data-testid="search-results"] li');
    await expect.poll(() => results.count(), { timeout: 30_000 }).toBeGreaterThan(0);
    // The search finds the song and its TIDAL twin. One of them is the suggestion itself: choosing
    // it is a plain approval, not a correction (and its radio may show unticked, its twin in the
    // candidate list holding the group's tick). Correct with a song whose title is not the suggestion's.
    const titleOf = (text: string) => /^•\s+(.+?) — /.exec(text.trim())?.[1] ?? '';
    let picked = false;
    for (let index = 0; index < (await results.count()) && !picked; index++) {
      if (titleOf(await results.nth(index).innerText()) === suggestedTitle) continue;
      await results.nth(index).getByRole('radio').check();
      picked = true;
    }
    expect(picked, `a search result other than "${suggestedTitle}"`).toBe(true);
    await searched.getByRole('button', { name: /^Approve/ }).click();
    await expect.poll(() => items.count(), { timeout: 30_000 }).toBe(REVIEWS - 4);
    const afterSearch = (await api(`/api/migrations/${jobId}/items`)).json as { id: string; status: string; reason: string }[];
    expect(afterSearch.find((item) => item.id === searchedId)).toMatchObject({ status: 'matched', reason: 'Corrected in review.' });
  });

  it('approves the rest at once; the expired TIDAL sign-in pauses the job with the reason and a Resume', async () => {
    const board = migrate().locator('opl-migration-board [data-testid="migration-board"]');
    // TIDAL stops accepting the access token (and its refresh keeps failing): the writes cannot go out.
    tidal.failNext({ kind: 'expired_token', times: 10_000, pathPrefix: '/v2/' });
    await board.getByRole('button', { name: 'Approve all suggestions' }).click();
    await expect.poll(() => board.locator('[data-testid="review-item"]').count(), { timeout: 30_000 }).toBe(0);
    await expect.poll(() => board.getAttribute('data-status'), { timeout: 120_000 }).toBe('paused');
    const paused = board.locator('[data-testid="paused"]');
    expect(await paused.textContent()).toMatch(/sign-in of an account in this migration expired.*Reconnect it on Connections, then press Resume/);
    expect(await paused.getByRole('link', { name: 'Reconnect on Connections' }).count()).toBe(1);
    expect(await count(board, 'failed')).toBe(0);
    tidal.clearFailures();
  });

  it('after reconnecting TIDAL, Resume on the board finishes the job with every approved song written once', async () => {
    const board = migrate().locator('opl-migration-board [data-testid="migration-board"]');
    await board.locator('[data-testid="paused"]').getByRole('link', { name: 'Reconnect on Connections' }).click();
    await page.getByRole('heading', { level: 1, name: 'Connections', exact: true }).waitFor();
    const card = page.locator('opl-connections-page').locator(`[data-testid="account-card"][data-account-id="${tidalAccount}"]`);
    await card.waitFor({ timeout: 30_000 });
    expect(await card.getAttribute('data-status')).toBe('reauth_required');
    await card.locator('[data-testid="reconnect-note"]').getByRole('button', { name: /^Reconnect/ }).click();
    await page.locator('opl-connections-page').locator('[data-testid="auth-outcome"][data-outcome="connected"]').waitFor({ timeout: 60_000 });
    await expect.poll(async () => ((await api('/api/auth/accounts')).json as { accounts: { id: string; status: string }[] }).accounts.find((account) => account.id === tidalAccount)?.status, { timeout: 60_000 }).toBe('connected');

    // Back to the job from History: its live board offers Resume.
    await page.goto(`${baseUrl}/#/history`);
    await page.getByRole('heading', { level: 1, name: 'History', exact: true }).waitFor();
    const row = history().locator(`[data-testid="migrations-table"] tbody tr[data-job-id="${jobId}"]`);
    await row.waitFor({ timeout: 30_000 });
    expect(await row.getAttribute('data-status')).toBe('paused');
    await row.getByRole('button', { name: /^Open/ }).click();
    const liveBoard = history().locator('opl-migration-board [data-testid="migration-board"]');
    await liveBoard.waitFor({ timeout: 30_000 });
    await liveBoard.locator('[data-testid="paused"]').getByRole('button', { name: 'Resume' }).click();
    await expect.poll(() => liveBoard.getAttribute('data-status'), { timeout: 120_000 }).toBe('completed');
    expect(await count(liveBoard, 'written')).toBe(SONGS.length - 1);
    expect(await count(liveBoard, 'skipped')).toBe(1);
    expect(await count(liveBoard, 'failed')).toBe(0);

    const target = tidal.playlistsOf(tidalUser.userId).filter((playlist) => playlist.name === IMPORT_NAME);
    expect(target).toHaveLength(1);
    const written = ((await api(`/api/migrations/${jobId}/items?status=written`)).json as { target_uri: string }[]).map((item) => item.target_uri);
    expect(written).toHaveLength(SONGS.length - 1);
    expect(new Set(written).size).toBe(written.length);
  });

  it('History lists the job, filters its items and downloads the filtered report', async () => {
    // A fresh load: History was last read while the job was still paused.
    await page.goto(`${baseUrl}/#/history`);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'History', exact: true }).waitFor();
    const row = history().locator(`[data-testid="migrations-table"] tbody tr[data-job-id="${jobId}"]`);
    await row.waitFor({ timeout: 30_000 });
    expect(await row.getAttribute('data-status')).toBe('completed');
    await row.getByRole('button', { name: /^Open/ }).click();
    const detail = history().locator('opl-job-detail [data-testid="job-detail"]');
    await detail.waitFor();
    await detail.getByRole('checkbox', { name: 'Skipped' }).check();
    await detail.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => detail.locator('[data-testid="history-items"] tbody tr').count(), { timeout: 30_000 }).toBe(1);

    const [download] = await Promise.all([page.waitForEvent('download'), detail.locator('[data-testid="report-csv"]').click()]);
    const dir = await mkdtemp(join(tmpdir(), 'opl-e2e-review-report-'));
    const path = join(dir, 'report.csv');
    await download.saveAs(path);
    const lines = (await readFile(path, 'utf8')).replace(/^\uFEFF/, '').trim().split(/\r?\n/);
    await rm(dir, { recursive: true, force: true });
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('"skipped"');
    expect(lines[1]).toContain('"skip"');
    // Only the event stream's reconnects (a resumed job is followed again) may show in the console.
    expect(session.errors.filter((error) => !error.includes('/events'))).toEqual([]);
  });
});
