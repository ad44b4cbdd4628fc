import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import { readTrustStore, trustKey, writeTrustStore } from '@opl/plugin-sdk/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { createPublisher, providerCode, providerManifestSource, publishTestPlugin, TEST_CONNECTION_OP } from '../support/plugin-registry.ts';
import { firstPartyPlugins } from '../support/first-party-plugins.ts';

const TLS_DIR = new URL('../../fixtures/tls/', import.meta.url);
const LISTENER = '127.0.0.2';

const bundle = {
  $schema: 'https://open-playlist.org/schemas/export/open-playlist-bundle-v1.json',
  schema_version: 1,
  source_provider: null,
  warnings: [],
  playlists: [{ name: 'Shared mix', tracks: [{ title: 'Eple', artist: 'Röyksopp' }, { title: 'One More Time', artist: 'Daft Punk' }] }],
};

describe('POST /api/imports/url-preview', () => {
  let plugins: Awaited<ReturnType<typeof firstPartyPlugins>>;
  let server: Server;
  let app: TestApp;
  const requests: string[] = [];

  beforeAll(async () => {
    plugins = await firstPartyPlugins();
    // A provider plugin that declares its public playlist links.
    const publisher = createPublisher('links-publisher');
    const registry = { dir: plugins.env.OPL_REGISTRY_DIR!, trustFile: plugins.env.OPL_PLUGIN_TRUST_FILE!, env: plugins.env, cleanup: async () => undefined };
    await writeTrustStore(registry.trustFile, trustKey(await readTrustStore(registry.trustFile), publisher.record, { testOnly: true }));
    await publishTestPlugin(registry, {
      manifestSource: providerManifestSource('com.example.tunes', '1.0.0', publisher.keyId, {
        provider: {
          name: 'tunes',
          display_name: 'Tunes',
          capabilities: ['READ_PLAYLISTS', 'READ_TRACKS'],
          attributes: { has_isrc: true, official: true },
          write_constraints: {},
          auth: [{ kind: 'OAUTH_PKCE' }],
          playlist_links: [{ origin: 'https://listen.tunes.test', path_prefix: '/playlist/' }],
        },
      }),
      code: providerCode(TEST_CONNECTION_OP),
      publisher,
    });

    const [cert, key] = await Promise.all([readFile(new URL('test-only-registry.cert.pem', TLS_DIR)), readFile(new URL('test-only-registry.key.pem', TLS_DIR))]);
    server = createServer({ cert, key }, (request, response) => {
      const path = request.url ?? '/';
      requests.push(`${request.headers.host ?? ''}${path}`);
      if (path === '/shared/mix.json') response.writeHead(200, { 'content-type': 'application/vnd.open-playlist+json' }).end(JSON.stringify(bundle));
      else if (path === '/shared/notes.json') response.writeHead(200, { 'content-type': 'application/json' }).end('this is not JSON at all');
      else if (path === '/shared/big.json') response.writeHead(200, { 'content-type': 'application/json' }).end(' '.repeat(300_000));
      else if (path === '/shared/away.json') response.writeHead(302, { location: 'https://metadata.internal.test/latest/meta-data/' }).end();
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, LISTENER, resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const table: Record<string, string> = { 'registry.opl.test': LISTENER, 'private.opl.test': '10.1.2.3', 'metadata.internal.test': '169.254.169.254' };
    app = await startTestApp(
      { ...plugins.env, OPL_IMPORT_URL_ALLOWED_HOSTS: 'registry.opl.test/shared/,private.opl.test', OPL_IMPORT_MAX_BYTES: '200000' },
      { http: true, worker: false },
      {
        importUrlFetch: {
          resolver: async (host) => (table[host] ? [{ address: table[host], family: 4 }] : []),
          testOnly: { allowAddress: (address) => address === LISTENER, connectPort: port, ca: cert.toString('utf8') },
        },
      },
    );
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    await new Promise((resolve) => server?.close(resolve));
    await plugins?.remove();
  });

  const preview = (url: string) => app.app.http!.inject({ method: 'POST', url: '/api/imports/url-preview', payload: { url } });

  it('imports remote Open Playlist JSON from an allowed host into a private import record', async () => {
    const response = await preview('https://registry.opl.test/shared/mix.json');
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json<{ id: string; kind: string; format: string; playlists: Array<{ name: string; track_count: number }> }>();
    expect(body).toMatchObject({ kind: 'url', format: 'json', playlists: [{ name: 'Shared mix', track_count: 2 }] });
    const record = await app.app.http!.inject({ method: 'GET', url: `/api/imports/${body.id}` });
    expect(record.json<{ playlists: Array<{ tracks: Array<{ title: string }> }> }>().playlists[0]?.tracks.map((track) => track.title)).toEqual(['Eple', 'One More Time']);
  });

  it.each([
    ['http://registry.opl.test/shared/mix.json', 'unsupported_scheme'],
    ['https://elsewhere.opl.test/shared/mix.json', 'host_not_allowed'],
    ['https://registry.opl.test/private/mix.json', 'path_not_allowed'],
    ['https://user:pw@registry.opl.test/shared/mix.json', 'credentials_in_url'],
    ['https://registry.opl.test:8443/shared/mix.json', 'port_not_allowed'],
    ['https://127.0.0.2/shared/mix.json', 'ip_literal_host'],
    ['https://private.opl.test/list.json', 'private'],
    ['https://registry.opl.test/shared/away.json', 'host_not_allowed'],
  ])('refuses %s before reaching anything it must not (%s)', async (url, reason) => {
    const before = requests.length;
    const response = await preview(url);
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json<{ reason: string; detail: string }>().reason).toBe(reason);
    expect(response.body).not.toContain('pw@');
    // Only the allowed redirecting document may have been requested; nothing else reached the listener.
    expect(requests.slice(before).every((request) => request.endsWith('/shared/away.json'))).toBe(true);
  });

  it('answers a provider playlist link with the action to connect that provider, fetching nothing', async () => {
    const before = requests.length;
    const response = await preview('https://listen.tunes.test/playlist/37i9dQZF1DX');
    expect(response.statusCode).toBe(422);
    expect(response.json<{ action: unknown; detail: string }>()).toMatchObject({ action: { type: 'connect_source_account', provider: 'tunes', display_name: 'Tunes' } });
    expect(requests.length).toBe(before);
  });

  it('reports remote failures, unreadable content and oversized documents clearly', async () => {
    const missing = await preview('https://registry.opl.test/shared/gone.json');
    expect(missing.statusCode).toBe(502);
    expect(missing.json<{ detail: string }>().detail).toMatch(/HTTP 404/);
    const notes = await preview('https://registry.opl.test/shared/notes.json');
    expect(notes.statusCode).toBe(422);
    const big = await preview('https://registry.opl.test/shared/big.json');
    expect(big.statusCode).toBe(413);
  });
});
