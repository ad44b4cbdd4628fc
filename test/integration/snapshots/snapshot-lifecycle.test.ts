import { randomUUID } from 'node:crypto';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SnapshotError } from '../../../core/services/snapshots/index.ts';
import { isAvailableOn, seedCatalog, type SeedTrack } from '../../fakes/seed-catalog.ts';
import { startMigrationHarness, type MigrationHarness } from '../migrations/migration-harness.ts';
import { readServerEvents, type ServerEvent } from '../support/server-events.ts';

/**
 * The life of snapshots beyond taking one (issue 30): live progress over server-sent events, an
 * archive gone from the disk, uploads that must not reveal another owner's snapshots, and
 * schedules with retention driven by the engine's injected clock.
 */

const catalog = seedCatalog();
const songs = [...catalog.tracks.values()].filter((track) => track.mediaType === 'track' && isAvailableOn(track, 'spotify') && isAvailableOn(track, 'tidal'));
const keys = (tracks: readonly SeedTrack[]) => tracks.map((track) => track.key);

interface SnapshotJson {
  id: string;
  status: string;
  profile_id: string | null;
  origin: string;
  progress: Record<string, unknown>;
  counts: Record<string, number>;
  verification_reason: string | null;
}
interface ProfileJson {
  id: string;
  schedule: unknown;
  next_run_at: string | null;
  retention: unknown;
}
type SseEvent = ServerEvent<SnapshotJson>;

let h: MigrationHarness;
let root = '';
let clock = Date.parse('2026-11-30T08:00:00Z'); // a Monday
let ids: Record<string, string> = {};

beforeAll(async () => {
  h = await startMigrationHarness({
    spotifyLibrary: {
      playlists: [
        { name: 'Road Songs', trackKeys: keys(songs.slice(0, 5)) },
        { name: 'Quiet Hours', trackKeys: keys(songs.slice(5, 8)) },
      ],
      likedTrackKeys: keys(songs.slice(8, 11)),
    },
    tidalLibrary: {},
    overrides: { scheduleClock: () => new Date(clock) },
  });
  root = h.app.app.services.config.snapshotDir;
  const { json } = await h.api(`/api/playlists?account_id=${h.spotifyAccount}`);
  ids = Object.fromEntries((json as { playlists: { id: string; name: string }[] }).playlists.map((playlist) => [playlist.name, playlist.id]));
}, 300_000);

afterAll(async () => {
  await h?.close();
});

function post(path: string, body: unknown) {
  return h.api(path, { method: 'POST', body: JSON.stringify(body) });
}

async function profile(name: string, extra: Record<string, unknown> = {}): Promise<ProfileJson> {
  const created = await post('/api/snapshots/profiles', { name, selection: { accounts: [{ account_id: h.spotifyAccount, collections: ['liked', ids['Road Songs'], ids['Quiet Hours']] }] }, ...extra });
  expect(created.status, created.text).toBe(201);
  return created.json as ProfileJson;
}

async function waitForSnapshot(id: string): Promise<SnapshotJson> {
  for (let attempt = 0; attempt < 240; attempt += 1) {
    const snapshot = (await h.api(`/api/snapshots/${id}`)).json as SnapshotJson;
    if (!['queued', 'running'].includes(snapshot.status)) return snapshot;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`snapshot ${id} never finished`);
}

async function takeSnapshot(profileId: string): Promise<SnapshotJson> {
  const queued = await post('/api/snapshots', { profile_id: profileId });
  expect(queued.status, queued.text).toBe(202);
  return waitForSnapshot((queued.json as SnapshotJson).id);
}

/** Reads a snapshot's event stream until `until` holds for an event, then disconnects. */
function readEvents(snapshotId: string, until: (event: SseEvent) => boolean, lastEventId?: number): Promise<SseEvent[]> {
  return readServerEvents<SnapshotJson>(`${h.baseUrl}/api/snapshots/${snapshotId}/events`, { ...(lastEventId === undefined ? {} : { lastEventId }), until: (events) => until(events.at(-1)!), timeoutMs: 60_000 });
}

const settled = (event: SseEvent) => !['queued', 'running'].includes(event.data.status);

describe('snapshot progress over server-sent events', () => {
  it('streams the snapshot from queued through its collections to completed, and resumes after Last-Event-ID', async () => {
    const { id: profileId } = await profile('Live');
    const queued = await post('/api/snapshots', { profile_id: profileId });
    const snapshotId = (queued.json as SnapshotJson).id;
    const events = await readEvents(snapshotId, settled);
    expect(events.every((event) => event.type === 'snapshot' && event.data.id === snapshotId)).toBe(true);
    const numbers = events.map((event) => event.id);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    const last = events.at(-1)!;
    expect(last.data).toMatchObject({ status: 'completed', counts: { collections: 3, items: 11 }, progress: { collections_done: 3, collections_total: 3, items: 11 } });
    // A stream opened late still starts with the snapshot as it is; one resuming after an earlier
    // change gets the change it missed.
    if (events.length > 1) {
      const resumed = await readEvents(snapshotId, settled, events[0]!.id);
      expect(resumed).toEqual([last]);
    }
    const late = await readEvents(snapshotId, settled);
    expect(late).toEqual([last]);
    expect((await fetch(`${h.baseUrl}/api/snapshots/${randomUUID()}/events`)).status).toBe(404);
  });
});

describe('an archive gone from the disk', () => {
  it('is refused with a clear problem on download, shown as missing, and not restored', async () => {
    const { id: profileId } = await profile('Fragile');
    const snapshot = await takeSnapshot(profileId);
    expect(snapshot.status).toBe('completed');
    await rm(join(root, `${snapshot.id}.zip`));

    const download = await fetch(`${h.baseUrl}/api/snapshots/${snapshot.id}/archive`);
    expect(download.status).toBe(410);
    expect(download.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await download.json()).toMatchObject({ code: 'gone', reason: 'archive_missing', detail: expect.stringContaining('missing from the snapshot directory') });
    expect((await h.api(`/api/snapshots/${snapshot.id}`)).json).toMatchObject({ verification_reason: 'archive_missing' });

    const verified = await post(`/api/snapshots/${snapshot.id}/verify`, {});
    expect(verified.status).toBe(200);
    expect(verified.json).toMatchObject({ verification_reason: 'archive_missing' });

    const restore = await post('/api/migrations', {
      source_provider: 'snapshot',
      source_account_id: snapshot.id,
      source_snapshot_id: snapshot.id,
      target_provider: 'tidal',
      target_account_id: h.tidalAccount,
      selection: { playlist_ids: ['s1:liked'] },
      acknowledge_warnings: true,
    });
    expect(restore.status).toBe(422);
    expect(restore.text).toContain('missing from the snapshot directory');

    // Startup reconciliation finds such rows on its own as well.
    const other = await takeSnapshot(profileId);
    await rm(join(root, `${other.id}.zip`));
    const reconciled = await h.app.app.services.snapshots.reconcile();
    expect(reconciled.files.missing).toContain(other.id);
    expect((await h.api(`/api/snapshots/${other.id}`)).json).toMatchObject({ verification_reason: 'archive_missing' });
    expect((await h.api(`/api/snapshots/${other.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await h.api(`/api/snapshots/${snapshot.id}`, { method: 'DELETE' })).status).toBe(204);
  });
});

describe('uploads and other owners', () => {
  it('never reveal whether another owner holds a snapshot: every upload gets a fresh id, and only the own copy is a conflict', async () => {
    const { id: profileId } = await profile('Shared');
    const mine = await takeSnapshot(profileId);
    const bytes = Buffer.from(await (await fetch(`${h.baseUrl}/api/snapshots/${mine.id}/archive`)).arrayBuffer());
    const service = h.app.app.services.snapshots;

    // Another owner uploads an archive whose snapshot id this owner holds: accepted like any new one.
    const theirs = await service.upload('someone-else', Readable.from([bytes]));
    expect(theirs).toMatchObject({ origin: 'uploaded', status: 'completed' });
    expect(theirs.id).not.toBe(mine.id);
    // The owner's own copy is recognised, whatever another owner holds.
    const again = await fetch(`${h.baseUrl}/api/snapshots/upload`, { method: 'POST', headers: { 'content-type': 'application/zip' }, body: new Uint8Array(bytes) });
    expect(again.status).toBe(409);
    await expect(service.upload('someone-else', Readable.from([bytes]))).rejects.toBeInstanceOf(SnapshotError);
    // Neither owner sees the other's row.
    expect(((await h.api('/api/snapshots')).json as { snapshots: SnapshotJson[] }).snapshots.map((entry) => entry.id)).not.toContain(theirs.id);
    expect((await h.api(`/api/snapshots/${theirs.id}`)).status).toBe(404);
    expect((await service.snapshots('someone-else')).map((entry) => entry.id)).toEqual([theirs.id]);

    // The same answer as for a snapshot nobody holds here: this owner deletes theirs and uploads it again.
    expect((await h.api(`/api/snapshots/${mine.id}`, { method: 'DELETE' })).status).toBe(204);
    const fresh = await fetch(`${h.baseUrl}/api/snapshots/upload`, { method: 'POST', headers: { 'content-type': 'application/zip' }, body: new Uint8Array(bytes) });
    expect(fresh.status).toBe(201);
    const uploaded = (await fresh.json()) as SnapshotJson;
    expect(uploaded.id).not.toBe(mine.id);
    expect(uploaded.id).not.toBe(theirs.id);
    expect(await readFile(join(root, `${uploaded.id}.zip`))).toEqual(bytes);
    expect((await h.api(`/api/snapshots/${uploaded.id}`, { method: 'DELETE' })).status).toBe(204);
    await service.deleteSnapshot('someone-else', theirs.id);

    // Four uploads of one archive at once by one owner: exactly one is kept, the rest are conflicts.
    const racing = await Promise.allSettled(Array.from({ length: 4 }, () => service.upload('racing-owner', Readable.from([bytes]))));
    expect(racing.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    expect(racing.filter((result) => result.status === 'rejected').map((result) => (result.reason as SnapshotError).code)).toEqual(['already_exists', 'already_exists', 'already_exists']);
    const [kept] = await service.snapshots('racing-owner');
    await service.deleteSnapshot('racing-owner', kept!.id);
  });
});

describe('a snapshot being restored', () => {
  it('cannot be deleted while a restore may still read it (retention deletes through the same check)', async () => {
    const { id: profileId } = await profile('Restoring');
    const snapshot = await takeSnapshot(profileId);
    const started = await post('/api/migrations', {
      source_provider: 'snapshot',
      source_account_id: snapshot.id,
      source_snapshot_id: snapshot.id,
      target_provider: 'tidal',
      target_account_id: h.tidalAccount,
      selection: { playlist_ids: [`s1:${ids['Quiet Hours']}`] },
      acknowledge_warnings: true,
    });
    expect(started.status, started.text).toBe(202);
    const jobId = (started.json as { id: string }).id;
    await h.waitForJob(jobId, (job) => ['completed', 'failed', 'cancelled', 'awaiting_review'].includes(job.status), 120_000);
    // A restore that paused (a provider outage, a quota) will read the archive again when it resumes.
    const execute = h.app.app.services.sync.execute;
    await execute({ text: `update migration_job set status = 'paused' where id = ?`, values: [jobId] });
    const refused = await h.api(`/api/snapshots/${snapshot.id}`, { method: 'DELETE' });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('being restored');
    expect(await readFile(join(root, `${snapshot.id}.zip`))).toBeInstanceOf(Buffer);
    await execute({ text: `update migration_job set status = 'completed' where id = ?`, values: [jobId] });
    expect((await h.api(`/api/snapshots/${snapshot.id}`, { method: 'DELETE' })).status).toBe(204);
  }, 180_000);
});

describe('schedules and retention with the injected clock', () => {
  const scheduler = () => h.app.app.services.snapshots.scheduler;
  const snapshotsOf = async (profileId: string) => ((await h.api('/api/snapshots')).json as { snapshots: SnapshotJson[] }).snapshots.filter((entry) => entry.profile_id === profileId);
  const advanceTo = (iso: string) => {
    clock = Date.parse(iso);
  };

  it('computes the first slot of daily and weekly schedules in the owner’s time zone, and refuses bad ones', async () => {
    const daily = await profile('Daily', { schedule: { kind: 'daily', at: '10:00', time_zone: 'Europe/Berlin' } });
    expect(daily.next_run_at).toBe('2026-11-30T09:00:00.000Z');
    const weekly = await profile('Weekly', { schedule: { kind: 'weekly', weekday: 'friday', at: '10:00', time_zone: 'Europe/Berlin' } });
    expect(weekly.next_run_at).toBe('2026-12-04T09:00:00.000Z');
    const none = await profile('On request');
    expect(none).toMatchObject({ schedule: null, next_run_at: null, retention: null });
    const bad = await post('/api/snapshots/profiles', { name: 'Bad', selection: { accounts: [{ account_id: h.spotifyAccount, collections: ['liked'] }] }, schedule: { kind: 'daily', at: '25:00', time_zone: 'Mars/Olympus' } });
    expect(bad.status).toBe(400);
    const noLimit = await post('/api/snapshots/profiles', { name: 'Bad', selection: { accounts: [{ account_id: h.spotifyAccount, collections: ['liked'] }] }, retention: { keep_last: null, keep_days: null } });
    expect(noLimit.status).toBe(400);
    for (const entry of [daily, weekly, none]) await h.api(`/api/snapshots/profiles/${entry.id}`, { method: 'DELETE' });
  });

  it('takes one snapshot per due slot, one catch-up after a long gap, and applies retention without ever losing the newest good snapshot', async () => {
    advanceTo('2026-11-30T08:00:00Z');
    const body = { name: 'Nightly', selection: { accounts: [{ account_id: h.spotifyAccount, collections: [ids['Quiet Hours']] }] }, schedule: { kind: 'daily', at: '10:00', time_zone: 'Europe/Berlin' } };
    const nightly = (await post('/api/snapshots/profiles', body)).json as ProfileJson;

    advanceTo('2026-11-30T08:59:00Z');
    await scheduler().evaluate();
    expect(await snapshotsOf(nightly.id)).toEqual([]);

    advanceTo('2026-11-30T09:00:30Z');
    await scheduler().evaluate();
    const [first] = await snapshotsOf(nightly.id);
    expect(first).toBeDefined();
    expect((await waitForSnapshot(first!.id)).status).toBe('completed');
    expect(((await h.api(`/api/snapshots/profiles/${nightly.id}`)).json as ProfileJson).next_run_at).toBe('2026-12-01T09:00:00.000Z');

    // Three days down: one catch-up snapshot, and the next slot is in the future again.
    advanceTo('2026-12-03T12:00:00Z');
    await scheduler().evaluate();
    await scheduler().evaluate();
    const afterGap = await snapshotsOf(nightly.id);
    expect(afterGap).toHaveLength(2);
    for (const entry of afterGap) expect((await waitForSnapshot(entry.id)).status).toBe('completed');
    expect(((await h.api(`/api/snapshots/profiles/${nightly.id}`)).json as ProfileJson).next_run_at).toBe('2026-12-04T09:00:00.000Z');
    const third = await takeSnapshot(nightly.id);
    const [newest, middle, oldest] = (await snapshotsOf(nightly.id)).map((entry) => entry.id);
    expect(newest).toBe(third.id);

    // Keep the newest two: the oldest goes, file and row.
    const kept = await h.api(`/api/snapshots/profiles/${nightly.id}`, { method: 'PUT', body: JSON.stringify({ ...body, retention: { keep_last: 2, keep_days: null } }) });
    expect(kept.status, kept.text).toBe(200);
    // (The engine's own minute evaluation may get there first: the state is what counts.)
    await scheduler().evaluate();
    expect((await snapshotsOf(nightly.id)).map((entry) => entry.id)).toEqual([newest, middle]);
    expect((await readdir(root)).filter((name) => name.startsWith(oldest!))).toEqual([]);

    // The newest archive has gone bad: it no longer counts as the one to keep.
    await rm(join(root, `${newest}.zip`));
    await post(`/api/snapshots/${newest}/verify`, {});
    // Everything is older than a day now: only the newest good snapshot survives.
    await h.api(`/api/snapshots/profiles/${nightly.id}`, { method: 'PUT', body: JSON.stringify({ ...body, retention: { keep_last: null, keep_days: 1 } }) });
    advanceTo('2026-12-20T12:00:00Z');
    await scheduler().evaluate();
    const left = (await snapshotsOf(nightly.id)).map((entry) => entry.id);
    expect(left).toContain(middle);
    expect(left).not.toContain(newest);
    // What is left beside it is the snapshot of the slot that came due meanwhile.
    expect(left.filter((id) => id !== middle)).toHaveLength(1);
    for (const id of left) await waitForSnapshot(id);
    expect(await readdir(root)).toContain(`${middle}.zip`);
    expect((await readdir(root)).filter((name) => name.endsWith('.deleting'))).toEqual([]);
  });
});
