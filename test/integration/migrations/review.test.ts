import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAvailableOn, seedCatalog } from '../../fakes/seed-catalog.ts';
import { startMigrationHarness, type MigrationHarness } from './migration-harness.ts';

/**
 * Review of low-confidence matches, from an import source: nothing is created on the target while
 * items wait; approve, correct (another candidate) and skip; the decision is remembered for the
 * next migration of the same song; and the import record goes once the job succeeds.
 */

const catalog = seedCatalog();
const onTidal = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'tidal'));
const artistOf = (key: string) => catalog.artists.get(catalog.tracks.get(key)!.artistKeys[0]!)!.name;

let h: MigrationHarness;

beforeAll(async () => {
  h = await startMigrationHarness({ spotifyLibrary: {}, tidalLibrary: {} });
}, 300_000);

afterAll(async () => {
  await h?.close();
});

async function importText(lines: string[], name: string): Promise<string> {
  const { status, json } = await h.api('/api/imports/text-preview', { method: 'POST', body: JSON.stringify({ text: lines.join('\n'), name }) });
  expect(status, JSON.stringify(json)).toBe(201);
  return (json as { id: string }).id;
}

const byTitle = (title: string) => onTidal.find((track) => track.title === title)!;
const line = (track: { key: string; title: string }) => `${artistOf(track.key)} - ${track.title}`;
// The seed catalogue is deterministic: these two have equally good twins on TIDAL, so they wait for review.
const clear = onTidal[0]!;
const twinA = byTitle('Dancing Home');
const twinB = byTitle('Drive Midnight');

async function startFromImport(importId: string) {
  const started = await h.api('/api/migrations', {
    method: 'POST',
    body: JSON.stringify({ source_provider: 'import', source_account_id: importId, target_provider: 'tidal', target_account_id: h.tidalAccount, selection: { playlist_ids: ['0'] }, acknowledge_warnings: true }),
  });
  expect(started.status, JSON.stringify(started.json)).toBe(202);
  return (started.json as { id: string }).id;
}

type Item = { id: string; status: string; title: string; reason: string; review_action: string | null; review_original_status: string | null; candidates: { uri: string; title: string }[] };

describe('review', () => {
  let importId = '';
  let jobId = '';

  it('waits for review before creating anything on the target', async () => {
    importId = await importText([line(clear), line(twinA), line(twinB), `Somebody Else - ${onTidal[3]!.title}`], 'Needs A Look');
    jobId = await startFromImport(importId);
    const waiting = await h.waitForJob(jobId, (job) => ['awaiting_review', 'completed', 'failed'].includes(job.status));
    expect(waiting.status).toBe('awaiting_review');
    expect(waiting.counts).toMatchObject({ matched: 1, needs_review: 2, skipped: 1 });
    expect(h.tidal.playlistsOf(h.tidalUser.userId).map((playlist) => playlist.name)).not.toContain('Needs A Look');
  });

  it('takes a correction (another candidate) and keeps the original status and reason', async () => {
    const items = (await h.api(`/api/migrations/${jobId}/items?status=needs_review`)).json as Item[];
    const item = items.find((entry) => entry.title === twinA.title)!;
    expect(item.candidates.length).toBeGreaterThanOrEqual(2);
    const chosen = item.candidates[1]!.uri;
    const reviewed = await h.api(`/api/migrations/${jobId}/items/${item.id}/review`, { method: 'POST', body: JSON.stringify({ action: 'approve', target_uri: chosen }) });
    expect(reviewed.status).toBe(200);
    expect(reviewed.json).toMatchObject({ status: 'matched', target_uri: chosen, review_action: 'approve', review_original_status: 'needs_review', reason: 'Corrected in review.' });
    const again = await h.api(`/api/migrations/${jobId}/items/${item.id}/review`, { method: 'POST', body: JSON.stringify({ action: 'skip' }) });
    expect(again.status).toBe(409);
    const bogus = await h.api(`/api/migrations/${jobId}/items/${items.find((entry) => entry.title === twinB.title)!.id}/review`, { method: 'POST', body: JSON.stringify({ action: 'approve', target_uri: 'tidal:track:does-not-exist' }) });
    expect(bogus.status).toBe(422);
    expect((await h.api(`/api/migrations/${jobId}`)).json).toMatchObject({ status: 'awaiting_review' });
  });

  it('a batch skip resolves the review and the job resumes, writes, and removes the import', async () => {
    const skipped = await h.api(`/api/migrations/${jobId}/items/review`, { method: 'POST', body: JSON.stringify({ action: 'skip', item_ids: [] }) });
    expect((skipped.json as Item[]).map((item) => [item.title, item.status])).toEqual([[twinB.title, 'skipped']]);
    const job = await h.waitForJob(jobId, (candidate) => ['completed', 'failed'].includes(candidate.status));
    expect(job).toMatchObject({ status: 'completed', outcome: 'partial' });
    expect(job.counts).toMatchObject({ written: 2, skipped: 2 });
    const [playlist] = h.tidal.playlistsOf(h.tidalUser.userId).filter((candidate) => candidate.name === 'Needs A Look');
    expect(h.tidal.playlistEntries(playlist!.id)).toHaveLength(2);
    expect((await h.api(`/api/imports/${importId}`)).status).toBe(404);
  });

  it('remembers the decisions for the next migration of the same songs', async () => {
    const next = await importText([line(twinA), line(twinB)], 'Second Look');
    const secondJob = await startFromImport(next);
    const job = await h.waitForJob(secondJob, (candidate) => ['completed', 'failed', 'awaiting_review'].includes(candidate.status));
    expect(job.status).toBe('completed');
    const items = (await h.api(`/api/migrations/${secondJob}/items`)).json as Item[];
    expect(items.find((item) => item.title === twinA.title)).toMatchObject({ status: 'written', reason: 'Your earlier review decision for this source.' });
    expect(items.find((item) => item.title === twinB.title)!.reason).toMatch(/skipped this before/);
    // The user's own skip is not a loss: everything else arrived, so the job is complete.
    expect(job.outcome).toBe('completed');
  });

  it('a job whose every song the user chose to skip ends completed, not failed', async () => {
    const only = await importText([line(twinB)], 'Only Skipped');
    const jobId = await startFromImport(only);
    const job = await h.waitForJob(jobId, (candidate) => ['completed', 'failed', 'awaiting_review'].includes(candidate.status));
    expect(job).toMatchObject({ status: 'completed', outcome: 'completed' });
    expect(job.counts).toMatchObject({ written: 0, skipped: 1 });
  });

  it('searches the target for a correction when no candidate is right, and takes a found song', async () => {
    const unsure = byTitle('Moon Satellite');
    const jobOf = await startFromImport(await importText([line(unsure)], 'Search Look'));
    expect((await h.waitForJob(jobOf, (job) => ['awaiting_review', 'completed', 'failed'].includes(job.status))).status).toBe('awaiting_review');
    const [item] = (await h.api(`/api/migrations/${jobOf}/items?status=needs_review`)).json as Item[];
    const searchPath = `/api/migrations/${jobOf}/items/${item!.id}/search`;

    expect((await h.api(`${searchPath}?q=`)).status).toBe(400);
    expect((await h.api(`/api/migrations/${jobOf}/items/00000000-0000-4000-8000-000000000000/search?q=x`)).status).toBe(404);
    // Another song altogether: the reviewer knows better than the engine's candidates.
    const other = onTidal[10]!;
    const found = await h.api(`${searchPath}?q=${encodeURIComponent(`${other.title} ${artistOf(other.key)}`)}`);
    expect(found.status, JSON.stringify(found.json)).toBe(200);
    const results = (found.json as { results: { uri: string | null; title: string; artist: string }[] }).results;
    const pick = results.find((result) => result.title === other.title && result.uri !== null);
    expect(pick, JSON.stringify(results)).toBeDefined();
    expect(item!.candidates.map((candidate) => candidate.uri)).not.toContain(pick!.uri);

    const approved = await h.api(`/api/migrations/${jobOf}/items/${item!.id}/review`, { method: 'POST', body: JSON.stringify({ action: 'approve', target_uri: pick!.uri }) });
    expect(approved.status, JSON.stringify(approved.json)).toBe(200);
    expect(approved.json).toMatchObject({ status: 'matched', target_uri: pick!.uri, reason: 'Corrected in review.' });
    // Decided: no more searching for it.
    expect((await h.api(`${searchPath}?q=anything`)).status).toBe(409);
    const done = await h.waitForJob(jobOf, (job) => ['completed', 'failed'].includes(job.status));
    expect(done.status).toBe('completed');
    const [playlist] = h.tidal.playlistsOf(h.tidalUser.userId).filter((candidate) => candidate.name === 'Search Look');
    expect(h.tidal.playlistEntries(playlist!.id)!.map((entry) => entry.id)).toEqual([h.tidal.trackId(other.key)]);
  });
});
