import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportManifestSchema, openPlaylistBundleSchema } from '@opl/plugin-sdk/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAvailableOn, seedCatalog, type SeedTrack } from '../../fakes/seed-catalog.ts';
import { startMigrationHarness, type JobJson, type MigrationHarness } from '../migrations/migration-harness.ts';
import { expectNoTemporaryFiles, postForFile, unzipArchive } from './export-test-kit.ts';

/**
 * History exports (SPEC "Export endpoints" rules 4, 5, 8): the playlist portion of a real
 * Spotify → TIDAL migration, rebuilt from the engine's stored items and the job's playlist
 * snapshot, with no provider call — and the refusals and historical warnings of older or damaged
 * jobs.
 */

const catalog = seedCatalog();
const onBoth = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'spotify') && isAvailableOn(track, 'tidal'));
const keys = (tracks: readonly SeedTrack[]) => tracks.map((track) => track.key);
const titles = (tracks: readonly SeedTrack[]) => tracks.map((track) => track.title);

const evening = onBoth.slice(0, 6);
const liked = onBoth.slice(6, 9);
const single = onBoth.slice(9, 12);
const second = onBoth.slice(12, 14);
const albumKeys = [...catalog.albums.keys()].slice(0, 1);

interface Problem {
  code: string;
  detail: string;
  reason?: string;
}

let h: MigrationHarness;
let ids: Record<string, string> = {};
let scratch = '';
let jobId = '';
let singleJobId = '';
let likedJobId = '';

const finished = (job: JobJson) => ['completed', 'failed', 'cancelled'].includes(job.status);
const sql = (text: string, values: unknown[] = []) => h.app.app.services.database.orm.em.getConnection().execute<Array<Record<string, unknown>>>(text, values);
const historyExport = (id: string, format: string) => postForFile(`${h.baseUrl}/api/exports/migrations/${id}`, { format });
const noTemporaryFiles = () => expectNoTemporaryFiles(h.app.app.services.exports.temporaryDirectory);

async function migrate(selection: Record<string, unknown>, direction: 'spotify→tidal' | 'tidal→spotify' = 'spotify→tidal'): Promise<string> {
  const route =
    direction === 'spotify→tidal'
      ? { source_account_id: h.spotifyAccount, target_provider: 'tidal', target_account_id: h.tidalAccount }
      : { source_account_id: h.tidalAccount, target_provider: 'spotify', target_account_id: h.spotifyAccount };
  const started = await h.api('/api/migrations', { method: 'POST', body: JSON.stringify({ ...route, acknowledge_warnings: true, selection }) });
  expect(started.status, started.text).toBe(202);
  const id = (started.json as { id: string }).id;
  await h.waitForJob(id, finished, 120_000);
  return id;
}

beforeAll(async () => {
  h = await startMigrationHarness({
    spotifyLibrary: {
      playlists: [
        { name: 'Evening Set', description: 'Slow songs for late hours', trackKeys: keys(evening) },
        { name: 'Second Set', trackKeys: keys(second) },
        { name: 'Single', trackKeys: keys(single) },
      ],
      savedAlbumKeys: albumKeys,
    },
    // Liked songs go from TIDAL to Spotify (TIDAL cannot receive liked songs).
    tidalLibrary: { likedTrackKeys: keys(liked) },
  });
  const { json } = await h.api(`/api/playlists?account_id=${h.spotifyAccount}`);
  ids = Object.fromEntries((json as { playlists: { id: string; name: string }[] }).playlists.map((playlist) => [playlist.name, playlist.id]));
  scratch = await mkdtemp(join(tmpdir(), 'opl-history-export-'));
  jobId = await migrate({ playlist_ids: [ids['Evening Set'], ids['Second Set']] });
  singleJobId = await migrate({ playlist_ids: [ids['Single']] });
  likedJobId = await migrate({ playlist_ids: ['liked'] }, 'tidal→spotify');
}, 400_000);

afterAll(async () => {
  await h?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('POST /api/exports/migrations/{job_id}', () => {
  it('the job completed', async () => {
    const { json } = await h.api(`/api/migrations/${jobId}`);
    expect(json).toMatchObject({ status: 'completed', outcome: 'completed' });
  });

  it.each(['csv', 'txt', 'm3u8', 'xspf'])('as %s: one file per playlist with the tracks in source order, without calling Spotify', async (format) => {
    const before = h.spotify.requests.length;
    const response = await historyExport(jobId, format);
    expect(response.status, response.bytes.toString()).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('x-open-playlist-schema-version')).toBe('1');
    expect(response.headers.get('x-open-playlist-warning-count')).toBe('0');
    const archive = await unzipArchive(scratch, response.bytes);
    expect(archive.tested).toMatch(/No errors detected/);
    expect(archive.names).toEqual([`Evening Set.${format}`, `Second Set.${format}`, 'manifest.json']);
    const manifest = exportManifestSchema.parse(archive.manifest);
    expect(manifest).toMatchObject({ format, source_provider: 'spotify', playlist_count: 2, warnings: [] });
    expect(manifest.entries.map((entry) => [entry.playlist_id, entry.playlist_name, entry.status, entry.track_count])).toEqual([
      [ids['Evening Set'], 'Evening Set', 'ok', 6],
      [ids['Second Set'], 'Second Set', 'ok', 2],
    ]);
    const text = await archive.read(`Evening Set.${format}`);
    const positions = titles(evening).map((title) => text.indexOf(title));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    if (format !== 'm3u8') expect(text).toContain('Slow songs for late hours');
    expect(h.spotify.requests.length).toBe(before);
    await noTemporaryFiles();
  });

  it('as json: one bundle with the playlist snapshots (description, owner)', async () => {
    const response = await historyExport(jobId, 'json');
    expect(response.status, response.bytes.toString()).toBe(200);
    const archive = await unzipArchive(scratch, response.bytes);
    expect(archive.names).toEqual(['open-playlist-bundle.json', 'manifest.json']);
    const bundle = openPlaylistBundleSchema.parse(JSON.parse(await archive.read('open-playlist-bundle.json')));
    expect(bundle.source_provider).toBe('spotify');
    const [playlist, secondSet] = bundle.playlists;
    expect(playlist).toMatchObject({ id: ids['Evening Set'], name: 'Evening Set', description: 'Slow songs for late hours', kind: 'PLAYLIST', track_count: 6 });
    expect(playlist!.owner_id).toBeTruthy();
    expect(playlist!.tracks.map((track) => track.title)).toEqual(titles(evening));
    expect(playlist!.tracks.every((track) => track.provider_uris['spotify']?.startsWith('spotify:track:'))).toBe(true);
    expect(secondSet!.tracks.map((track) => track.title)).toEqual(titles(second));
  });

  it('liked songs export as a LIKED_TRACKS playlist named like the source collection', async () => {
    const response = await historyExport(likedJobId, 'json');
    expect(response.status, response.bytes.toString()).toBe(200);
    expect(response.headers.get('content-disposition')).toContain('filename="Liked songs.json"');
    const bundle = openPlaylistBundleSchema.parse(response.json());
    expect(bundle.source_provider).toBe('tidal');
    expect(bundle.playlists[0]).toMatchObject({ id: 'liked', name: 'Liked songs', kind: 'LIKED_TRACKS' });
    expect(bundle.playlists[0]!.tracks.map((track) => track.title).sort()).toEqual(titles(liked).sort());
  });

  it('a one-playlist job downloads the file itself', async () => {
    const response = await historyExport(singleJobId, 'csv');
    expect(response.status, response.bytes.toString()).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="Single.csv"; filename*=UTF-8''Single.csv`);
    for (const title of titles(single)) expect(response.bytes.toString('utf8')).toContain(title);
  });

  it('an older job without a playlist snapshot still exports, with historical_playlist_metadata_partial', async () => {
    await sql(`update migration_job set selection = selection - 'playlist_snapshots' where id = ?`, [singleJobId]);
    const response = await historyExport(singleJobId, 'json');
    expect(response.status, response.bytes.toString()).toBe(200);
    const bundle = openPlaylistBundleSchema.parse(response.json());
    expect(bundle.playlists[0]).toMatchObject({ id: ids['Single'], name: 'Single', owner_id: null });
    expect(bundle.playlists[0]!.tracks.map((track) => track.title)).toEqual(titles(single));
    expect(bundle.warnings).toEqual([expect.objectContaining({ code: 'historical_playlist_metadata_partial', playlist_id: ids['Single'] })]);
    expect(response.headers.get('x-open-playlist-warning-count')).toBe('1');
  });

  it('corrupted item JSON: the track is rebuilt from the item columns, with historical_track_metadata_partial', async () => {
    const [item] = await sql(`select id, title from job_item where job_id = ? and source_playlist_id = ? and entity_type = 'track' and position = 1`, [jobId, ids['Evening Set']]);
    await sql(`update job_item set source_metadata = '{"title": 42, "broken": true}'::jsonb where id = ?`, [item!['id']]);
    const response = await historyExport(jobId, 'json');
    expect(response.status, response.bytes.toString()).toBe(200);
    const archive = await unzipArchive(scratch, response.bytes);
    const manifest = exportManifestSchema.parse(archive.manifest);
    expect(manifest.entries.map((entry) => entry.warning_codes)).toEqual([['historical_track_metadata_partial'], []]);
    expect(manifest.warnings).toEqual([expect.objectContaining({ code: 'historical_track_metadata_partial', playlist_id: ids['Evening Set'], count: 1 })]);
    const bundle = openPlaylistBundleSchema.parse(JSON.parse(await archive.read('open-playlist-bundle.json')));
    const rebuilt = bundle.playlists[0]!.tracks[1]!;
    expect(rebuilt.title).toBe(item!['title']);
    expect(rebuilt.artist).not.toBe('');
    expect(rebuilt.provider_uris['spotify']).toMatch(/^spotify:track:/);
    expect(bundle.playlists[0]!.tracks.map((track) => track.title)).toEqual(titles(evening));
  });

  it('refusals: unknown or another owner’s job ⇒ 404, unfinished ⇒ 409, expired detail ⇒ 410, unknown format ⇒ 422', async () => {
    expect((await historyExport('00000000-0000-4000-8000-000000000000', 'csv')).status).toBe(404);
    expect((await historyExport('not-a-job', 'csv')).status).toBe(404);

    const [{ owner_id: owner } = {}] = await sql(`select owner_id from migration_job where id = ?`, [singleJobId]);
    await sql(`update migration_job set owner_id = 'someone-else' where id = ?`, [singleJobId]);
    const theirs = await historyExport(singleJobId, 'csv');
    await sql(`update migration_job set owner_id = ? where id = ?`, [owner, singleJobId]);
    expect(theirs.status).toBe(404);

    await sql(`update migration_job set status = 'running' where id = ?`, [singleJobId]);
    const running = await historyExport(singleJobId, 'csv');
    await sql(`update migration_job set status = 'completed' where id = ?`, [singleJobId]);
    expect(running.status).toBe(409);
    expect(running.json<Problem>()).toMatchObject({ code: 'migration_state_conflict', reason: 'migration_not_finished' });

    await sql(`update migration_job set detail_expires_at = now() - interval '1 hour' where id = ?`, [singleJobId]);
    const expired = await historyExport(singleJobId, 'csv');
    await sql(`update migration_job set detail_expires_at = null where id = ?`, [singleJobId]);
    expect(expired.status).toBe(410);
    expect(expired.json<Problem>()).toMatchObject({ code: 'migration_detail_expired' });

    // More playlists than OPL_EXPORT_MAX_PLAYLISTS (100): this route takes no selection, so the answer must not ask for one.
    const [{ selection } = {}] = await sql(`select selection from migration_job where id = ?`, [singleJobId]);
    await sql(
      `update migration_job set selection = jsonb_set(selection, '{collections}', (select jsonb_agg(jsonb_build_object('id', 'p' || n, 'name', 'P' || n)) from generate_series(1, 101) n)) where id = ?`,
      [singleJobId],
    );
    const many = await historyExport(singleJobId, 'csv');
    await sql(`update migration_job set selection = ? where id = ?`, [JSON.stringify(selection), singleJobId]);
    expect(many.status).toBe(422);
    expect(many.json<Problem>()).toMatchObject({ reason: 'too_many_playlists' });
    expect(many.json<Problem>().detail).toContain(`/api/migrations/${singleJobId}/report`);
    expect(many.json<Problem>().detail).not.toContain('Select fewer');

    const format = await historyExport(singleJobId, 'pls');
    expect(format.status).toBe(422);
    expect(format.json<Problem>()).toMatchObject({ reason: 'unknown_format' });
    expect((await postForFile(`${h.baseUrl}/api/exports/migrations/${singleJobId}`, { format: 'csv', extra: 1 })).status).toBe(400);
    await noTemporaryFiles();
  });

  it('an albums-only migration has no playlist portion ⇒ 422 pointing at the report', async () => {
    const albumsJob = await migrate({ saved_album_ids: [h.spotify.albumIdOf(albumKeys[0]!)] });
    const response = await historyExport(albumsJob, 'csv');
    expect(response.status).toBe(422);
    expect(response.json<Problem>()).toMatchObject({ reason: 'no_playlist_portion' });
    expect(response.json<Problem>().detail).toContain('/report');
  }, 150_000);
});
