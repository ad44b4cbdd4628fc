import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';

describe('published JSON Schemas', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ OPL_PUBLIC_BASE_URL: 'https://music.example.test', OPL_OWNER_SECRET: 'correct horse battery staple' });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('serves the bundle and export-manifest schemas at the schema base, with $id pointing there', async () => {
    for (const name of ['open-playlist-bundle-v1.json', 'open-playlist-export-manifest-v1.json']) {
      const response = await t.app.http!.inject({ method: 'GET', url: `/schemas/export/${name}` });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/schema\+json/);
      const schema = response.json<{ $id: string; $schema: string }>();
      expect(schema.$id).toBe(`https://music.example.test/schemas/export/${name}`);
      expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    }
  });

  it('is public even behind the owner-session gate, and serves only generated schemas', async () => {
    expect((await t.app.http!.inject({ method: 'GET', url: '/schemas/manifest.schema.json' })).statusCode).toBe(200);
    for (const url of ['/schemas/../package.json', '/schemas/%2e%2e/%2e%2e/package.json', '/schemas/export/nope.json']) {
      const response = await t.app.http!.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
    }
  });
});
