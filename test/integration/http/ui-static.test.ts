import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../../core/app/index.ts';
import { createLogger } from '../../../core/logging/logger.ts';
import { createTestDatabase, testConfig } from '../support/test-database.ts';

describe('serving the web UI', () => {
  let dist: string;
  let withUi: App;
  let withoutUi: App;
  beforeAll(async () => {
    dist = await mkdtemp(join(tmpdir(), 'opl-ui-dist-'));
    await mkdir(join(dist, 'assets'));
    await writeFile(join(dist, 'index.html'), '<!doctype html><title>opl</title>');
    await writeFile(join(dist, 'favicon.svg'), '<svg/>');
    await writeFile(join(dist, 'assets', 'app-1a2b3c.js'), 'export {}');
    await createTestDatabase();
    const logger = createLogger({ level: 'silent' });
    withUi = await createApp(testConfig(), { http: true, worker: false }, { logger, uiDistDir: dist });
    withoutUi = await createApp(testConfig(), { http: true, worker: false }, { logger, uiDistDir: join(dist, 'missing') });
  });
  afterAll(async () => {
    await withUi.stop();
    await withoutUi.stop();
    await rm(dist, { recursive: true, force: true });
  });

  it('serves index.html at / and revalidates it on every load', async () => {
    const response = await withUi.http!.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('caches hashed assets for good, but not files whose name stays the same', async () => {
    expect((await withUi.http!.inject({ method: 'GET', url: '/assets/app-1a2b3c.js' })).headers['cache-control']).toMatch(/immutable/);
    expect((await withUi.http!.inject({ method: 'GET', url: '/favicon.svg' })).headers['cache-control']).toBe('no-cache');
  });

  it('refuses path traversal out of the UI folder', async () => {
    const response = await withUi.http!.inject({ method: 'GET', url: '/..%2f..%2fetc%2fpasswd' });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('root:');
  });

  it('explains how to build the UI when it is missing', async () => {
    const response = await withoutUi.http!.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ code: 'ui_not_built' });
  });
});
