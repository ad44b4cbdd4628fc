import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connectByRedirect } from '../integration/migrations/migration-harness.ts';
import { bundle } from './support/edge-case-fixtures.ts';
import { openSession, type BrowserSession } from './support/page.ts';

/**
 * The Library page in real Chromium against the demo engine (`OPL_DEMO=1`) with three demo
 * accounts (Spotify, TIDAL, Deezer), every request reaching the real engine: a refresh reads the
 * accounts, the demo playlists they share are grouped with provider badges, coverage bars and
 * reasons, a target account adds statuses, filters narrow the table, a split and a join persist
 * across a reload, the diff hands the songs one playlist lacks to a prefilled Migrate wizard, a
 * group is exported through a prefilled Export page, and its duplicates open in the Organizer. A
 * library of thousands of groups renders only a window of them (virtualized).
 */

const baseUrl = inject('oplBaseUrl');
const accounts: Record<string, string> = {};

beforeAll(async () => {
  for (const provider of ['spotify', 'tidal', 'deezer']) accounts[provider] = await connectByRedirect(baseUrl, provider);
}, 120_000);

describe('the Library page', () => {
  let session: BrowserSession;
  let page: Page;
  const library = () => page.locator('opl-library-page');
  const groupWith = (name: string, provider: string): Locator =>
    library()
      .locator('[data-testid="group"]')
      .filter({ has: page.locator(`[data-testid="member-row"][data-provider="${provider}"]`).filter({ has: page.getByRole('rowheader', { name }) }) });
  const row = (name: string, provider: string): Locator =>
    library()
      .locator(`[data-testid="member-row"][data-provider="${provider}"]`)
      .filter({ has: page.getByRole('rowheader', { name }) })
      .first();
  const member = (name: string, provider: string) => page.locator(`[data-testid="member-row"][data-provider="${provider}"]`).filter({ has: page.getByRole('rowheader', { name }) });
  // Late Night Focus is on all three demo services. The browser tests share one engine, so other
  // files may have made more playlists of that name (migrated copies): the group meant here is
  // the one holding all three.
  const focus = () =>
    groupWith('Late Night Focus', 'spotify')
      .filter({ has: member('Late Night Focus', 'tidal') })
      .filter({ has: member('Late Night Focus', 'deezer') })
      .first();
  const byKey = (key: string | null) => library().locator(`[data-testid="member-row"][data-key="${key}"]`);

  beforeAll(async () => {
    session = await openSession(inject('chromiumWsEndpoint'));
    page = session.page;
  });

  afterAll(async () => {
    await session?.close();
  });

  it('reads the accounts and groups the same playlist across the three services', async () => {
    await page.goto(`${baseUrl}/#/library`);
    await page.getByRole('heading', { level: 1, name: 'Library', exact: true }).waitFor();
    await library().getByRole('button', { name: 'Refresh all accounts' }).click();
    await library().locator('[data-testid="busy"]').getByText(/Reading/).waitFor();
    await expect.poll(async () => (await library().locator('[data-testid="busy"]').textContent())?.trim(), { timeout: 120_000 }).toBe('');
    await library().locator('[data-testid="groups-table"]').waitFor();

    const group = focus();
    await group.waitFor();
    const providers = await group.locator('[data-testid="member-row"]').evaluateAll((rows) => rows.map((element) => element.getAttribute('data-provider')));
    expect(providers).toEqual(expect.arrayContaining(['spotify', 'tidal', 'deezer']));
    expect(await group.locator('.provider').allTextContents()).toEqual(expect.arrayContaining(['spotify', 'tidal', 'deezer']));
    expect(await group.locator('[data-testid="reasons"]').textContent()).toMatch(/Songs in common|Same name|Migrated/);
    // Coverage: each read member shows how many of the group's songs it holds.
    const coverage = group.locator('[data-testid="member-row"][data-provider="spotify"] [data-testid="coverage"]').first();
    expect(await coverage.textContent()).toMatch(/\d+ of \d+ songs/);
    expect(await coverage.locator('meter').count()).toBe(1);
  }, 180_000);

  it('shows the status against a target account and filters by name and status', async () => {
    await library().getByLabel('Migration status in').selectOption({ value: accounts['tidal']! });
    const state = row('Late Night Focus', 'deezer').locator('.state');
    await expect.poll(() => state.getAttribute('data-state')).toMatch(/^(not_migrated|partially_migrated|migrated|in_sync)$/);
    expect(await state.textContent()).toMatch(/Not migrated|Migrated|Partially migrated|In sync/);
    expect(await row('Late Night Focus', 'tidal').locator('.state').textContent()).toContain('Target account');

    await library().getByLabel('Name').fill('late night');
    await expect.poll(async () => library().locator('[data-testid="group"]').evaluateAll((groups) => groups.every((group) => /late night/i.test(group.textContent ?? '')))).toBe(true);
    await library().getByLabel('Name').fill('');
    const status = library().getByLabel('Status', { exact: true });
    await status.selectOption('not_migrated');
    await expect.poll(async () => library().locator('[data-testid="group"]').evaluateAll((groups) => groups.length > 0 && groups.every((group) => group.querySelector('.state[data-state="not_migrated"]') !== null))).toBe(true);
    await status.selectOption('');
  });

  it('splits a playlist out of its group and joins it back, and both survive a reload', async () => {
    const tidalKey = await focus().locator('[data-testid="member-row"][data-provider="tidal"]').filter({ has: page.getByRole('rowheader', { name: 'Late Night Focus' }) }).first().getAttribute('data-key');
    const spotifyKey = await focus().locator('[data-testid="member-row"][data-provider="spotify"]').filter({ has: page.getByRole('rowheader', { name: 'Late Night Focus' }) }).first().getAttribute('data-key');
    const groupIdOf = (key: string | null) => byKey(key).locator('xpath=ancestor::tbody').getAttribute('data-group-id');
    expect(await groupIdOf(tidalKey)).toBe(await groupIdOf(spotifyKey));

    await byKey(tidalKey).getByRole('checkbox', { name: 'Select Late Night Focus on tidal' }).check();
    await library().getByRole('button', { name: 'Split out of their group' }).click();
    await expect.poll(async () => (await groupIdOf(tidalKey)) !== (await groupIdOf(spotifyKey))).toBe(true);
    await page.reload();
    await library().locator('[data-testid="groups-table"]').waitFor();
    expect(await groupIdOf(tidalKey)).not.toBe(await groupIdOf(spotifyKey));

    await byKey(tidalKey).getByRole('checkbox', { name: 'Select Late Night Focus on tidal' }).check();
    await byKey(spotifyKey).getByRole('checkbox', { name: 'Select Late Night Focus on spotify' }).check();
    await library().getByRole('button', { name: 'Join into one group' }).click();
    await expect.poll(async () => (await groupIdOf(tidalKey)) === (await groupIdOf(spotifyKey))).toBe(true);
    await page.reload();
    await library().locator('[data-testid="groups-table"]').waitFor();
    expect(await groupIdOf(tidalKey)).toBe(await groupIdOf(spotifyKey));
    expect(await byKey(tidalKey).locator('xpath=ancestor::tbody').locator('[data-testid="reasons"]').textContent()).toContain('Joined by you');
  }, 60_000);

  it('compares two playlists and hands the missing songs to a prefilled Migrate wizard', async () => {
    await row('Road Trip 2024', 'spotify').getByRole('button', { name: 'Compare' }).click();
    await row('Late Night Focus', 'tidal').getByRole('button', { name: 'Compare with this' }).click();
    const diff = library().locator('[data-testid="diff"]');
    await diff.waitFor();
    expect(await diff.locator('[data-testid="diff-summary"]').textContent()).toMatch(/\d+ songs in both · \d+ only in spotify · \d+ only in tidal/);
    const missing = await diff.locator('[data-testid="only-a"] li').count();
    expect(missing).toBeGreaterThan(0);

    await diff.getByRole('button', { name: new RegExp(`Migrate these ${missing} songs to`) }).click();
    await page.getByRole('heading', { level: 1, name: 'Migrate', exact: true }).waitFor();
    const migrate = page.locator('opl-migrate-page');
    const handover = migrate.locator('[data-testid="library-handover"]');
    await handover.waitFor();
    expect(await handover.textContent()).toContain(`${missing} songs of “Road Trip 2024”`);
    // The target is chosen already: the check runs against it.
    await migrate.getByRole('button', { name: 'Check migration' }).click();
    const preflight = migrate.locator('[data-testid="preflight"]');
    await preflight.waitFor({ timeout: 60_000 });
    expect(await preflight.textContent()).toContain(`1 collection with ${missing} tracks`);
  }, 120_000);

  it('exports a group through the Export page, the most complete copy chosen and another one on request', async () => {
    await page.goto(`${baseUrl}/#/library`);
    await library().locator('[data-testid="groups-table"]').waitFor();
    const group = focus();
    const holds = await group.locator('[data-testid="member-row"]').evaluateAll((rows) => rows.length);
    // The group is named after its fullest member: other files may have made a longer copy.
    const button = group.locator('[data-action="export-group"]');
    const groupName = (await button.getAttribute('aria-label'))!.replace(/^Export (.*)…$/, '$1');
    await button.click();
    await page.getByRole('heading', { level: 1, name: 'Export', exact: true }).waitFor();
    const exportPage = page.locator('opl-export-page');
    const handed = exportPage.locator('[data-testid="library-group"]');
    await handed.waitFor();
    const copies = handed.getByRole('group', { name: `Export “${groupName}” from` }).getByRole('radio');
    // One copy per account of the group (an account holding two of its playlists is one copy).
    expect(await copies.count()).toBeGreaterThanOrEqual(3);
    expect(await copies.count()).toBeLessThanOrEqual(holds);
    expect(await copies.first().isChecked()).toBe(true);
    expect(await exportPage.locator('[data-testid="export-summary"]').textContent()).toMatch(/1 playlist as one CSV file|playlists as one ZIP archive/);

    const tidal = handed.getByRole('radio', { name: /on tidal: “Late Night Focus”/ }).first();
    await tidal.check();
    const [file] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), exportPage.locator('#download').click()]);
    expect(file.suggestedFilename()).toBe('Late Night Focus.csv');
    await exportPage.locator('[data-testid="export-result"][data-file-name="Late Night Focus.csv"]').waitFor();

    await handed.getByRole('button', { name: 'Choose something else' }).click();
    await exportPage.getByRole('group', { name: 'Export from' }).waitFor();
  }, 120_000);

  it("opens the Organizer's duplicate view on a group's account, narrowed to its playlists", async () => {
    await page.goto(`${baseUrl}/#/library`);
    await library().locator('[data-testid="groups-table"]').waitFor();
    // The demo accounts hold "Workout" twice each: the organizer's duplicate scan pairs them.
    const workout = library().locator('[data-testid="group"]').filter({ has: page.getByRole('rowheader', { name: 'Workout' }) }).first();
    const accountIds = await workout.locator('[data-testid="member-row"]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-key')!.split('/')[0]));
    await workout.getByRole('button', { name: 'Duplicates of Workout in the Organizer…' }).click();
    await page.getByRole('heading', { level: 1, name: 'Organizer', exact: true }).waitFor();
    const organizer = page.locator('opl-organizer-page');
    const focusNote = organizer.locator('[data-testid="library-focus"]');
    await focusNote.waitFor({ timeout: 60_000 });
    expect(await focusNote.textContent()).toContain('duplicates of “Workout”');
    expect(accountIds).toContain(await organizer.getByTestId('organizer-account').inputValue());
    const pairs = organizer.locator('[data-testid="duplicate-pairs"] li');
    await pairs.first().waitFor({ timeout: 60_000 });
    expect(await pairs.allTextContents()).toEqual(expect.arrayContaining([expect.stringMatching(/^Workout and Workout \(\d+% overlap\)/)]));

    const shown = await pairs.count();
    await organizer.getByRole('button', { name: 'Show every duplicate pair' }).click();
    await focusNote.waitFor({ state: 'detached' });
    expect(await pairs.count()).toBeGreaterThanOrEqual(shown);
  }, 120_000);

  it('renders only a window of a large library, and scrolling, the keyboard and the filters reach its last group', async () => {
    // Three recent imports of a thousand one-song playlists each: three thousand groups more, made
    // cheaply through the import API (their names are distinct, so none of them group together).
    const imported: string[] = [];
    const pad = (index: number) => String(index).padStart(4, '0');
    try {
      for (const batch of [0, 1, 2]) {
        const body = bundle(1000, 1, (index) => `Virtual ${batch}-${pad(index)}`);
        const response = await fetch(`${baseUrl}/api/imports/preview`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-filename': `virtual-${batch}.json` }, body });
        expect(response.status).toBe(201);
        imported.push(((await response.json()) as { id: string }).id);
      }
      const workspace = (await (await fetch(`${baseUrl}/api/library/workspace`)).json()) as { groups: { id: string; name: string; members: unknown[] }[] };
      expect(workspace.groups.length).toBeGreaterThanOrEqual(3000);
      const rows = 1 + workspace.groups.reduce((total, group) => total + 1 + group.members.length, 0);
      const [first, last] = [workspace.groups[0]!, workspace.groups.at(-1)!];

      await page.goto(`${baseUrl}/#/library`);
      await page.reload();
      const table = library().locator('[data-testid="groups-table"]');
      await table.waitFor();
      expect(await library().locator('[data-testid="groups-shown"]').textContent()).toContain(`${workspace.groups.length} of ${workspace.groups.length} groups shown`);
      // A screen reader hears the whole table's size; the page holds only a window of it.
      expect(await table.getAttribute('aria-rowcount')).toBe(String(rows));
      const rendered = library().locator('[data-testid="group"]');
      await library().locator(`[data-group-id="${first.id}"]`).waitFor();
      expect(await rendered.count()).toBeLessThan(100);
      expect(await library().locator(`[data-group-id="${last.id}"]`).count()).toBe(0);

      // The focus stays on a row scrolled far away: its group stays in the page.
      const firstCheckbox = library().locator(`[data-group-id="${first.id}"] input[type="checkbox"]`).first();
      await firstCheckbox.focus();
      const box = library().locator('.table-scroll.virtual');
      await box.evaluate((element) => (element.scrollTop = element.scrollHeight));
      await library().locator(`[data-group-id="${last.id}"]`).waitFor();
      expect(await rendered.count()).toBeLessThan(100);
      expect(await firstCheckbox.evaluate((element) => (element.getRootNode() as ShadowRoot).activeElement === element)).toBe(true);
      const lastHead = library().locator(`[data-group-id="${last.id}"] tr.group-head`);
      expect(Number(await lastHead.getAttribute('aria-rowindex'))).toBe(rows - last.members.length);

      // The keyboard scrolls the table's box: Home brings the first groups back.
      await box.focus();
      await page.keyboard.press('Home');
      await expect.poll(() => box.evaluate((element) => element.scrollTop)).toBe(0);
      await library().locator(`[data-group-id="${first.id}"] tr.group-head`).waitFor();

      // A filter reaches a group at the very end straight away.
      await library().getByLabel('Name').fill('Virtual 2-0999');
      await expect.poll(() => library().locator('[data-testid="groups-shown"]').textContent()).toContain(`1 of ${workspace.groups.length} groups shown`);
      expect(await rendered.count()).toBe(1);
      expect(await rendered.locator('[data-testid="member-row"] th').textContent()).toContain('Virtual 2-0999');
      await library().getByLabel('Name').fill('');
      await expect.poll(() => rendered.count()).toBeLessThan(100);
    } finally {
      // The browser tests share one engine: take the three thousand groups away again.
      for (const id of imported) await fetch(`${baseUrl}/api/imports/${id}`, { method: 'DELETE' });
    }
  }, 180_000);
});
