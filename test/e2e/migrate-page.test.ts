import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openSession, type BrowserSession } from './support/page.ts';

/**
 * A whole migration in a real browser against the demo engine (`OPL_DEMO=1`, demo Spotify and
 * TIDAL fakes, the real plugins in the sandbox, the real worker): connect both accounts, run the
 * Migrate wizard (a refusal first, then one playlist over the safe track limit whose warning must
 * be acknowledged), watch the live board reach Completed, then open History and download the CSV
 * report. No route is stubbed.
 */

const baseUrl = inject('oplBaseUrl');

/** Big enough to pass the safe default of 50 tracks per job, so the preflight warns. */
const PLAYLIST = 'Big Mix';

describe('migrating a playlist in the browser', () => {
  let session: BrowserSession;
  let page: Page;
  /** How many tracks the playlist has, as the wizard lists it. */
  let playlistTracks = 0;
  const connections = () => page.locator('opl-connections-page');
  const migrate = () => page.locator('opl-migrate-page');
  const history = () => page.locator('opl-history-page');

  async function connect(provider: string, displayName: string): Promise<void> {
    await page.goto(`${baseUrl}/#/connections`);
    await page.getByRole('heading', { level: 1, name: 'Connections', exact: true }).waitFor();
    const card = connections().locator(`li[data-provider="${provider}"]`);
    await card.waitFor({ timeout: 30_000 });
    const pkce = card.getByRole('radio', { name: 'Sign in on the service’s website' });
    if ((await pkce.count()) > 0) await pkce.check();
    await card.getByRole('button', { name: `Connect ${displayName}` }).click();
    await connections().locator('[data-testid="auth-outcome"][data-outcome="connected"]').waitFor({ timeout: 30_000 });
  }

  /** The radio of the first connected account of a service, by its visible name. */
  const accountRadio = (group: string, service: string): Locator => migrate().getByRole('group', { name: group }).getByRole('radio', { name: new RegExp(` on ${service}$`) }).first();

  beforeAll(async () => {
    session = await openSession(inject('chromiumWsEndpoint'));
    page = session.page;
  });

  afterAll(async () => {
    await session?.close();
  });

  it('connects the demo Spotify and TIDAL accounts', async () => {
    await connect('spotify', 'Spotify');
    await connect('tidal', 'TIDAL');
  });

  it('refuses liked songs for TIDAL, warns about a long playlist, and starts only once the warning is acknowledged', async () => {
    await page.goto(`${baseUrl}/#/migrate`);
    await page.getByRole('heading', { level: 1, name: 'Migrate', exact: true }).waitFor();
    await accountRadio('Migrate from', 'Spotify').check();

    const collections = migrate().locator('opl-selection-step [data-testid="collection"]');
    await collections.first().waitFor({ timeout: 30_000 });
    const liked = collections.filter({ hasText: 'Liked songs' }).getByRole('checkbox').first();
    await liked.check();
    await accountRadio('Migrate to', 'TIDAL').check();

    // TIDAL has no liked-songs library to write to: the server refuses, and the page says so.
    await migrate().getByRole('button', { name: 'Check migration' }).click();
    const refusal = migrate().locator('[data-testid="refusal"]');
    await refusal.waitFor({ timeout: 60_000 });
    expect(await refusal.getAttribute('data-code')).toBe('unsupported_target_type');
    expect(await refusal.textContent()).toMatch(/TIDAL cannot receive liked songs/);

    // The long playlist alone: allowed, but past the safe default of 50 tracks per job.
    await liked.uncheck();
    const bigMix = collections.filter({ hasText: PLAYLIST });
    playlistTracks = Number(/(\d+) tracks/.exec((await bigMix.textContent()) ?? '')?.[1]);
    expect(playlistTracks).toBeGreaterThan(50);
    await bigMix.getByRole('checkbox').first().check();
    await migrate().getByRole('button', { name: 'Check migration' }).click();
    const preflight = migrate().locator('[data-testid="preflight"]');
    await preflight.waitFor({ timeout: 60_000 });
    expect(await preflight.getAttribute('data-ready')).toBe('false');
    const warning = preflight.locator('[data-testid="warnings"] li[data-code="too_many_tracks"]');
    expect(await warning.textContent()).toContain(`${playlistTracks} tracks`);

    // Start stays refused until the acknowledgement is checked.
    const start = preflight.getByRole('button', { name: 'Start migration' });
    expect(await start.getAttribute('aria-disabled')).toBe('true');
    const posts: unknown[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/migrations') posts.push(request.postDataJSON());
    });
    // Playwright will not press an aria-disabled button; a user still can (it keeps focus), so force it.
    await start.click({ force: true });
    expect(posts).toEqual([]);
    await preflight.getByRole('checkbox', { name: /I have read these warnings/ }).check();
    expect(await start.getAttribute('aria-disabled')).toBe('false');
    await start.click();

    const board = migrate().locator('opl-migration-board [data-testid="migration-board"]');
    await board.waitFor({ timeout: 30_000 });
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ source_provider: 'spotify', target_provider: 'tidal', acknowledge_warnings: true, selection: { playlist_ids: [expect.any(String)] } });

    // Live progress until the engine says Completed; anything left for review is approved.
    await expect
      .poll(
        async () => {
          const status = await board.getAttribute('data-status');
          if (status === 'awaiting_review') {
            const approveAll = board.getByRole('button', { name: 'Approve all suggestions' });
            if ((await approveAll.count()) > 0 && (await approveAll.getAttribute('aria-disabled')) !== 'true') await approveAll.click();
          }
          return status;
        },
        { timeout: 180_000, interval: 1_000 },
      )
      .toBe('completed');
    expect((await board.locator('[data-testid="job-status"]').textContent())?.trim()).toBe('Completed');
    const counts = board.locator('[data-testid="status-counts"]');
    const count = async (status: string) => Number(await counts.locator(`[data-status="${status}"] dd`).textContent());
    expect((await count('written')) + (await count('skipped')) + (await count('failed'))).toBe(playlistTracks);
    expect(await count('pending')).toBe(0);
    expect(await count('needs_review')).toBe(0);
    expect(await board.locator('[data-testid="items-table"] tbody tr').count()).toBe(playlistTracks);
    // The chart's numbers are there as text too.
    expect(await board.locator('opl-status-chart table th').allTextContents()).toContain('Written');
    // A whole migration runs inside this test: its own waits (up to 180 s for the job) need room.
  }, 300_000);

  it('lists the migration in History with its items, statistics and a CSV report', async () => {
    await page.goto(`${baseUrl}/#/history`);
    await page.getByRole('heading', { level: 1, name: 'History', exact: true }).waitFor();
    const row = history().locator('[data-testid="migrations-table"] tbody tr').filter({ hasText: PLAYLIST });
    await row.waitFor({ timeout: 30_000 });
    expect(await row.getAttribute('data-status')).toBe('completed');
    // The browser tests share one engine: other files may have migrated too. The totals are the engine's.
    const stats = (await (await page.request.get(`${baseUrl}/api/migrations/stats`)).json()) as { total_migrations: number };
    expect(stats.total_migrations).toBeGreaterThanOrEqual(1);
    expect(await history().locator('[data-testid="aggregate-stats"]').textContent()).toContain(`${stats.total_migrations} ${stats.total_migrations === 1 ? 'migration' : 'migrations'} with`);

    await row.getByRole('button', { name: /^Open/ }).click();
    const detail = history().locator('opl-job-detail [data-testid="job-detail"]');
    await detail.waitFor();
    const jobId = await detail.getAttribute('data-job-id');
    await expect.poll(() => detail.getByRole('status').filter({ hasText: /^Items / }).textContent(), { timeout: 30_000 }).toContain(`of ${playlistTracks}`);
    // The per-playlist charts come from a second request (collection statistics) that may answer later.
    await expect.poll(() => detail.locator('opl-status-chart').count(), { timeout: 30_000 }).toBeGreaterThan(0);

    // A filter the engine applies: only tracks whose title contains a string that none has.
    await detail.getByRole('searchbox', { name: 'Title contains' }).fill('zz-no-such-title-zz');
    await detail.getByRole('button', { name: 'Apply filters' }).click();
    await detail.getByText('No items match.').waitFor({ timeout: 30_000 });
    await detail.getByRole('searchbox', { name: 'Title contains' }).fill('');
    await detail.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => detail.locator('[data-testid="history-items"] tbody tr').count(), { timeout: 30_000 }).toBe(100);

    const [download] = await Promise.all([page.waitForEvent('download'), detail.locator('[data-testid="report-csv"]').click()]);
    expect(download.suggestedFilename()).toBe(`migration-${jobId}-report.csv`);
    // The browser runs as a server elsewhere: the file is copied here to be read.
    const dir = await mkdtemp(join(tmpdir(), 'opl-e2e-report-'));
    const path = join(dir, 'report.csv');
    await download.saveAs(path);
    const csv = (await readFile(path, 'utf8')).replace(/^\uFEFF/, '');
    await rm(dir, { recursive: true, force: true });
    const lines = csv.trim().split(/\r?\n/);
    expect(lines[0]).toContain('"job_id"');
    expect(lines).toHaveLength(playlistTracks + 1);
    expect(lines[1]).toContain(PLAYLIST);
    // The browser logs the refused preflight (422) on its own; nothing else may have gone wrong.
    const expected = (error: string) => error.includes('/events') || (error.includes('status of 422') && error.includes('/api/migrations/preflight'));
    expect(session.errors.filter((error) => !expected(error))).toEqual([]);
  });

  it('downloads the migrated playlist from History as a CSV file, from stored data only', async () => {
    const row = history().locator('[data-testid="migrations-table"] tbody tr').filter({ hasText: PLAYLIST });
    await row.getByRole('button', { name: /^Open/ }).click();
    const exporter = history().locator('opl-history-export [data-testid="history-export"]');
    await exporter.waitFor();
    await exporter.getByRole('combobox', { name: 'Format' }).selectOption('csv');
    const [download, response] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      page.waitForResponse((answer) => /\/api\/exports\/migrations\/[0-9a-f-]{36}$/.test(answer.url()) && answer.request().method() === 'POST', { timeout: 60_000 }),
      exporter.getByRole('button', { name: 'Download playlists' }).click(),
    ]);
    expect(response.status()).toBe(200);
    expect(download.suggestedFilename()).toBe(`${PLAYLIST}.csv`);
    const dir = await mkdtemp(join(tmpdir(), 'opl-e2e-history-export-'));
    const path = join(dir, 'playlist.csv');
    await download.saveAs(path);
    const bytes = await readFile(path);
    await rm(dir, { recursive: true, force: true });
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.toString('utf8').replace(/^\uFEFF/, '').trim().split(/\r?\n/);
    expect(lines[0]).toMatch(/^"schema_version","playlist_id"/);
    expect(lines).toHaveLength(playlistTracks + 1);
    const result = exporter.locator('opl-export-result [data-testid="export-result"]');
    await result.waitFor();
    expect((await result.locator('h3').textContent())?.trim()).toBe(`Downloaded ${PLAYLIST}.csv`);
  });
});
