import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidJobPayloadError } from '../../core/jobs/index.ts';
import { expireOwnerSessionsJob } from '../../core/services/owner/expire-owner-sessions.job.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('pg-boss jobs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({}, { http: false, worker: true });
  });
  afterAll(() => t.close());

  it('runs a real job on a worker: expired owner and share-recipient sessions are removed, live ones stay', async () => {
    const connection = t.app.services.database.orm.em.getConnection();
    await connection.execute(
      `insert into owner_session (id, token_hash, created_at, expires_at, last_seen_at) values
        (gen_random_uuid(), 'expired-1', now() - interval '2 days', now() - interval '1 day', now()),
        (gen_random_uuid(), 'expired-2', now() - interval '2 days', now() - interval '1 hour', now()),
        (gen_random_uuid(), 'live', now(), now() + interval '1 day', now())`,
    );
    // Share recipients' sessions expire the same way.
    const [share] = await connection.execute<Array<{ id: string }>>(`insert into share (owner_id, token_hash, snapshot) values ('local', 'share-token-hash', '{}'::jsonb) returning id`);
    await connection.execute(
      `insert into share_recipient (share_id, token_hash, expires_at) values (?, 'recipient-expired', now() - interval '1 minute'), (?, 'recipient-live', now() + interval '1 day')`,
      [share!.id, share!.id],
    );
    const id = await t.app.services.jobs.enqueue(expireOwnerSessionsJob, { batchSize: 1 });
    expect(id).toBeTruthy();
    const rows = await until(
      () => connection.execute<Array<{ token_hash: string }>>('select token_hash from owner_session union all select token_hash from share_recipient order by token_hash'),
      (current) => current.length === 2,
    );
    expect(rows.map((row) => row.token_hash)).toEqual(['live', 'recipient-live']);
  });

  it('refuses to enqueue a payload that does not match the job schema', async () => {
    await expect(t.app.services.jobs.enqueue(expireOwnerSessionsJob, { batchSize: -5 })).rejects.toBeInstanceOf(InvalidJobPayloadError);
  });

  it('fails a malformed payload found in the queue without retrying it', async () => {
    const connection = t.app.services.database.orm.em.getConnection();
    // Another (older or broken) process wrote a bad row straight into pg-boss's table.
    await connection.execute(
      `insert into pgboss.job (id, name, data, retry_limit) values (gen_random_uuid(), 'maintenance.expire-owner-sessions', '{"batchSize":"lots"}', 5)`,
    );
    const rows = await until(
      () => connection.execute<Array<{ state: string; retry_count: number }>>(`select state, retry_count from pgboss.job where data->>'batchSize' = 'lots'`),
      (current) => current[0]?.state === 'failed',
    );
    expect(rows[0]).toMatchObject({ state: 'failed', retry_count: 0 });
  });
});
