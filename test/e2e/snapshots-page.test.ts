import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { verifySnapshotArchive } from '../../core/services/snapshots/archive/index.ts';
import { connectByRedirect } from '../integration/migrations/migration-harness.ts';
import { craftZip } from '../support/zip-crafter.ts';
import { entriesOf, validParts } from '../unit/core/snapshots/snapshot-parts.ts';
import { openSession, type BrowserSession } from './support/page.ts';

/**
 * Snapshots in real Chromium against the demo engine (`OPL_DEMO=1`: the demo Spotify and TIDAL
 * fakes, the real plugins in their sandboxes, the real worker). A profile is made in the form
 * (one account, chosen collections, a weekly schedule, retention), a snapshot is taken and followed
 * live over server-sent events until it is listed complete and verified, verified again, restored
 * to TIDAL as a migration linked to History, downloaded (the file verifies offline), refused when
 * uploaded hostile, and deleted. Every request reaches the real engine.
 */

const baseUrl = inject('oplBaseUrl');

describe('the Snapshots page', () => {
  let session: BrowserSession;
  let page: Page;
  let scratch = '';
  let spotifyAccount = '';
  let tidalAccount = '';
  let snapshotId = '';
  let downloaded = '';
  let restoreJobId = '';
  const snapshots = () => page.locator('opl-snapshots-page');
  const row = () => snapshots().locator(`[data-testid="snapshot-row"][data-snapshot-id="${snapshotId}"]`);

  beforeAll(async () => {
    session = await openSession(inject('chromiumWsEndpoint'));
    page = session.page;
    scratch = await mkdtemp(join(tmpdir(), 'opl-e2e-snapshots-'));
    spotifyAccount = await connectByRedirect(baseUrl, 'spotify');
    tidalAccount = await connectByRedirect(baseUrl, 'tidal');
  }, 120_000);

  afterAll(async () => {
    await session?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('makes a profile of chosen collections with a weekly schedule and retention', async () => {
    await page.goto(`${baseUrl}/#/snapshots`);
    await page.getByRole('heading', { level: 1, name: 'Snapshots', exact: true }).waitFor();
    await snapshots().getByRole('button', { name: 'New profile' }).click();
    const form = snapshots().locator('[data-testid="profile-form"]');
    await form.getByLabel('Name').fill('Demo library');
    // Only the Spotify account just connected (other browser tests may have connected more).
    for (const fieldset of await form.locator('[data-testid="profile-account"]').all()) {
      if ((await fieldset.getAttribute('data-account-id')) !== spotifyAccount) await fieldset.locator('input[name="account"]').uncheck();
    }
    const spotify = form.locator(`[data-testid="profile-account"][data-account-id="${spotifyAccount}"]`);
    await spotify.getByRole('radio', { name: /Only these collections/ }).check();
    const collections = spotify.locator(`input[name="collection-${spotifyAccount}"]`);
    await collections.first().waitFor({ timeout: 30_000 });
    await spotify.locator(`input[name="collection-${spotifyAccount}"][value="liked"]`).check();
    await spotify.locator(`input[name="collection-${spotifyAccount}"]:not([value="liked"])`).first().check();
    await form.getByLabel('Take snapshots').selectOption('weekly');
    await form.getByLabel('Day of the week (weekly)').selectOption('friday');
    await form.getByLabel('Time', { exact: true }).fill('04:30');
    await form.getByLabel('Time zone').fill('Europe/Berlin');
    await form.getByLabel('Keep the newest (snapshots)').fill('5');
    await form.getByRole('button', { name: 'Create profile' }).click();

    const profile = snapshots().locator('[data-testid="profile-row"]').filter({ hasText: 'Demo library' });
    await profile.waitFor({ timeout: 15_000 });
    expect(await profile.textContent()).toContain('Every Friday at 04:30 (Europe/Berlin)');
    expect(await profile.textContent()).toContain('Keep the newest 5');
    expect(await profile.textContent()).toContain('2 chosen');
  });

  it('takes a snapshot now and follows it live until it is listed complete and verified', async () => {
    const profile = snapshots().locator('[data-testid="profile-row"]').filter({ hasText: 'Demo library' });
    const before = await snapshots().locator('[data-testid="snapshot-row"]').count();
    await profile.getByRole('button', { name: 'Take a snapshot now' }).click();
    await expect.poll(() => snapshots().locator('[data-testid="snapshot-row"]').count(), { timeout: 15_000 }).toBe(before + 1);
    snapshotId = (await snapshots().locator('[data-testid="snapshot-row"]').first().getAttribute('data-snapshot-id'))!;
    // No reload: the page learns of every change from the event stream.
    await expect.poll(() => row().getAttribute('data-status'), { timeout: 60_000 }).toMatch(/^(completed|partial)$/);
    expect(await row().locator('[data-testid="snapshot-counts"]').textContent()).toMatch(/^2 collections, \d+ items?$/);
    expect(await row().locator('[data-testid="snapshot-verification"]').textContent()).toContain('Verified');
    // Signed with the demo engine's own key, the one GET /api/snapshots/signing-key shows.
    const signing = (await (await fetch(`${baseUrl}/api/snapshots/signing-key`)).json()) as { key: { key_id: string } };
    expect(await row().locator('[data-testid="snapshot-verification"]').textContent()).toContain(`signed by ${signing.key.key_id}`);
    expect(await snapshots().locator('[data-testid="announcement"]').textContent()).toMatch(/^Snapshot (complete|partial)/);
  });

  it('verifies the stored archive again', async () => {
    await row().getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => snapshots().locator('[data-testid="announcement"]').textContent(), { timeout: 30_000 }).toMatch(/^Verified, signed by snap-[0-9a-f]{16}\.$/);
  });

  it('restores the snapshot to TIDAL as a migration linked to History', async () => {
    await row().getByRole('button', { name: 'Restore…' }).click();
    const panel = snapshots().locator('[data-testid="restore-panel"]');
    await panel.waitFor();
    expect(await panel.locator('input[name="collection"]').count()).toBe(2);
    // The demo TIDAL cannot write liked songs (no WRITE_LIBRARY): the playlist alone is restored.
    await panel.locator('input[name="collection"][value$=":liked"]').uncheck();
    await panel.getByLabel('Target account').selectOption(`tidal:${tidalAccount}`);
    await panel.getByRole('button', { name: 'Restore' }).click();
    const link = panel.locator('[data-testid="restore-job-link"]');
    // The engine's safe defaults may warn (other jobs moments ago): read, acknowledge, go ahead.
    await expect
      .poll(async () => (await link.count()) > 0 || (await panel.getByRole('checkbox', { name: /I have read the warnings/ }).count()) > 0, { timeout: 30_000 })
      .toBe(true)
      .catch(async (error: unknown) => {
        throw new Error(`${String(error)}; the page says: ${JSON.stringify(await snapshots().locator('opl-problem-notice').evaluateAll((notices) => notices.map((notice) => notice.shadowRoot?.textContent)))}`);
      });
    if ((await link.count()) === 0) {
      await panel.getByRole('checkbox', { name: /I have read the warnings/ }).check();
      await panel.getByRole('button', { name: 'Restore' }).click();
    }
    await link.waitFor({ timeout: 30_000 });
    const jobId = (await link.getAttribute('data-job-id'))!;
    restoreJobId = jobId;
    expect(await link.getAttribute('href')).toBe('#/history');
    const job = (await (await page.request.get(`${baseUrl}/api/migrations/${jobId}`)).json()) as { source_kind: string; target_provider: string };
    expect(job).toMatchObject({ source_kind: 'snapshot', target_provider: 'tidal' });
  });

  it('downloads the archive, which verifies offline', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), row().getByRole('link', { name: /Download/ }).click()]);
    downloaded = join(scratch, download.suggestedFilename());
    await download.saveAs(downloaded);
    expect(download.suggestedFilename()).toBe(`opl-snapshot-${snapshotId}.zip`);
    const { manifest } = await verifySnapshotArchive(downloaded);
    expect(manifest.snapshot_id).toBe(snapshotId);
    expect(manifest.collections).toHaveLength(2);
  });

  it('refuses uploads with the reason: the same snapshot again, and a hostile archive', async () => {
    const result = snapshots().locator('[data-testid="upload-result"]');
    await snapshots().getByLabel('Snapshot archive made by this or another engine').setInputFiles({ name: 'again.zip', mimeType: 'application/zip', buffer: await readFile(downloaded) });
    await snapshots().getByRole('button', { name: 'Upload' }).click();
    await expect.poll(() => result.textContent(), { timeout: 30_000 }).toContain('already stored');
    const hostile = craftZip(entriesOf(validParts()).map((entry) => (entry.name === 'collections/0001.jsonl' ? { ...entry, name: '../../evil.jsonl' } : entry)));
    await snapshots().getByLabel('Snapshot archive made by this or another engine').setInputFiles({ name: 'hostile.zip', mimeType: 'application/zip', buffer: hostile });
    await snapshots().getByRole('button', { name: 'Upload' }).click();
    await expect.poll(() => result.textContent(), { timeout: 30_000 }).toContain('Refused (path_traversal)');
    expect(await result.getAttribute('data-ok')).toBe('false');
    await page.screenshot({ path: join(tmpdir(), 'opl-snapshots-page.png'), fullPage: true });
  });

  it('compares the snapshot with the live playlist after a change on the service, then puts the playlist back as it was', async () => {
    const snapshot = (await (await page.request.get(`${baseUrl}/api/snapshots/${snapshotId}`)).json()) as { completed_at: string; collections: { restore_id: string; kind: string; item_count: number }[] };
    const collection = snapshot.collections.find((entry) => entry.kind === 'playlist')!;
    const playlistId = collection.restore_id.slice(collection.restore_id.indexOf(':') + 1);
    // A song added on the service (the demo's stand-in for the user's own app).
    const changed = await page.request.post(`${baseUrl}/api/demo/playlists/change`, { data: { account_id: spotifyAccount, playlist_id: playlistId, change: 'add' } });
    expect(changed.status()).toBe(200);
    const added = (await changed.json()) as { title: string };

    const history = snapshots().locator('[data-testid="snapshot-history"]');
    const compare = history.locator('[data-testid="compare-form"]');
    await compare.getByLabel('Snapshot').selectOption(snapshotId);
    await compare.getByLabel('Compare with').selectOption('live');
    await compare.getByLabel('Playlist').selectOption(collection.restore_id);
    await compare.getByRole('button', { name: 'Compare' }).click();
    const diff = history.locator('[data-testid="diff-collection"]');
    await diff.waitFor({ timeout: 30_000 });
    expect(await diff.getAttribute('data-status')).toBe('changed');
    expect(await diff.locator('[data-testid="diff-counts"]').textContent()).toMatch(/^1 added, 0 removed, 0 moved, \d+ in place$/);
    expect(await diff.locator('[data-change="added"]').textContent()).toContain(added.title);

    // As it was one second after the snapshot finished: that snapshot, whatever others hold.
    const rewind = history.locator('[data-testid="rewind-target-form"]');
    await rewind.getByLabel('Account').selectOption(spotifyAccount);
    await rewind.locator(`select[name="playlist"] option[value="${playlistId}"]`).waitFor({ state: 'attached', timeout: 30_000 });
    await rewind.getByLabel('Playlist').selectOption(playlistId);
    const local = await page.evaluate((iso) => {
      const at = new Date(Date.parse(iso) + 1_000);
      const pad = (value: number) => String(value).padStart(2, '0');
      return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
    }, snapshot.completed_at);
    await rewind.getByLabel('As it was at').fill(local);
    await rewind.getByRole('button', { name: 'Preview' }).click();
    const preview = history.locator('[data-testid="rewind-preview"]');
    await preview.waitFor({ timeout: 30_000 });
    expect(await preview.locator('[data-testid="rewind-counts"]').textContent()).toBe(`1 removed, 0 moved, 0 added → ${collection.item_count} songs`);
    expect(await preview.locator('[data-change="removed"]').textContent()).toContain(added.title);
    // Removals need the box ticked.
    await preview.getByRole('button', { name: 'Put it back' }).click();
    await expect.poll(() => history.locator('[data-testid="history-problem"]').count()).toBe(1);
    await preview.getByRole('checkbox', { name: /Remove 1 song added since then/ }).check();
    await preview.getByRole('button', { name: 'Put it back' }).click();
    const outcome = history.locator('[data-testid="rewind-outcome"]');
    await outcome.waitFor({ timeout: 60_000 });
    expect(await outcome.textContent()).toContain('The playlist is back as it was');

    // The live playlist equals the snapshot again.
    const after = (await (await page.request.get(`${baseUrl}/api/snapshots/${snapshotId}/collections/${encodeURIComponent(collection.restore_id)}/diff?against=live`)).json()) as { collections: { status: string }[] };
    expect(after.collections[0]!.status).toBe('unchanged');
  });

  it('deletes the snapshot once its restore has finished', async () => {
    // A snapshot whose restore may still read it cannot be deleted: let the restore settle first
    // (a restore left waiting for review is cancelled, as its owner would).
    const status = async () => ((await (await page.request.get(`${baseUrl}/api/migrations/${restoreJobId}`)).json()) as { status: string }).status;
    await expect.poll(status, { timeout: 120_000 }).toMatch(/^(completed|failed|cancelled|awaiting_review)$/);
    if ((await status()) === 'awaiting_review') {
      expect((await page.request.post(`${baseUrl}/api/migrations/${restoreJobId}/cancel`)).status()).toBeLessThan(300);
      await expect.poll(status, { timeout: 60_000 }).toBe('cancelled');
    }
    await row().getByRole('button', { name: /Delete the snapshot/ }).click();
    await expect.poll(() => row().count(), { timeout: 15_000 }).toBe(0);
    expect((await page.request.get(`${baseUrl}/api/snapshots/${snapshotId}`)).status()).toBe(404);
  });
});
