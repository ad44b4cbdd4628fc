import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportManifestSchema, openPlaylistBundleSchema } from '@opl/plugin-sdk/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAvailableOn, seedCatalog, type SeedTrack } from '../../fakes/seed-catalog.ts';
import { connectByRedirect, startMigrationHarness, type MigrationHarness } from '../migrations/migration-harness.ts';
import { expectNoTemporaryFiles, postForFile, unzipArchive } from './export-test-kit.ts';

/**
 * Live exports from a connected account (SPEC "Export endpoints" rules 1–3, 6, 7): the Spotify
 * plugin in the sandbox reads the stateful Spotify fake one playlist at a time, through the same
 * read path as `GET /api/playlists/{id}`; the real format plugins write the files.
 */

const catalog = seedCatalog();
const songs = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'spotify'));
const keys = (tracks: readonly SeedTrack[]) => tracks.map((track) => track.key);
const titles = (tracks: readonly SeedTrack[]) => tracks.map((track) => track.title);

const road = songs.slice(0, 5);
const quiet = songs.slice(5, 8);
const liked = songs.slice(8, 11);
// Read only by the failure tests, so nothing of them is cached when a failure is injected.
const fresh = [songs.slice(20, 22), songs.slice(22, 24), songs.slice(24, 26)];

interface Problem {
  code: string;
  detail: string;
  reason?: string;
  action?: { type: string };
  failures?: { playlist_id: string; reason: string }[];
}

let h: MigrationHarness;
let ids: Record<string, string> = {};
let scratch = '';

const exportOf = (body: Record<string, unknown>) => postForFile(`${h.baseUrl}/api/exports`, { source_provider: 'spotify', source_account_id: h.spotifyAccount, ...body });
const noTemporaryFiles = () => expectNoTemporaryFiles(h.app.app.services.exports.temporaryDirectory);

beforeAll(async () => {
  h = await startMigrationHarness({
    spotifyLibrary: {
      playlists: [
        { name: 'Road Songs', description: 'For the long drive', trackKeys: keys(road) },
        { name: 'Quiet Hours', trackKeys: keys(quiet) },
        ...fresh.map((tracks, index) => ({ name: `Fresh ${index + 1}`, trackKeys: keys(tracks) })),
      ],
      // A friend's playlist the account follows but may not read the items of (Spotify answers 403).
      followed: [{ name: 'Friend Mix', trackKeys: keys(songs.slice(30, 32)) }],
      likedTrackKeys: keys(liked),
    },
    tidalLibrary: {},
  });
  const { json } = await h.api(`/api/playlists?account_id=${h.spotifyAccount}`);
  ids = Object.fromEntries((json as { playlists: { id: string; name: string }[] }).playlists.map((playlist) => [playlist.name, playlist.id]));
  scratch = await mkdtemp(join(tmpdir(), 'opl-provider-export-'));
}, 300_000);

afterAll(async () => {
  await h?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('POST /api/exports from a connected Spotify account', () => {
  // First, while no track of the fresh playlists is cached: the failures must come from the provider.
  it('a rate limit part-way aborts at once: 429 with Retry-After, nothing kept', async () => {
    const before = h.spotify.requests.length;
    // The first fresh playlist reads fine; the second is refused.
    h.spotify.failNext({ kind: 'rate_limit', retryAfterS: 120, pathPrefix: `/v1/playlists/${ids['Fresh 2']}`, times: 20 });
    const response = await exportOf({ format: 'csv', selection: { playlist_ids: [ids['Fresh 1'], ids['Fresh 2'], ids['Fresh 3']] } });
    h.spotify.clearFailures();
    expect(response.status, response.bytes.toString()).toBe(429);
    expect(response.headers.get('retry-after')).toBe('120');
    expect(response.json<Problem>()).toMatchObject({ code: 'provider_rate_limited' });
    // Aborted at once: the third playlist was never read.
    const paths = h.spotify.requests.slice(before).map((request) => request.path);
    expect(paths.some((path) => path.startsWith(`/v1/playlists/${ids['Fresh 1']}`))).toBe(true);
    expect(paths.some((path) => path.startsWith(`/v1/playlists/${ids['Fresh 3']}`))).toBe(false);
    await noTemporaryFiles();
  });

  it('an expired connection aborts at once: 409 telling the user to reconnect, nothing kept', async () => {
    const before = h.spotify.requests.length;
    h.spotify.failNext({ kind: 'expired_token', pathPrefix: `/v1/playlists/${ids['Fresh 2']}`, times: 50 });
    const response = await exportOf({ format: 'json', selection: { playlist_ids: [ids['Fresh 3'], ids['Fresh 2'], ids['Fresh 1']] } });
    h.spotify.clearFailures();
    expect(response.status, response.bytes.toString()).toBe(409);
    expect(response.json<Problem>()).toMatchObject({ code: 'provider_auth_expired', action: { type: 'reconnect_account' } });
    expect(response.json<Problem>().detail).toMatch(/reconnect/i);
    const paths = h.spotify.requests.slice(before).map((request) => request.path);
    expect(paths.some((path) => path.startsWith(`/v1/playlists/${ids['Fresh 1']}`))).toBe(false);
    await noTemporaryFiles();
    // Reconnecting (the same Spotify user) makes the account usable again for the tests below.
    expect(await connectByRedirect(h.baseUrl, 'spotify')).toBe(h.spotifyAccount);
  });

  it('one playlist: the file itself, every track in order, with the export headers', async () => {
    const response = await exportOf({ format: 'csv', selection: { playlist_ids: [ids['Road Songs']] } });
    expect(response.status, response.bytes.toString()).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="Road Songs.csv"; filename*=UTF-8''Road%20Songs.csv`);
    expect(response.headers.get('content-length')).toBe(String(response.bytes.length));
    expect(response.headers.get('x-open-playlist-schema-version')).toBe('1');
    expect(response.headers.get('x-open-playlist-warning-count')).toBe('0');
    const text = response.bytes.toString('utf8');
    const positions = titles(road).map((title) => text.indexOf(title.startsWith('=') || title.startsWith('-') ? title.slice(1) : title));
    expect(positions.every((position) => position > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(text).toContain('For the long drive');
    expect(text).toContain('spotify:track:');
    await noTemporaryFiles();
  });

  it('several playlists with liked songs as json: a ZIP64 archive whose bundle and manifest name spotify', async () => {
    const response = await exportOf({ format: 'json', selection: { playlist_ids: ['liked', ids['Road Songs'], ids['Quiet Hours']] } });
    expect(response.status, response.bytes.toString()).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    const archive = await unzipArchive(scratch, response.bytes);
    expect(archive.tested).toMatch(/No errors detected/);
    expect(archive.names).toEqual(['open-playlist-bundle.json', 'manifest.json']);
    const manifest = exportManifestSchema.parse(archive.manifest);
    expect(manifest).toMatchObject({ format: 'json', source_provider: 'spotify', playlist_count: 3 });
    expect(manifest.entries.map((entry) => [entry.playlist_id, entry.playlist_name, entry.status, entry.track_count])).toEqual([
      ['liked', 'Liked songs', 'ok', 3],
      [ids['Road Songs'], 'Road Songs', 'ok', 5],
      [ids['Quiet Hours'], 'Quiet Hours', 'ok', 3],
    ]);
    const bundle = openPlaylistBundleSchema.parse(JSON.parse(await archive.read('open-playlist-bundle.json')));
    expect(bundle.source_provider).toBe('spotify');
    expect(bundle.playlists.map((playlist) => playlist.kind)).toEqual(['LIKED_TRACKS', 'PLAYLIST', 'PLAYLIST']);
    expect(bundle.playlists[1]!.tracks.map((track) => track.title)).toEqual(titles(road));
    expect(bundle.playlists[1]!.description).toBe('For the long drive');
    await noTemporaryFiles();
  });

  it('without a selection: every playlist of the account, liked songs first (the unreadable one as a placeholder)', async () => {
    const response = await exportOf({ format: 'm3u8' });
    expect(response.status, response.bytes.toString()).toBe(200);
    const archive = await unzipArchive(scratch, response.bytes);
    expect(archive.names.sort()).toEqual(['Liked songs.m3u8', 'Road Songs.m3u8', 'Quiet Hours.m3u8', 'Fresh 1.m3u8', 'Fresh 2.m3u8', 'Fresh 3.m3u8', 'manifest.json'].sort());
    const manifest = exportManifestSchema.parse(archive.manifest);
    expect(manifest.playlist_count).toBe(7);
    expect(manifest.entries[0]!.playlist_id).toBe('liked');
    expect(manifest.entries.filter((entry) => entry.status === 'error').map((entry) => [entry.playlist_name, entry.filename])).toEqual([['Friend Mix', '']]);
    expect(await archive.read('Road Songs.m3u8')).toContain('https://open.spotify.com/track/');
  });

  it('a playlist the account may not read: alone ⇒ 403; among several ⇒ a failed placeholder', async () => {
    const alone = await exportOf({ format: 'csv', selection: { playlist_ids: [ids['Friend Mix']] } });
    expect(alone.status, alone.bytes.toString()).toBe(403);
    expect(alone.json<Problem>()).toMatchObject({ code: 'playlist_access_denied', reason: 'playlist_access_denied' });
    const several = await exportOf({ format: 'csv', selection: { playlist_ids: [ids['Friend Mix'], ids['Quiet Hours']] } });
    expect(several.status, several.bytes.toString()).toBe(200);
    const manifest = exportManifestSchema.parse((await unzipArchive(scratch, several.bytes)).manifest);
    expect(manifest.entries.map((entry) => [entry.playlist_name, entry.status, entry.warning_codes])).toEqual([
      ['Friend Mix', 'error', ['playlist_read_failed']],
      ['Quiet Hours', 'ok', []],
    ]);
    expect(manifest.warnings[0]!.message).toContain('access denied');
    const none = await exportOf({ format: 'csv', selection: { playlist_ids: [ids['Friend Mix'], 'NoSuchPlaylist000000009'] } });
    expect(none.status).toBe(403);
    expect(none.json<Problem>()).toMatchObject({ reason: 'all_playlists_failed' });
    await noTemporaryFiles();
  });

  it('partial selection by source track ids: only those tracks, in playlist order, with partial_selection', async () => {
    const { json } = await h.api(`/api/playlists/${ids['Road Songs']}?account_id=${h.spotifyAccount}`);
    const trackIds = (json as { playlist: { tracks: { id: string }[] } }).playlist.tracks.map((track) => track.id);
    const response = await exportOf({ format: 'json', selection: { playlist_ids: [ids['Road Songs']], tracks: { [ids['Road Songs']!]: [trackIds[3], trackIds[1]] } } });
    expect(response.status, response.bytes.toString()).toBe(200);
    const bundle = openPlaylistBundleSchema.parse(response.json());
    expect(bundle.playlists[0]!.tracks.map((track) => track.title)).toEqual([road[1]!.title, road[3]!.title]);
    expect(bundle.warnings).toEqual([expect.objectContaining({ code: 'partial_selection', playlist_id: ids['Road Songs'], count: 2 })]);
    expect(response.headers.get('x-open-playlist-warning-count')).toBe('1');

    const unknown = await exportOf({ format: 'json', selection: { playlist_ids: [], tracks: { [ids['Road Songs']!]: [trackIds[0], 'no-such-track'] } } });
    expect(unknown.status).toBe(422);
    expect(unknown.json<Problem>()).toMatchObject({ reason: 'invalid_selection' });
    expect(unknown.json<Problem>().detail).toContain('"no-such-track"');
    await noTemporaryFiles();
  });

  it('a missing playlist among several: a failed placeholder and playlist_read_failed in the manifest', async () => {
    const response = await exportOf({ format: 'txt', selection: { playlist_ids: [ids['Quiet Hours'], 'NoSuchPlaylist000000000', ids['Road Songs']] } });
    expect(response.status, response.bytes.toString()).toBe(200);
    const archive = await unzipArchive(scratch, response.bytes);
    expect(archive.tested).toMatch(/No errors detected/);
    expect(archive.names).toEqual(['Quiet Hours.txt', 'Road Songs.txt', 'manifest.json']);
    const manifest = exportManifestSchema.parse(archive.manifest);
    expect(manifest.entries.map((entry) => [entry.playlist_id, entry.filename, entry.status, entry.track_count, entry.warning_codes])).toEqual([
      [ids['Quiet Hours'], 'Quiet Hours.txt', 'ok', 3, []],
      ['NoSuchPlaylist000000000', '', 'error', 0, ['playlist_read_failed']],
      [ids['Road Songs'], 'Road Songs.txt', 'ok', 5, []],
    ]);
    expect(manifest.warnings).toEqual([expect.objectContaining({ code: 'playlist_read_failed', playlist_id: 'NoSuchPlaylist000000000' })]);
    expect(response.headers.get('x-open-playlist-warning-count')).toBe('1');
    await noTemporaryFiles();
  });

  it('every playlist missing: no archive, a 404 naming each failure', async () => {
    const response = await exportOf({ format: 'csv', selection: { playlist_ids: ['NoSuchPlaylist000000001', 'NoSuchPlaylist000000002'] } });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
    const problem = response.json<Problem>();
    expect(problem).toMatchObject({ code: 'not_found', reason: 'all_playlists_failed' });
    expect(problem.failures?.map((failure) => failure.playlist_id)).toEqual(['NoSuchPlaylist000000001', 'NoSuchPlaylist000000002']);
    await noTemporaryFiles();
  });

  it('one missing playlist: an explicit 404', async () => {
    const response = await exportOf({ format: 'csv', selection: { playlist_ids: ['NoSuchPlaylist000000003'] } });
    expect(response.status).toBe(404);
    expect(response.json<Problem>()).toMatchObject({ code: 'not_found', reason: 'playlist_not_found' });
    await noTemporaryFiles();
  });

  it('refuses an account of another provider and an unknown account', async () => {
    const other = await exportOf({ source_provider: 'tidal', format: 'csv', selection: { playlist_ids: [ids['Road Songs']] } });
    expect(other.status).toBe(422);
    expect(other.json<Problem>()).toMatchObject({ reason: 'unsupported_source' });
    const unknown = await exportOf({ source_account_id: '00000000-0000-4000-8000-00000000abcd', format: 'csv', selection: { playlist_ids: [ids['Road Songs']] } });
    expect(unknown.status).toBe(404);
  });

  // Export bodies are streams, which the suite-wide secret scan (it sees string answers) never reads.
  it('no token the fakes issued appears in any exported file, bundle or manifest', async () => {
    const ledger = process.env['TEST_SECRET_LEDGER'];
    expect(ledger).toBeTruthy();
    const secrets = (await readFile(ledger!, 'utf8')).split('\n').map((secret) => secret.trim()).filter((secret) => secret.length >= 16);
    // The account's access and refresh tokens, at least: otherwise this test would prove nothing.
    expect(secrets.length).toBeGreaterThanOrEqual(2);
    const texts: string[] = [];
    for (const format of ['json', 'csv', 'm3u8', 'xspf', 'txt']) {
      // Every playlist: Friend Mix's placeholder carries the provider's own refusal message.
      const response = await exportOf({ format });
      expect(response.status, response.bytes.toString()).toBe(200);
      texts.push(...[...response.headers.entries()].map(([name, value]) => `${name}: ${value}`));
      const archive = await unzipArchive(scratch, response.bytes);
      for (const name of archive.names) texts.push(await archive.read(name));
      expect(exportManifestSchema.parse(archive.manifest).warnings.map((warning) => warning.code)).toContain('playlist_read_failed');
    }
    const single = await exportOf({ format: 'json', selection: { playlist_ids: [ids['Road Songs']] } });
    expect(single.status).toBe(200);
    texts.push(single.bytes.toString('utf8'));
    const leaked = secrets.filter((secret) => texts.some((text) => text.includes(secret)));
    expect(leaked.map((secret) => `${secret.slice(0, 6)}…`)).toEqual([]);
    await noTemporaryFiles();
  });
});
