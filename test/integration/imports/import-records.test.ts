import { randomUUID } from 'node:crypto';
import type { Playlist } from '@opl/plugin-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../core/logging/logger.ts';
import { expireImportRecordsJob, type ImportRecordService } from '../../../core/services/imports/index.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const playlist = (name: string, titles: string[]) =>
  ({ name, tracks: titles.map((title, position) => ({ title, artist: 'Artist', position })) }) as unknown as Playlist;

describe('import records (service level, two owners)', () => {
  let t: TestApp;
  let records: ImportRecordService;
  const sql = (text: string, values: unknown[] = []) => t.app.services.database.orm.em.getConnection().execute<Array<Record<string, unknown>>>(text, values);

  beforeAll(async () => {
    t = await startTestApp();
    records = t.app.services.imports.records;
  });
  afterAll(() => t?.close());

  const create = (ownerId: string) => records.create({ ownerId, kind: 'text', name: 'List', format: 'txt', playlists: [playlist('List', ['A', 'B', 'A'])], issues: [] });

  it('keeps each owner to their own records: another owner gets not_found, never a hint that it exists', async () => {
    const alice = await create('alice');
    expect(alice.expiresAt.getTime() - Date.now()).toBeGreaterThan(23 * 3_600_000);
    expect((await records.get('alice', alice.id)).playlists[0]!.tracks.map((track) => track.title)).toEqual(['A', 'B', 'A']);
    await expect(records.get('bob', alice.id)).rejects.toMatchObject({ reason: 'not_found' });
    await expect(records.delete('bob', alice.id)).rejects.toMatchObject({ reason: 'not_found' });
    await expect(records.claimForJob('bob', alice.id, randomUUID())).rejects.toMatchObject({ reason: 'not_found' });
    await expect(records.get('bob', randomUUID())).rejects.toMatchObject({ reason: 'not_found', message: expect.not.stringContaining('alice') });
    expect((await records.get('alice', alice.id)).id).toBe(alice.id);
  });

  it('bounds the stored issues and never stores the raw content', async () => {
    const issues = Array.from({ length: 500 }, (_, index) => ({ line: index + 1, column: null, code: 'bad_row', message: 'x', severity: 'error' as const }));
    const record = await records.create({ ownerId: 'alice', kind: 'file', name: 'f.txt', format: 'txt', playlists: [playlist('P', ['A'])], issues });
    expect((await records.get('alice', record.id)).issues).toHaveLength(200);
    const columns = (await sql(`select column_name from information_schema.columns where table_name = 'import_record'`)).map((row) => row.column_name);
    expect(columns.sort()).toEqual(['created_at', 'expires_at', 'format', 'grace_until', 'id', 'issues', 'job_id', 'kind', 'owner_id', 'playlist_count', 'playlists', 'source_label', 'state', 'track_count', 'updated_at']);
  });

  it('claims a record for one job atomically; success deletes it, failure retains it for a grace period', async () => {
    const first = await create('alice');
    const jobA = randomUUID();
    const claims = await Promise.allSettled([records.claimForJob('alice', first.id, jobA), records.claimForJob('alice', first.id, randomUUID())]);
    expect(claims.filter((claim) => claim.status === 'fulfilled')).toHaveLength(1);
    await expect(records.delete('alice', first.id)).rejects.toMatchObject({ reason: 'queued' });
    await records.completeJob(jobA);
    await expect(records.get('alice', first.id)).rejects.toMatchObject({ reason: 'not_found' });

    const second = await create('alice');
    const jobB = randomUUID();
    await records.claimForJob('alice', second.id, jobB);
    await records.releaseFailedJob(jobB, 2);
    const retained = await records.get('alice', second.id);
    expect(retained.state).toBe('retained');
    expect(retained.graceUntil!.getTime()).toBeGreaterThan(Date.now() + 3_600_000);
    await records.delete('alice', second.id);
  });

  it('an expired record is gone (410) and cannot be claimed; the cleanup job deletes expired, unqueued records in batches', async () => {
    const expired = await Promise.all(Array.from({ length: 5 }, () => create('alice')));
    const live = await create('bob');
    const queued = await create('alice');
    await records.claimForJob('alice', queued.id, randomUUID());
    for (const record of [...expired, queued]) await sql(`update import_record set expires_at = now() - interval '1 hour' where id = ?`, [record.id]);
    await expect(records.get('alice', expired[0]!.id)).rejects.toMatchObject({ reason: 'expired' });
    await expect(records.claimForJob('alice', expired[0]!.id, randomUUID())).rejects.toMatchObject({ reason: 'expired' });
    expect((await t.app.http!.inject({ method: 'GET', url: `/api/imports/${randomUUID()}` })).statusCode).toBe(404);

    await expireImportRecordsJob.handle(
      { batchSize: 2 },
      { jobId: randomUUID(), retryCount: 0, signal: new AbortController().signal, logger: createLogger({ level: 'silent' }), deps: t.app.services },
    );
    const ids = new Set([...expired.map((record) => record.id), live.id, queued.id]);
    const left = (await sql('select id from import_record')).map((row) => String(row.id)).filter((id) => ids.has(id));
    expect(left.sort()).toEqual([live.id, queued.id].sort());
  });

  it('schedules the cleanup hourly', () => {
    expect(expireImportRecordsJob.schedule?.cron).toMatch(/^\d+ \* \* \* \*$/);
  });
});
