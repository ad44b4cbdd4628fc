import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';

describe('health probes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers liveness', async () => {
    const response = await t.app.http!.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('reports the database, the job queue and the plugin host as ready', async () => {
    const response = await t.app.http!.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({ status: 'ready', checks: { database: { status: 'up' }, job_queue: { status: 'up' }, plugin_host: { status: 'up' } } });
  });

  it('answers 503 with the failing dependency when the database goes away', async () => {
    const other = await startTestApp();
    // A real outage: the server refuses new connections to this database and drops the open ones.
    const name = new URL(other.databaseUrl).pathname.slice(1);
    const admin = new pg.Client({ connectionString: other.databaseUrl.replace(`/${name}`, '/postgres') });
    await admin.connect();
    await admin.query(`alter database "${name}" allow_connections false`);
    await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
    await admin.end();
    const response = await other.app.http!.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(503);
    const body = response.json<{ status: string; checks: Record<string, { status: string; detail?: string }> }>();
    expect(body.status).toBe('not_ready');
    expect(body.checks['database']!.status).toBe('down');
    expect(body.checks['job_queue']!.status).toBe('down');
    expect(JSON.stringify(body)).not.toMatch(/postgres(ql)?:\/\//);
    await other.close();
  });

  it('echoes a safe request id and sets security headers', async () => {
    const response = await t.app.http!.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'trace-123' } });
    expect(response.headers['x-request-id']).toBe('trace-123');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('listens on a real port', async () => {
    const address = t.app.http!.server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${address.port}/healthz`);
    expect(response.status).toBe(200);
  });
});
