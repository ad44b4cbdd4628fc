import { Writable } from 'node:stream';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../../core/app/index.ts';
import { loadConfig } from '../../../core/config/index.ts';
import { createLogger } from '../../../core/logging/logger.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import {
  createPublisher,
  createTestRegistry,
  providerCode,
  providerManifestSource,
  publishTestPlugin,
  TEST_CONNECTION_OP,
  type TestPublisher,
  type TestRegistry,
} from '../support/plugin-registry.ts';

const ADMIN_TOKEN = 'admin-token-for-tests-0123456789';
const AUTH = { authorization: `Bearer ${ADMIN_TOKEN}` };

interface AdminView {
  loaded: Array<{ id: string; version: string }>;
  refused: Array<{ id: string; reason: string; detail: string; key_id: string | null }>;
  allow_list: Array<{ id: string; plugin_id: string; key_id: string; version_range: string; added_by: string }>;
}

async function waitFor(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('hosted mode: only allow-listed plugins load, and admins curate the list', () => {
  let publisher: TestPublisher;
  let registry: TestRegistry;
  let app: TestApp;
  let worker: App | undefined;
  const logs: string[] = [];

  beforeAll(async () => {
    publisher = createPublisher('vetted-publisher');
    registry = await createTestRegistry([publisher]);
    for (const version of ['1.0.0', '1.2.0']) {
      await publishTestPlugin(registry, {
        manifestSource: providerManifestSource('com.example.vetted', version, publisher.keyId),
        code: providerCode(TEST_CONNECTION_OP),
        publisher,
      });
    }
    app = await startTestApp({ ...registry.env, OPL_DEPLOYMENT_MODE: 'hosted', OPL_ADMIN_TOKEN: ADMIN_TOKEN });
    // A second engine process (a worker) on the same database, to see policy changes propagate.
    const config = loadConfig({
      ...registry.env,
      OPL_DEPLOYMENT_MODE: 'hosted',
      OPL_DATABASE_URL: app.databaseUrl,
      OPL_DATA_DIR: registry.dir,
      OPL_PORT: '0',
    });
    const destination = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        logs.push(chunk.toString('utf8'));
        callback();
      },
    });
    worker = await createApp(config, { http: false, worker: false }, { logger: createLogger({ level: 'debug', destination }), skipMigrations: true });
  });

  afterAll(async () => {
    await worker?.stop();
    await app?.close();
    await registry?.cleanup();
  });

  const view = async () => {
    const response = await app.app.http!.inject({ method: 'GET', url: '/api/admin/plugins', headers: AUTH });
    expect(response.statusCode).toBe(200);
    return response.json<AdminView>();
  };

  it('refuses a validly signed plugin that is not on the allow-list, naming the key to allow', async () => {
    const refusal = (await view()).refused.find((entry) => entry.id === 'com.example.vetted');
    expect(refusal).toMatchObject({ reason: 'not_allow_listed', key_id: publisher.keyId });
    expect(refusal?.detail).toContain('vetted-publisher');
  });

  it('requires the admin token on admin routes and never echoes it', async () => {
    const missing = await app.app.http!.inject({ method: 'GET', url: '/api/admin/plugins' });
    expect(missing.statusCode).toBe(401);
    expect(missing.json<{ code: string }>().code).toBe('admin_token_required');
    const wrong = await app.app.http!.inject({ method: 'POST', url: '/api/admin/plugins/allow-list', headers: { authorization: 'Bearer not-the-token-at-all-000000' }, payload: { plugin_id: 'com.example.vetted', key_id: 'vetted-publisher', version_range: '*' } });
    expect(wrong.statusCode).toBe(401);
    expect((await view()).allow_list).toHaveLength(0);
    expect(app.logs.join('')).not.toContain(ADMIN_TOKEN);
  });

  it('rejects malformed allow-list entries with a clear problem', async () => {
    const response = await app.app.http!.inject({ method: 'POST', url: '/api/admin/plugins/allow-list', headers: AUTH, payload: { plugin_id: 'com.example.vetted', key_id: 'vetted-publisher', version_range: 'newest please' } });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ detail: string }>().detail).toMatch(/not a semver range/);
    const extra = await app.app.http!.inject({ method: 'POST', url: '/api/admin/plugins/allow-list', headers: AUTH, payload: { plugin_id: 'com.example.vetted', key_id: 'x', version_range: '*', admin: true } });
    expect(extra.statusCode).toBe(400);
  });

  it('does not load a plugin allow-listed for another key or outside the range', async () => {
    for (const payload of [
      { plugin_id: 'com.example.vetted', key_id: 'some-other-key', version_range: '*' },
      { plugin_id: 'com.example.vetted', key_id: 'vetted-publisher', version_range: '^2.0.0' },
    ]) {
      const response = await app.app.http!.inject({ method: 'POST', url: '/api/admin/plugins/allow-list', headers: AUTH, payload });
      expect(response.statusCode).toBe(201);
    }
    const current = await view();
    expect(current.loaded).toHaveLength(0);
    expect(current.refused.find((entry) => entry.id === 'com.example.vetted')?.reason).toBe('not_allow_listed');
  });

  it('loads the newest allowed version once allow-listed, in every engine process', async () => {
    const response = await app.app.http!.inject({ method: 'POST', url: '/api/admin/plugins/allow-list', headers: AUTH, payload: { plugin_id: 'com.example.vetted', key_id: 'vetted-publisher', version_range: '^1.0.0' } });
    expect(response.statusCode).toBe(201);
    expect(response.json<{ added_by: string }>().added_by).toBe('admin-token');
    const duplicate = await app.app.http!.inject({ method: 'POST', url: '/api/admin/plugins/allow-list', headers: AUTH, payload: { plugin_id: 'com.example.vetted', key_id: 'vetted-publisher', version_range: '^1.0.0' } });
    expect(duplicate.statusCode).toBe(409);

    expect((await view()).loaded).toEqual([expect.objectContaining({ id: 'com.example.vetted', version: '1.2.0' })]);
    await waitFor(() => worker!.services.plugins.catalogue.manifest('com.example.vetted') !== undefined, 'the worker to load the plugin');
    expect(await worker!.services.plugins.host.call('com.example.vetted', 'testConnection', {})).toMatchObject({ ok: true });
  });

  it('unloads the plugin everywhere when its entry is removed', async () => {
    const entry = (await view()).allow_list.find((item) => item.version_range === '^1.0.0');
    const response = await app.app.http!.inject({ method: 'DELETE', url: `/api/admin/plugins/allow-list/${entry!.id}`, headers: AUTH });
    expect(response.statusCode).toBe(204);
    expect((await view()).loaded).toHaveLength(0);
    await waitFor(() => worker!.services.plugins.catalogue.manifest('com.example.vetted') === undefined, 'the worker to unload the plugin');
    const again = await app.app.http!.inject({ method: 'DELETE', url: `/api/admin/plugins/allow-list/${entry!.id}`, headers: AUTH });
    expect(again.statusCode).toBe(404);
  });

  it('keeps propagating changes after the notification connections were cut', async () => {
    const admin = new pg.Client({ connectionString: app.databaseUrl });
    await admin.connect();
    try {
      const killed = await admin.query("select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'opl-plugin-listener' and datname = current_database()");
      expect(killed.rowCount).toBe(2);
    } finally {
      await admin.end();
    }
    const response = await app.app.http!.inject({ method: 'POST', url: '/api/admin/plugins/allow-list', headers: AUTH, payload: { plugin_id: 'com.example.vetted', key_id: 'vetted-publisher', version_range: '>=1.0.0' } });
    expect(response.statusCode).toBe(201);
    // The worker reconnects with backoff and re-reads the policy, so it catches up even if the notification was lost.
    await waitFor(() => worker!.services.plugins.catalogue.manifest('com.example.vetted') !== undefined, 'the worker to load the plugin after reconnecting');
  });

  it('turns the admin routes off on a hosted instance without an admin token', async () => {
    const bare = await startTestApp({ ...registry.env, OPL_DEPLOYMENT_MODE: 'hosted' });
    try {
      const response = await bare.app.http!.inject({ method: 'GET', url: '/api/admin/plugins', headers: AUTH });
      expect(response.statusCode).toBe(403);
      expect(response.json<{ code: string }>().code).toBe('admin_not_configured');
    } finally {
      await bare.close();
    }
  });
});
