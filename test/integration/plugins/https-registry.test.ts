import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import { join, normalize } from 'node:path';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../core/config/index.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { createPublisher, createTestRegistry, providerCode, providerManifestSource, publishTestPlugin, TEST_CONNECTION_OP, type TestRegistry } from '../support/plugin-registry.ts';

const TLS_DIR = new URL('../../fixtures/tls/', import.meta.url);

describe('a registry served over HTTPS (OPL_REGISTRY_URL)', () => {
  let registry: TestRegistry;
  let server: Server;
  let baseUrl: string;
  let agent: Agent;
  const requested: string[] = [];

  beforeAll(async () => {
    const publisher = createPublisher('remote-publisher');
    registry = await createTestRegistry([publisher]);
    await publishTestPlugin(registry, { manifestSource: providerManifestSource('com.example.remote', '1.0.0', publisher.keyId), code: providerCode(TEST_CONNECTION_OP), publisher });
    const [cert, key] = await Promise.all([readFile(new URL('test-only-registry.cert.pem', TLS_DIR)), readFile(new URL('test-only-registry.key.pem', TLS_DIR))]);
    server = createServer({ cert, key }, (request, response) => {
      const path = decodeURIComponent(new URL(request.url ?? '/', 'https://x').pathname);
      requested.push(path);
      if (path === '/moved/index.json') {
        response.writeHead(302, { location: 'https://evil.test/index.json' }).end();
        return;
      }
      const file = normalize(join(registry.dir, path.replace(/^\/registry\//, '/')));
      if (!path.startsWith('/registry/') || !file.startsWith(registry.dir)) {
        response.writeHead(404).end();
        return;
      }
      readFile(file).then(
        (bytes) => response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(bytes),
        () => response.writeHead(404).end(),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    baseUrl = `https://localhost:${typeof address === 'object' && address ? address.port : 0}`;
    agent = new Agent({ connect: { ca: cert } });
  });

  afterAll(async () => {
    await agent?.close();
    await new Promise((resolve) => server?.close(resolve));
    await registry?.cleanup();
  });

  async function engine(url: string): Promise<TestApp> {
    return startTestApp({ OPL_REGISTRY_URL: url, OPL_PLUGIN_TRUST_FILE: registry.trustFile }, { http: true, worker: false }, { registryDispatcher: agent });
  }

  it('verifies and loads plugins fetched over HTTPS, reading only the files the manifest lists', async () => {
    const app = await engine(`${baseUrl}/registry`);
    try {
      const view = (await app.app.http!.inject({ method: 'GET', url: '/api/admin/plugins' })).json<{ registry: { source: string; location: string }; loaded: Array<{ id: string }> }>();
      expect(view.registry.source).toBe('https');
      expect(view.loaded.map((plugin) => plugin.id)).toEqual(['com.example.remote']);
      expect(await app.app.services.plugins.host.call('com.example.remote', 'testConnection', {})).toMatchObject({ ok: true });
      expect(requested).toContain('/registry/plugins/com.example.remote/1.0.0/plugin.js');
      expect(requested.every((path) => path.startsWith('/registry/'))).toBe(true);
    } finally {
      await app.close();
    }
  });

  it('refuses redirects and reports the registry as unreadable instead of following them', async () => {
    const app = await engine(`${baseUrl}/moved`);
    try {
      const view = (await app.app.http!.inject({ method: 'GET', url: '/api/admin/plugins' })).json<{ registry: { error: string | null }; loaded: unknown[] }>();
      expect(view.loaded).toHaveLength(0);
      expect(view.registry.error).toMatch(/HTTP 302.*redirects are not followed/);
    } finally {
      await app.close();
    }
  });

  it('accepts only https registry URLs without credentials in the configuration', () => {
    expect(() => loadConfig({ OPL_REGISTRY_URL: 'http://registry.example.test' })).toThrow(/OPL_REGISTRY_URL/);
    expect(() => loadConfig({ OPL_REGISTRY_URL: 'https://user:pw@registry.example.test' })).toThrow(/OPL_REGISTRY_URL/);
  });
});
