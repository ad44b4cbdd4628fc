import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { isAvailableOn, seedCatalog } from '../fakes/seed-catalog.ts';
import { focused, openSession, type BrowserSession } from './support/page.ts';

/**
 * The Generator in a real browser against the demo engine (`OPL_DEMO=1`: the built-in demo model,
 * the demo TIDAL fake, the real plugin in its sandbox, the real worker). A newcomer connects TIDAL,
 * describes a playlist, watches the songs being found live, edits the draft with the keyboard
 * (reorder, remove, replace), approves, confirms, and finds the migration that wrote it. Every
 * request reaches the real engine.
 */

const baseUrl = inject('oplBaseUrl');

/** A song of the demo catalogue on TIDAL, named in the prompt so the demo model proposes it. */
const catalog = seedCatalog();
const seedSong = [...catalog.tracks.values()].find((track) => track.mediaType === 'track' && isAvailableOn(track, 'tidal') && !track.explicit && !/[(-]/.test(track.title))!;
const seedArtist = catalog.artists.get(seedSong.artistKeys[0]!)!.name;

describe('the Generator page', () => {
  let session: BrowserSession;
  let page: Page;
  const generator = () => page.locator('opl-generator-page');
  const items = () => generator().locator('[data-testid="draft-item"]');
  const itemIds = async () => items().evaluateAll((rows) => rows.map((row) => row.getAttribute('data-item-id')));
  const draftSection = () => generator().locator('[data-testid="draft"]');

  async function draftFromApi(id: string): Promise<{ items: { id: string; status: string; target_uri: string | null }[] }> {
    const response = await page.request.get(`${baseUrl}/api/generator/drafts/${id}`);
    return (await response.json()) as { items: { id: string; status: string; target_uri: string | null }[] };
  }

  async function waitForEdit(before: string): Promise<void> {
    await expect.poll(() => generator().locator('[data-testid="announcement"]').textContent(), { timeout: 15_000 }).not.toBe(before);
  }

  beforeAll(async () => {
    session = await openSession(inject('chromiumWsEndpoint'));
    page = session.page;
  });

  afterAll(async () => {
    await session?.close();
  });

  it('connects a demo TIDAL account', async () => {
    await page.goto(`${baseUrl}/#/connections`);
    const card = page.locator('opl-connections-page').locator('li[data-provider="tidal"]');
    await card.waitFor({ timeout: 30_000 });
    const pkce = card.getByRole('radio', { name: 'Sign in on the service’s website' });
    if ((await pkce.count()) > 0) await pkce.check();
    await card.getByRole('button', { name: 'Connect TIDAL' }).click();
    await page.locator('opl-connections-page').locator('[data-testid="auth-outcome"][data-outcome="connected"]').waitFor({ timeout: 30_000 });
  });

  it('generates with the demo model, labelled demo, and shows the songs found live with their match confidence', async () => {
    await page.goto(`${baseUrl}/#/generator`);
    await page.getByRole('heading', { level: 1, name: 'Generator', exact: true }).waitFor();
    await generator().locator('[data-testid="demo-model"]').waitFor({ timeout: 30_000 });
    expect(await generator().locator('[data-testid="demo-model"]').textContent()).toMatch(/demo/i);

    // Generate refuses an empty prompt and says why, with focus on the prompt.
    await generator().getByRole('button', { name: 'Generate' }).click();
    await generator().locator('#prompt-error').waitFor();

    await generator().getByLabel('Describe the playlist').fill(`${seedSong.title} ${seedArtist}, for a long drive`);
    await generator().getByLabel('Moods').fill('warm, bright');
    await generator().getByLabel('Number of songs').fill('5');
    await generator().getByRole('radio', { name: 'Leave them out' }).check();
    await generator().getByRole('group', { name: 'Find the songs on' }).getByRole('radio', { name: /on TIDAL/ }).first().check();
    const posts: unknown[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/generator/drafts') posts.push(request.postDataJSON());
    });
    await generator().getByRole('button', { name: 'Generate' }).click();

    await draftSection().waitFor({ timeout: 30_000 });
    await expect.poll(() => draftSection().getAttribute('data-status'), { timeout: 60_000 }).toBe('draft');
    expect(posts[0]).toMatchObject({ generation: { controls: { moods: ['warm', 'bright'], track_count: 5, explicit: 'exclude' } } });
    expect(await draftSection().locator('[data-testid="demo-badge"]').count()).toBe(1);
    expect(await items().count()).toBeGreaterThan(2);
    const first = items().filter({ has: page.locator('[data-testid="confidence"]') }).first();
    expect(await first.locator('[data-testid="confidence"]').textContent()).toMatch(/\d+% match/);
    // The scorer's explanation, on demand.
    await first.locator('[data-testid="explanation"] summary').click();
    expect((await first.locator('[data-testid="explanation"]').textContent())?.length).toBeGreaterThan(20);
    expect(await generator().locator('[data-testid="announcement"]').textContent()).toMatch(/The draft is ready: \d+ of \d+ songs found/);
  }, 120_000);

  it('reorders with the keyboard, removes and replaces songs, and the engine keeps each edit', async () => {
    const draftId = (await draftSection().getAttribute('data-draft-id'))!;
    const before = await itemIds();

    // Alt+Down on the first song's handle moves it one place down; focus stays on it.
    await items().first().locator('[data-action="handle"]').focus();
    let announced = (await generator().locator('[data-testid="announcement"]').textContent()) ?? '';
    await page.keyboard.press('Alt+ArrowDown');
    await waitForEdit(announced);
    const moved = [before[1], before[0], ...before.slice(2)];
    expect(await itemIds()).toEqual(moved);
    expect((await draftFromApi(draftId)).items.map((item) => item.id)).toEqual(moved);
    // Focus stayed on the moved song's handle: Alt+Up brings it back.
    expect((await focused(page)).text).toBe('⠿');
    announced = (await generator().locator('[data-testid="announcement"]').textContent()) ?? '';
    await page.keyboard.press('Alt+ArrowUp');
    await waitForEdit(announced);
    expect(await itemIds()).toEqual(before);
    expect((await draftFromApi(draftId)).items.map((item) => item.id)).toEqual(before);

    // Remove the last song (keyboard: Enter on its Remove button).
    const last: Locator = items().last();
    const lastId = (await last.getAttribute('data-item-id'))!;
    announced = (await generator().locator('[data-testid="announcement"]').textContent()) ?? '';
    await last.locator('[data-action="remove"]').focus();
    await page.keyboard.press('Enter');
    await waitForEdit(announced);
    expect(await generator().locator(`[data-item-id="${lastId}"]`).getAttribute('data-status')).toBe('removed');
    expect((await draftFromApi(draftId)).items.find((item) => item.id === lastId)?.status).toBe('removed');

    // Replace the first resolved song with a search result of the target.
    const target = items().filter({ has: page.locator('[data-testid="confidence"]') }).first();
    const targetId = (await target.getAttribute('data-item-id'))!;
    const oldUri = (await draftFromApi(draftId)).items.find((item) => item.id === targetId)!.target_uri;
    await target.locator('[data-action="replace"]').click();
    expect(await target.locator('[data-action="replace"]').getAttribute('aria-expanded')).toBe('true');
    await generator().getByLabel(/search the target/).fill(seedArtist);
    await generator().getByRole('button', { name: 'Search' }).click();
    const results = generator().locator('[data-testid="search-results"] li');
    await results.first().waitFor({ timeout: 30_000 });
    const uses = generator().locator('[data-testid="search-results"] [data-action="use-result"]');
    expect(await uses.count()).toBeGreaterThan(0);
    // A result that is not the song already there.
    const choice = generator().locator(`[data-testid="search-results"] li:not([data-uri="${oldUri}"])`).locator('[data-action="use-result"]').first();
    announced = (await generator().locator('[data-testid="announcement"]').textContent()) ?? '';
    await choice.click();
    await waitForEdit(announced);
    const replaced = (await draftFromApi(draftId)).items.find((item) => item.id === targetId)!;
    expect(replaced.target_uri).not.toBe(oldUri);
    expect(replaced.status).toBe('resolved');
  }, 120_000);

  it('approves, confirms, and links to the migration that writes the draft', async () => {
    const draftId = (await draftSection().getAttribute('data-draft-id'))!;
    let announced = (await generator().locator('[data-testid="announcement"]').textContent()) ?? '';
    await generator().getByRole('button', { name: 'Approve every song found' }).click();
    await waitForEdit(announced);
    expect(await generator().locator('[data-testid="draft-item"][data-status="resolved"][data-approved="false"]').count()).toBe(0);
    await generator().getByLabel('Playlist name').fill('Long Drive (generated)');
    announced = (await generator().locator('[data-testid="announcement"]').textContent()) ?? '';
    await generator().getByRole('button', { name: 'Rename' }).click();
    await waitForEdit(announced);
    await generator().getByRole('checkbox', { name: /I have read the engine's warnings/ }).check();
    const confirm = generator().locator('[data-action="confirm"]');
    expect(await confirm.textContent()).toMatch(/Write \d+ songs to .* on TIDAL/);
    await confirm.click();

    const link = generator().locator('[data-testid="job-link"]');
    await link.waitFor({ timeout: 30_000 });
    const jobId = (await link.getAttribute('data-job-id'))!;
    expect(await link.getAttribute('href')).toBe('#/history');
    const approved = (await draftFromApi(draftId)).items.filter((item) => item.status === 'resolved').length;
    let job: { status: string; source_kind: string; counts: { written: number } } = { status: '', source_kind: '', counts: { written: 0 } };
    await expect
      .poll(
        async () => {
          job = (await (await page.request.get(`${baseUrl}/api/migrations/${jobId}`)).json()) as typeof job;
          return job.status;
        },
        { timeout: 120_000, interval: 1_000 },
      )
      .toBe('completed');
    expect(job.source_kind).toBe('generated');
    expect(job.counts.written).toBe(approved);

    await link.click();
    await page.getByRole('heading', { level: 1, name: 'History', exact: true }).waitFor();
    await page.locator('opl-history-page [data-testid="migrations-table"] tbody tr').filter({ hasText: 'Long Drive (generated)' }).waitFor({ timeout: 30_000 });
    // The page closes the progress stream itself when the generation ends (Chromium reports that as aborted).
    expect(session.errors.filter((error) => !/status of (4\d\d|5\d\d)/.test(error) && !/\/events net::ERR_ABORTED$/.test(error))).toEqual([]);
  }, 180_000);
  it('generates from my library: the toggle sends grounding=library and the draft holds only songs I have', async () => {
    // The listener's library as the engine knows it: a playlist of the demo TIDAL account, read once.
    const accounts = (await (await page.request.get(`${baseUrl}/api/auth/accounts`)).json()) as { accounts: { id: string; provider: string }[] };
    const tidal = accounts.accounts.find((account) => account.provider === 'tidal')!;
    const list = (await (await page.request.get(`${baseUrl}/api/playlists?account_id=${tidal.id}`)).json()) as { playlists: { id: string; track_count?: number | null }[] };
    const read = async (id: string) => ((await (await page.request.get(`${baseUrl}/api/playlists/${encodeURIComponent(id)}?account_id=${tidal.id}`)).json()) as { playlist: { tracks: { title: string; artist: string; is_local: boolean }[] } }).playlist;
    let mine: { title: string; artist: string; is_local: boolean }[] = [];
    for (const entry of list.playlists) {
      mine = (await read(entry.id)).tracks.filter((track) => !track.is_local);
      if (mine.length >= 3) break;
    }
    expect(mine.length).toBeGreaterThanOrEqual(3);

    await page.goto(`${baseUrl}/#/generator`);
    await generator().locator('[data-testid="demo-model"]').waitFor({ timeout: 30_000 });
    // The demo model picks the offered songs sharing the most words with the request: naming the
    // songs by title and artist makes them outscore songs that share a title word or two.
    await generator().getByLabel('Describe the playlist').fill(`${mine[0]!.title} ${mine[0]!.artist} ${mine[1]!.title} ${mine[1]!.artist}`);
    await generator().getByLabel('Number of songs').fill('3');
    // Songs to start from are offered first, whatever else the (shared) engine has read.
    await generator().getByLabel('Start from these songs').fill(`${mine[0]!.title}, ${mine[1]!.title}`);
    await generator().getByRole('radio', { name: 'Allow' }).check();
    const library = generator().getByRole('radio', { name: 'Only songs I already have' });
    await library.focus();
    await page.keyboard.press('Space');
    expect(await library.isChecked()).toBe(true);
    await generator().getByRole('group', { name: 'Find the songs on' }).getByRole('radio', { name: /on TIDAL/ }).first().check();
    const posts: unknown[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/generator/drafts') posts.push(request.postDataJSON());
    });
    await generator().getByRole('button', { name: 'Generate' }).click();
    await expect.poll(() => draftSection().getAttribute('data-status'), { timeout: 60_000 }).toBe('draft');
    expect(posts[0]).toMatchObject({ grounding: 'library', generation: { controls: { track_count: 3 } } });
    await generator().locator('[data-testid="library-note"]').waitFor();

    const draftId = (await draftSection().getAttribute('data-draft-id'))!;
    const draft = (await (await page.request.get(`${baseUrl}/api/generator/drafts/${draftId}`)).json()) as { generation: { grounding: { mode: string } } & Record<string, unknown>; items: { status: string; title: string }[] };
    expect(draft.generation.grounding.mode).toBe('library');
    expect(draft.items).toHaveLength(3);
    // The browser tests share one engine, so the library offered holds what other files read and
    // imported too (which songs may be offered is the integration tests' business): here, the songs
    // to start from are offered first and the demo model picks offered songs by the request's words.
    // The copy offered may be another service's, titled with a suffix ("… - Remastered 2011").
    const folded = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
    const named = (title: string) => [mine[0]!, mine[1]!].some((song) => folded(title).startsWith(folded(song.title)));
    const picked = draft.items.map((item) => item.title);
    expect(picked.filter(named).length, `picked ${picked.join(', ')}; named ${mine[0]!.title}, ${mine[1]!.title}; ${JSON.stringify(draft.generation)}`).toBeGreaterThanOrEqual(1);
    expect(await items().count()).toBe(3);
    expect(session.errors.filter((error) => !/status of (4\d\d|5\d\d)/.test(error) && !/\/events net::ERR_ABORTED$/.test(error))).toEqual([]);
  }, 120_000);
});
