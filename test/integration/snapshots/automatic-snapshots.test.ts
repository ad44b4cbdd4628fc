import { rename, rm, writeFile } from 'node:fs/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAvailableOn, seedCatalog, type SeedTrack } from '../../fakes/seed-catalog.ts';
import { startMigrationHarness, type MigrationHarness } from '../migrations/migration-harness.ts';
import { organizerClient, type OrganizerJobJson } from '../organizer/organizer-harness.ts';

/**
 * Automatic snapshots before destructive organizer jobs (issue 30 item 7), against the Spotify
 * fake: a song removal leaves a snapshot of the playlist as it was, which restores the removed
 * songs; a snapshot that cannot be taken keeps the job from changing anything.
 */

const catalog = seedCatalog();
const songs = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'spotify'));
const keys = (tracks: readonly SeedTrack[]) => tracks.map((track) => track.key);

interface SnapshotJson {
  id: string;
  status: string;
  profile_id: string | null;
  collections: { restore_id: string; name: string; item_count: number; status: string }[];
}
interface ProfileJson {
  id: string;
  name: string;
  automatic: { origin: string; account_id: string } | null;
  retention: { keep_last: number | null; keep_days: number | null } | null;
}

let h: MigrationHarness;
let client: ReturnType<typeof organizerClient>;
const playlist = (name: string) => h.spotify.playlistByName(h.spotifyUser.userId, name)!;

beforeAll(async () => {
  h = await startMigrationHarness({
    spotifyLibrary: {
      playlists: [
        { name: 'Keepers', trackKeys: keys(songs.slice(0, 6)) },
        { name: 'Flaky Reads', trackKeys: keys(songs.slice(10, 13)) },
      ],
    },
    tidalLibrary: {},
  });
  client = organizerClient(h);
}, 300_000);

afterAll(async () => {
  await h?.close();
});

async function automaticSnapshots(): Promise<{ profile: ProfileJson | undefined; snapshots: SnapshotJson[] }> {
  const profiles = ((await h.api('/api/snapshots/profiles')).json as { profiles: ProfileJson[] }).profiles;
  const profile = profiles.find((entry) => entry.automatic?.origin === 'organizer');
  const snapshots = ((await h.api('/api/snapshots')).json as { snapshots: SnapshotJson[] }).snapshots.filter((snapshot) => profile && snapshot.profile_id === profile.id);
  return { profile, snapshots };
}

describe('automatic snapshots before organizer jobs', () => {
  it('a song removal leaves a snapshot of the playlist as it was, and restoring it brings the songs back', async () => {
    const before = playlist('Keepers');
    const removedUris = [before.uris[1]!, before.uris[4]!];
    const { job } = await client.run({ account_id: h.spotifyAccount, action: 'remove_tracks', playlist_id: before.id, entries: [{ position: 1, uri: removedUris[0] }, { position: 4, uri: removedUris[1] }] });
    expect(job.status, JSON.stringify(job)).toBe('completed');
    expect(playlist('Keepers').uris).toHaveLength(4);

    const { profile, snapshots } = await automaticSnapshots();
    expect(profile).toMatchObject({ automatic: { origin: 'organizer', account_id: h.spotifyAccount }, retention: { keep_last: 20, keep_days: 30 } });
    expect(snapshots).toHaveLength(1);
    const [snapshot] = snapshots;
    expect(snapshot!.status).toBe('completed');
    expect(snapshot!.collections).toEqual([expect.objectContaining({ name: 'Keepers', item_count: 6, status: 'complete' })]);

    // The diff against the live playlist names exactly the removed songs.
    const restoreId = snapshot!.collections[0]!.restore_id;
    const diff = await h.api(`/api/snapshots/${snapshot!.id}/collections/${encodeURIComponent(restoreId)}/diff?against=live`);
    expect(diff.status, diff.text).toBe(200);
    expect((diff.json as { collections: { counts: unknown; removed: { position: number }[] }[] }).collections[0]).toMatchObject({ counts: { added: 0, removed: 2, moved: 0, unchanged: 4 }, removed: [{ position: 1 }, { position: 4 }] });

    // Restored to the same account as an ordinary migration: the removed songs are back.
    const started = await h.api('/api/migrations', {
      method: 'POST',
      body: JSON.stringify({ source_provider: 'snapshot', source_account_id: snapshot!.id, source_snapshot_id: snapshot!.id, target_provider: 'spotify', target_account_id: h.spotifyAccount, selection: { playlist_ids: [restoreId] }, acknowledge_warnings: true }),
    });
    expect(started.status, started.text).toBe(202);
    const restore = await h.waitForJob((started.json as { id: string }).id, (entry) => ['completed', 'failed', 'cancelled', 'awaiting_review', 'partial'].includes(entry.status), 120_000);
    expect(restore.status, JSON.stringify(restore)).toBe('completed');
    const after = h.spotify.playlistByName(h.spotifyUser.userId, 'Keepers')!;
    for (const uri of removedUris) expect(after.uris).toContain(uri);
    expect(new Set(after.uris)).toEqual(new Set(before.uris));
  });

  it('a snapshot that cannot be taken keeps the job from changing anything, and says why', async () => {
    const target = playlist('Flaky Reads');
    const preflight = await client.preflightOk({ account_id: h.spotifyAccount, action: 'remove_tracks', playlist_id: target.id, entries: [{ position: 0, uri: target.uris[0] }] });
    // The snapshot directory cannot be made (a file stands in its place): the snapshot before the removal fails.
    const root = h.app.app.services.config.snapshotDir;
    await rename(root, `${root}.aside`);
    await writeFile(root, 'not a directory');
    let job: OrganizerJobJson;
    try {
      const started = await client.createJob({ preflight_token: preflight.token, confirmation: preflight.confirmation_phrase });
      expect(started.status, started.text).toBe(202);
      job = await client.waitForJob((started.json as OrganizerJobJson).id, 120_000);
    } finally {
      await rm(root, { force: true });
      await rename(`${root}.aside`, root);
    }
    expect(job.status).toBe('failed');
    expect(job.items[0]).toMatchObject({ status: 'failed', retryable: true, error_code: 'snapshot_failed' });
    expect(job.items[0]!.error).toMatch(/automatic snapshot .* could not be written .*Nothing was changed/s);
    expect(playlist('Flaky Reads').uris).toEqual(target.uris);
    expect(h.spotify.requests.some((request) => request.method === 'DELETE' && request.path.startsWith(`/v1/playlists/${target.id}`))).toBe(false);

    // Once the playlist reads again, a retry snapshots it first and then removes the song.
    const retried = await client.retry(job.id);
    expect(retried.status, retried.text).toBe(202);
    const done = await client.waitForJob(job.id, 120_000);
    expect(done.status, JSON.stringify(done)).toBe('completed');
    expect(playlist('Flaky Reads').uris).toEqual(target.uris.slice(1));
    const { snapshots } = await automaticSnapshots();
    // The first test's snapshot, the failed one (kept as a record, under retention), and the retry's.
    expect(snapshots.map((snapshot) => snapshot.status).sort()).toEqual(['completed', 'completed', 'failed']);
    expect(snapshots.filter((snapshot) => snapshot.collections.some((collection) => collection.name === 'Flaky Reads' && collection.item_count === 3))).toHaveLength(1);
  });

  it('snapshotBeforeDestructive refuses when a playlist cannot be read whole, naming it', async () => {
    const database = new pg.Client({ connectionString: h.app.databaseUrl });
    await database.connect();
    let ownerId: string;
    try {
      ownerId = (await database.query<{ owner_id: string }>("select owner_id from snapshot_profile where automatic_origin = 'organizer'")).rows[0]!.owner_id;
    } finally {
      await database.end();
    }
    const target = playlist('Flaky Reads');
    const service = h.app.app.services.snapshots;
    h.spotify.failNext({ kind: 'server_error', status: 503, method: 'GET', pathPrefix: `/v1/playlists/${target.id}`, times: 1_000 });
    try {
      await expect(service.snapshotBeforeDestructive(ownerId, h.spotifyAccount, [target.id, playlist('Keepers').id], 'organizer')).rejects.toMatchObject({ code: 'auto_snapshot_failed', message: expect.stringMatching(/Flaky Reads.*could not be read completely/) });
    } finally {
      h.spotify.clearFailures();
    }
    const taken = await service.snapshotBeforeDestructive(ownerId, h.spotifyAccount, [target.id], 'sync');
    expect(taken).toMatchObject({ status: 'completed', collections: [expect.objectContaining({ name: 'Flaky Reads', status: 'complete' })] });
    // Each origin has its own automatic profile.
    const profiles = ((await h.api('/api/snapshots/profiles')).json as { profiles: ProfileJson[] }).profiles.filter((entry) => entry.automatic);
    expect(profiles.map((entry) => entry.automatic!.origin).sort()).toEqual(['organizer', 'sync']);
  });
});
