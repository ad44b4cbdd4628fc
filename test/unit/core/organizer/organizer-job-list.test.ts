import { describe, expect, it } from 'vitest';
import { OrganizerService } from '../../../../core/services/organizer/organizer.service.ts';
import type { SqlStatement } from '../../../../core/storage/sql/executors.ts';

/** The job list reads a fixed number of statements however many jobs there are (no query per job). */

const job = (id: string) => ({ id, owner_id: 'owner', provider: 'p', account_id: 'acc', mode: 'unfollow_playlist', status: 'completed', preflight: {}, created_at: '2026-11-29T10:00:00Z', started_at: null, completed_at: null });
const item = (jobId: string, playlistId: string) => ({ id: `${jobId}-${playlistId}`, job_id: jobId, playlist_id: playlistId, playlist_name: playlistId, action: 'unfollow_playlist', status: 'succeeded', retryable: false, attempts: 1, notes: [], completed_at: null });

describe('the organizer job list', () => {
  it('reads the jobs and then all their items in one more statement, each job with its own items', async () => {
    const statements: SqlStatement[] = [];
    const jobs = Array.from({ length: 20 }, (_, index) => job(`job-${index}`));
    const service = new OrganizerService({
      execute: (statement) => {
        statements.push(statement);
        if (statements.length === 1) return Promise.resolve(jobs);
        return Promise.resolve(jobs.flatMap((row, index) => Array.from({ length: index % 3 }, (_, n) => item(row.id, `pl-${n}`))));
      },
      connections: { get: () => Promise.reject(new Error('not read')), call: () => Promise.reject(new Error('not called')) },
      playlists: { list: () => Promise.reject(new Error('not read')), read: () => Promise.reject(new Error('not read')) },
      organizerOf: () => null,
      enqueue: () => Promise.resolve(),
    });
    const listed = await service.jobs('owner');
    expect(statements).toHaveLength(2);
    expect(statements[1]!.values).toEqual(['owner', JSON.stringify(jobs.map((row) => row.id))]);
    expect(listed.map((view) => view.items.length)).toEqual(jobs.map((_, index) => index % 3));
    expect(listed[2]!.items.map((view) => view.playlist_id)).toEqual(['pl-0', 'pl-1']);
  });

  it('reads nothing more when there are no jobs', async () => {
    let count = 0;
    const service = new OrganizerService({
      execute: () => {
        count++;
        return Promise.resolve([]);
      },
      connections: { get: () => Promise.reject(new Error('not read')), call: () => Promise.reject(new Error('not called')) },
      playlists: { list: () => Promise.reject(new Error('not read')), read: () => Promise.reject(new Error('not read')) },
      organizerOf: () => null,
      enqueue: () => Promise.resolve(),
    });
    expect(await service.jobs('owner')).toEqual([]);
    expect(count).toBe(1);
  });
});
