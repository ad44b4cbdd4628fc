import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotCommand } from '../../../core/cli/snapshot.command.ts';
import { loadConfig } from '../../../core/config/index.ts';
import { readSnapshotCollections, verifySnapshotArchive } from '../../../core/services/snapshots/archive/index.ts';
import { isAvailableOn, seedCatalog, type SeedTrack } from '../../fakes/seed-catalog.ts';
import { craftZip } from '../../support/zip-crafter.ts';
import { entriesOf, signedEntriesOf, testSigningKey, validParts } from '../../unit/core/snapshots/snapshot-parts.ts';
import { startMigrationHarness, type MigrationHarness } from '../migrations/migration-harness.ts';

/**
 * Library snapshots end to end against the Spotify fake (SPEC "Snapshots"): a profile, a snapshot
 * taken by the real job one collection at a time — a playlist the account may not read recorded
 * as a failure, the rest a usable partial archive —, verified, downloaded, uploaded elsewhere,
 * refused when hostile, deleted; and the startup reconciliation of the snapshot directory.
 */

const catalog = seedCatalog();
const songs = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'spotify') && isAvailableOn(track, 'tidal'));
const keys = (tracks: readonly SeedTrack[]) => tracks.map((track) => track.key);

interface SnapshotJson {
  id: string;
  status: string;
  origin: string;
  library_id: string;
  archive_bytes: number | null;
  counts: Record<string, number>;
  progress: Record<string, unknown>;
  partial_failures: { member: string; source_collection_id: string | null; failure: { code: string; message: string } }[];
  collections: { member: string; kind: string; name: string; status: string; item_count: number }[];
  verification_reason: string | null;
  verified_at: string | null;
}

let h: MigrationHarness;
let root = '';
let scratch = '';
let ids: Record<string, string> = {};

async function waitForSnapshot(id: string): Promise<SnapshotJson> {
  for (let attempt = 0; attempt < 240; attempt += 1) {
    const { json } = await h.api(`/api/snapshots/${id}`);
    const snapshot = json as SnapshotJson;
    if (!['queued', 'running'].includes(snapshot.status)) return snapshot;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`snapshot ${id} never finished`);
}

async function upload(bytes: Buffer): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${h.baseUrl}/api/snapshots/upload`, { method: 'POST', headers: { 'content-type': 'application/zip' }, body: new Uint8Array(bytes) });
  return { status: response.status, json: await response.json() };
}

beforeAll(async () => {
  h = await startMigrationHarness({
    spotifyLibrary: {
      playlists: [
        { name: 'Road Songs', description: 'For the long drive', trackKeys: keys(songs.slice(0, 5)) },
        { name: 'Quiet Hours', trackKeys: keys(songs.slice(5, 8)) },
      ],
      followed: [{ name: 'Friend Mix', trackKeys: keys(songs.slice(30, 32)) }],
      likedTrackKeys: keys(songs.slice(8, 11)),
    },
    tidalLibrary: {},
  });
  root = h.app.app.services.config.snapshotDir;
  scratch = await mkdtemp(join(tmpdir(), 'opl-snapshots-'));
  const { json } = await h.api(`/api/playlists?account_id=${h.spotifyAccount}`);
  ids = Object.fromEntries((json as { playlists: { id: string; name: string }[] }).playlists.map((playlist) => [playlist.name, playlist.id]));
}, 300_000);

afterAll(async () => {
  await h?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('snapshot profiles', () => {
  it('are created, read, changed, listed and deleted; an account not connected is refused', async () => {
    const created = await h.api('/api/snapshots/profiles', { method: 'POST', body: JSON.stringify({ name: 'Everything', selection: { accounts: [{ account_id: h.spotifyAccount, collections: 'all' }] } }) });
    expect(created.status).toBe(201);
    const profile = created.json as { id: string; library_id: string };
    expect(profile.library_id).toMatch(/^[0-9a-f-]{36}$/);
    const changed = await h.api(`/api/snapshots/profiles/${profile.id}`, { method: 'PUT', body: JSON.stringify({ name: 'Renamed', selection: { accounts: [{ account_id: h.spotifyAccount, collections: ['liked'] }] } }) });
    expect(changed.json).toMatchObject({ name: 'Renamed', library_id: profile.library_id });
    expect(((await h.api('/api/snapshots/profiles')).json as { profiles: unknown[] }).profiles).toHaveLength(1);
    expect((await h.api(`/api/snapshots/profiles/${profile.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await h.api(`/api/snapshots/profiles/${profile.id}`)).status).toBe(404);

    const unknown = await h.api('/api/snapshots/profiles', { method: 'POST', body: JSON.stringify({ name: 'X', selection: { accounts: [{ account_id: randomUUID(), collections: 'all' }] } }) });
    expect(unknown.status).toBe(422);
    expect(unknown.json).toMatchObject({ code: 'invalid_selection' });
    const invalid = await h.api('/api/snapshots/profiles', { method: 'POST', body: JSON.stringify({ name: '', selection: { accounts: [] } }) });
    expect(invalid.status).toBe(400);
  });
});

describe('taking, downloading, uploading and deleting snapshots', () => {
  let snapshot: SnapshotJson;
  let downloaded = '';
  let instanceKey = '';

  it('takes a snapshot as a job: every collection written, an unreadable one recorded, the archive verified', async () => {
    const profile = (
      await h.api('/api/snapshots/profiles', {
        method: 'POST',
        body: JSON.stringify({ name: 'Spotify library', selection: { accounts: [{ account_id: h.spotifyAccount, collections: ['liked', ids['Road Songs'], ids['Quiet Hours'], ids['Friend Mix']] }] } }),
      })
    ).json as { id: string; library_id: string };
    const queued = await h.api('/api/snapshots', { method: 'POST', body: JSON.stringify({ profile_id: profile.id }) });
    expect(queued.status).toBe(202);
    snapshot = await waitForSnapshot((queued.json as SnapshotJson).id);
    expect(snapshot).toMatchObject({ status: 'partial', origin: 'created', library_id: profile.library_id, verification_reason: null });
    expect(snapshot.counts).toEqual({ collections: 4, items: 3 + 5 + 3, partial_collections: 0, failed_collections: 1 });
    expect(snapshot.progress).toMatchObject({ collections_done: 4, collections_total: 4, items: 11 });
    expect(snapshot.collections.map((collection) => [collection.kind, collection.name, collection.status])).toEqual([
      ['liked_tracks', expect.any(String), 'complete'],
      ['playlist', 'Road Songs', 'complete'],
      ['playlist', 'Quiet Hours', 'complete'],
      ['playlist', 'Friend Mix', 'failed'],
    ]);
    expect(snapshot.partial_failures).toEqual([{ member: 'collections/0004.jsonl', source_id: 's1', source_collection_id: ids['Friend Mix'], failure: { code: 'access_denied', message: expect.any(String) } }]);
    // Only the finished archive is in the directory, under its generated name.
    expect(await readdir(root)).toEqual([`${snapshot.id}.zip`]);
    // Signed with the instance's key, whose public half the API shows and whose file only the engine reads.
    const signing = (await h.api('/api/snapshots/signing-key')).json as { signing: boolean; key: { key_id: string; public_key: string } };
    expect(signing).toMatchObject({ signing: true, key: { algorithm: 'ed25519', key_id: expect.stringMatching(/^snap-[0-9a-f]{16}$/) } });
    expect((snapshot as SnapshotJson & { signature: unknown }).signature).toEqual(signing.key);
    const keyFile = join(h.app.app.services.config.dataDir, 'snapshot-signing.key');
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    const secret = (JSON.parse(await readFile(keyFile, 'utf8')) as { secret_key: string }).secret_key;
    expect(JSON.stringify(signing)).not.toContain(secret.slice(0, 32));
    instanceKey = signing.key.public_key;
  });

  it('downloads the archive, which verifies offline and holds the tracks in order', async () => {
    const response = await fetch(`${h.baseUrl}/api/snapshots/${snapshot.id}/archive`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.length).toBe(snapshot.archive_bytes);
    downloaded = join(scratch, 'downloaded.zip');
    await writeFile(downloaded, bytes);
    const { manifest, signature } = await verifySnapshotArchive(downloaded, undefined, { trustedKeys: [instanceKey] });
    expect(manifest.snapshot_id).toBe(snapshot.id);
    expect(signature?.public_key).toBe(instanceKey);
    expect(manifest.sources).toEqual([{ source_id: 's1', provider: 'spotify', label: expect.stringContaining('Source Listener') }]);
    const titles: string[] = [];
    await readSnapshotCollections(downloaded, ['collections/0002.jsonl'], (_collection, record) => {
      titles.push((record as { title: string }).title);
    });
    expect(titles).toEqual(songs.slice(0, 5).map((song) => song.title));
    const verified = await h.api(`/api/snapshots/${snapshot.id}/verify`, { method: 'POST' });
    expect(verified.json).toMatchObject({ verification_reason: null });
  });

  it('refuses a hostile upload with its reason code and keeps nothing of it', async () => {
    const parts = validParts();
    const hostile = craftZip(entriesOf(parts).map((entry) => (entry.name === 'collections/0001.jsonl' ? { ...entry, name: '../../../../tmp/evil.jsonl' } : entry)));
    const refused = await upload(hostile);
    expect(refused.status).toBe(422);
    expect(refused.json).toMatchObject({ code: 'snapshot_verification_failed', reason: 'path_traversal' });
    expect(await readdir(root)).toEqual([`${snapshot.id}.zip`]);
    // A signed archive whose manifest was changed after signing (its checksum line made to match).
    const forged = signedEntriesOf(validParts(), testSigningKey(), { signedBytes: (text) => Buffer.from(`opl-snapshot-manifest-v1\n${text.replace('Spotify (Alex)', 'Spotify (Eve)')}`) });
    const refusedForgery = await upload(craftZip(forged));
    expect(refusedForgery.status).toBe(422);
    expect(refusedForgery.json).toMatchObject({ code: 'snapshot_verification_failed', reason: 'signature_mismatch' });
    expect(await readdir(root)).toEqual([`${snapshot.id}.zip`]);
  });

  it('knows an archive it already holds, and takes it back as an upload once deleted', async () => {
    const bytes = await import('node:fs/promises').then((fs) => fs.readFile(downloaded));
    expect((await upload(bytes)).status).toBe(409);
    expect((await h.api(`/api/snapshots/${snapshot.id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await readdir(root)).toEqual([]);
    expect((await h.api(`/api/snapshots/${snapshot.id}`)).status).toBe(404);
    const uploaded = await upload(bytes);
    expect(uploaded.status).toBe(201);
    // An upload is a row of its own (a fresh id: an id of the archive's would tell whether another owner holds it).
    expect(uploaded.json).toMatchObject({ origin: 'uploaded', status: 'partial', library_id: snapshot.library_id, counts: snapshot.counts });
    const uploadedId = (uploaded.json as SnapshotJson).id;
    expect(uploadedId).not.toBe(snapshot.id);
    expect(await readdir(root)).toEqual([`${uploadedId}.zip`]);
    const listed = (await h.api('/api/snapshots')).json as { snapshots: SnapshotJson[] };
    expect(listed.snapshots.map((entry) => entry.id)).toEqual([uploadedId]);
    snapshot = { ...snapshot, id: uploadedId };
  });

  it('restores collections to another provider as an ordinary migration, and a second restore writes nothing twice', async () => {
    const road = `s1:${ids['Road Songs']}`;
    const restore = () =>
      h.api('/api/migrations', {
        method: 'POST',
        body: JSON.stringify({ source_provider: 'snapshot', source_account_id: snapshot.id, source_snapshot_id: snapshot.id, target_provider: 'tidal', target_account_id: h.tidalAccount, selection: { playlist_ids: [road, `s1:${ids['Quiet Hours']}`] }, acknowledge_warnings: true }),
      });
    const finished = (job: { status: string }) => ['completed', 'failed', 'cancelled', 'awaiting_review'].includes(job.status);
    const first = await restore();
    expect(first.status, first.text).toBe(202);
    const job = first.json as { id: string; source_kind: string; source_account_id: string };
    expect(job).toMatchObject({ source_kind: 'snapshot', source_account_id: `snapshot:${snapshot.library_id}` });
    const done = await h.waitForJob(job.id, finished, 120_000);
    expect(done.status).toBe('completed');
    const playlists = () => h.tidal.playlistsOf(h.tidalUser.userId).filter((playlist) => playlist.name === 'Road Songs');
    expect(playlists()).toHaveLength(1);
    const target = playlists()[0]!;
    expect(target.items.map((item) => item.id)).toEqual(songs.slice(0, 5).map((song) => h.tidal.trackId(song.key)!));
    // Only the snapshot was read: no Spotify call for the restore.
    const spotifyCalls = h.spotify.requests.length;
    const writes = () => h.tidal.requests.filter((request) => request.method === 'POST').length;
    const writesBefore = writes();

    const second = await restore();
    expect(second.status, second.text).toBe(202);
    const again = await h.waitForJob((second.json as { id: string }).id, finished, 120_000);
    expect(again.status).toBe('completed');
    expect(again.collections.find((collection) => collection.name === 'Road Songs')?.target_playlist_id).toBe(target.id);
    expect(playlists()).toHaveLength(1);
    expect(playlists()[0]!.items.map((item) => item.id)).toEqual(target.items.map((item) => item.id));
    expect(writes()).toBe(writesBefore);
    expect(h.spotify.requests.length).toBe(spotifyCalls);
  });

  it('refuses a restore of a collection that was unreadable when the snapshot was taken, or of an unknown snapshot', async () => {
    const base = { source_provider: 'snapshot', source_account_id: snapshot.id, source_snapshot_id: snapshot.id, target_provider: 'tidal', target_account_id: h.tidalAccount, acknowledge_warnings: true };
    const failed = await h.api('/api/migrations', { method: 'POST', body: JSON.stringify({ ...base, selection: { playlist_ids: [`s1:${ids['Friend Mix']}`] } }) });
    expect(failed.status).toBe(422);
    expect(failed.text).toContain('could not be read when the snapshot was taken');
    const unknown = randomUUID();
    const missing = await h.api('/api/migrations', { method: 'POST', body: JSON.stringify({ ...base, source_account_id: unknown, source_snapshot_id: unknown, selection: { playlist_ids: ['s1:liked'] } }) });
    expect(missing.status).toBe(422);
  });
});

describe('opl snapshot create, list and restore', () => {
  it('take, list and restore snapshots through the running engine', async () => {
    const config = loadConfig({ OPL_DATA_DIR: scratch });
    const run = async (args: string[]) => {
      let stdout = '';
      let stderr = '';
      const code = await snapshotCommand(args, config, { stdout: { write: (text: string) => (stdout += text) }, stderr: { write: (text: string) => (stderr += text) } });
      return { code, stdout, stderr };
    };
    const profile = (await h.api('/api/snapshots/profiles', { method: 'POST', body: JSON.stringify({ name: 'CLI', selection: { accounts: [{ account_id: h.spotifyAccount, collections: [ids['Quiet Hours']] }] } }) })).json as { id: string };
    const created = await run(['create', '--profile', profile.id, '--wait', '--url', h.baseUrl]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/ completed \(created\) .*: 1 collection, 3 items, \d+ bytes/);
    expect(created.stdout).toContain(`s1:${ids['Quiet Hours']}  Quiet Hours: complete, 3 items`);
    const id = /^([0-9a-f-]{36}) /.exec(created.stdout)![1]!;
    const listed = await run(['list', '--url', h.baseUrl]);
    expect(listed.stdout).toContain(id);
    // The engine's safe defaults warn (another job moments ago): the command says how to go ahead.
    const warned = await run(['restore', id, '--target', `tidal:${h.tidalAccount}`, '--url', h.baseUrl]);
    expect(warned.code).toBe(1);
    expect(warned.stderr).toContain('--acknowledge-warnings');
    const restored = await run(['restore', id, '--target', `tidal:${h.tidalAccount}`, '--acknowledge-warnings', '--url', h.baseUrl]);
    expect(restored.code, restored.stderr).toBe(0);
    const job = await h.waitForJob(restored.stdout.trim(), (entry) => ['completed', 'failed', 'cancelled', 'awaiting_review'].includes(entry.status), 120_000);
    expect(job).toMatchObject({ status: 'completed', source_kind: 'snapshot' });
    expect((await run(['create', '--url', h.baseUrl])).code).toBe(64);
    expect((await run(['restore', id, '--target', 'nonsense', '--url', h.baseUrl])).code).toBe(64);
    const unknown = await run(['restore', randomUUID(), '--target', `tidal:${h.tidalAccount}`, '--url', h.baseUrl]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('not_found');
  });
});

describe('startup reconciliation of snapshot jobs', () => {
  it('fails a running snapshot whose worker went silent, and leaves a live one alone', async () => {
    const client = new pg.Client({ connectionString: h.app.databaseUrl });
    await client.connect();
    try {
      const profile = (await h.api('/api/snapshots/profiles', { method: 'POST', body: JSON.stringify({ name: 'Crash', selection: { accounts: [{ account_id: h.spotifyAccount, collections: ['liked'] }] } }) })).json as { id: string; library_id: string };
      const insert = `insert into snapshot (owner_id, profile_id, library_id, status, started_at, updated_at) select owner_id, id, library_id, 'running', now(), now() - make_interval(secs => $2) from snapshot_profile where id = $1 returning id`;
      const stale = (await client.query<{ id: string }>(insert, [profile.id, 3_600])).rows[0]!.id;
      const live = (await client.query<{ id: string }>(insert, [profile.id, 1])).rows[0]!.id;
      const result = await h.app.app.services.snapshots.reconcile();
      expect(result.failed).toEqual([stale]);
      expect((await h.api(`/api/snapshots/${stale}`)).json).toMatchObject({ status: 'failed', error: expect.stringContaining('engine stopped') });
      expect((await h.api(`/api/snapshots/${live}`)).json).toMatchObject({ status: 'running' });
      await client.query(`delete from snapshot where id = any($1)`, [[stale, live]]);
    } finally {
      await client.end();
    }
  });
});

describe('startup reconciliation of the snapshot directory', () => {
  it('removes temporary and orphan archives, finishes or undoes staged deletions, and leaves everything else alone', async () => {
    const all = ((await h.api('/api/snapshots')).json as { snapshots: SnapshotJson[] }).snapshots.map((entry) => entry.id);
    const kept = all[0]!;
    const outside = join(scratch, 'outside.zip');
    await writeFile(outside, 'not ours');
    const orphan = `${randomUUID()}.zip`;
    const partial = `${randomUUID()}.zip.partial`;
    const upload = `upload-${randomUUID()}.zip.partial`;
    const staleDeletion = `${randomUUID()}.zip.deleting`;
    await writeFile(join(root, orphan), 'x');
    await writeFile(join(root, partial), 'x');
    await writeFile(join(root, upload), 'x');
    await writeFile(join(root, staleDeletion), 'x');
    await writeFile(join(root, 'notes.txt'), 'an admin’s file');
    // A link with an archive's name pointing outside: never followed, never removed through.
    const linked = `${randomUUID()}.zip`;
    await symlink(outside, join(root, linked));
    // A deletion that stopped half-way while its row is still there: undone.
    const { rename } = await import('node:fs/promises');
    await rename(join(root, `${kept}.zip`), join(root, `${kept}.zip.deleting`));

    const result = await h.app.app.services.snapshots.reconcile();
    expect(result.files.removed.sort()).toEqual([orphan, partial, upload, staleDeletion].sort());
    expect(result.files.restored).toEqual([`${kept}.zip`]);
    expect((await readdir(root)).sort()).toEqual([...all.map((entry) => `${entry}.zip`), linked, 'notes.txt'].sort());
    expect(await readdir(scratch)).toContain('outside.zip');
  });
});
