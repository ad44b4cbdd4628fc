import { mkdtemp, readFile, rm, writeFile, chmod } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OperationResult } from '@opl/plugin-sdk';
import { runPluginCli, type PluginCliIo } from '@opl/plugin-sdk/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * What a third party does, start to finish, with nothing but @opl/plugin-sdk: scaffold, write,
 * build, generate a key, sign, publish into a registry; then an admin of a hosted instance
 * trusts the key and allow-lists the plugin, and the engine loads it and calls it in the sandbox.
 */

const TOKEN = 'radio-secret-token-4f9c2e';
const ADMIN_TOKEN = 'walkthrough-admin-token-0123456789';

const PLUGIN_SOURCE = `import { AuthExpired, defineProviderPlugin, NotFound } from '@opl/plugin-sdk';

const API = '__ORIGIN__/v1';

interface ApiTrack { id: string; name: string; by: string; isrc?: string; seconds: number }

export default defineProviderPlugin({
  async testConnection(_input, ctx) {
    const response = await ctx.fetch(API + '/me');
    if (response.status === 401) throw new AuthExpired();
    const me = response.json() as { id: string; name: string };
    return { ok: true, account_id: me.id, display_name: me.name };
  },
  async listPlaylistItems(input, ctx) {
    const url = API + '/playlists/' + encodeURIComponent(input.playlist_id) + '/tracks?cursor=' + (input.cursor ?? '0');
    const response = await ctx.fetch(url);
    if (response.status === 404) throw new NotFound('no playlist ' + input.playlist_id);
    if (response.status === 401) throw new AuthExpired();
    const page = response.json() as { tracks: ApiTrack[]; next: string | null };
    ctx.log.info('read a page', { count: page.tracks.length });
    return {
      items: page.tracks.map((track) => ({
        id: track.id,
        title: track.name,
        artist: track.by,
        isrc: track.isrc ?? null,
        duration_s: track.seconds,
        provider_uris: { radio: 'radio:track:' + track.id },
      })),
      next_cursor: page.next,
    };
  },
});
`;

describe('third-party walkthrough: SDK only, from init to a call in a hosted engine', () => {
  let work: string;
  let server: Server;
  let origin: string;
  let app: TestApp;
  const output: string[] = [];
  const io: PluginCliIo = { stdout: { write: (text: string) => output.push(text) }, stderr: { write: (text: string) => output.push(text) }, cwd: '/' };
  const cli = async (...argv: string[]) => {
    const code = await runPluginCli(argv, { ...io, cwd: work });
    expect(code, `opl-plugin ${argv.join(' ')}\n${output.join('')}`).toBe(0);
  };

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'opl-walkthrough-'));
    await chmod(work, 0o755);
    server = createServer((request, response) => {
      if (request.headers.authorization !== `Bearer ${TOKEN}`) {
        response.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
        return;
      }
      const url = new URL(request.url ?? '/', 'http://x');
      if (url.pathname === '/v1/me') {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'listener-7', name: 'Listener Seven' }));
        return;
      }
      const match = /^\/v1\/playlists\/([^/]+)\/tracks$/.exec(url.pathname);
      if (!match || match[1] !== 'roadtrip') {
        response.writeHead(404).end();
        return;
      }
      const cursor = Number(url.searchParams.get('cursor') ?? '0');
      const all = Array.from({ length: 5 }, (_, i) => ({ id: `t${i}`, name: `Song ${i}`, by: 'Band', isrc: `USRC1700000${i}`, seconds: 180 + i }));
      const tracks = all.slice(cursor, cursor + 3);
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ tracks, next: cursor + 3 < all.length ? String(cursor + 3) : null }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    origin = `http://api.radio.test:${typeof address === 'object' && address ? address.port : 0}`;
  });

  afterAll(async () => {
    await app?.close();
    await new Promise((resolve) => server?.close(resolve));
    await rm(work, { recursive: true, force: true });
  });

  it('scaffolds, builds, signs and publishes with the SDK CLI', { timeout: 120_000 }, async () => {
    await cli('init', 'radio', '--id', 'com.example.radio', '--name', 'Example Radio', '--kind', 'provider');
    const project = join(work, 'radio');
    const manifest = JSON.parse(await readFile(join(project, 'plugin.json'), 'utf8')) as Record<string, unknown> & { provider: Record<string, unknown>; publisher: Record<string, unknown> };
    manifest.publisher = { name: 'Example Radio Inc.', key_id: 'example-radio-2026' };
    manifest.provider.name = 'radio';
    manifest.network = [{ origin, path_prefix: '/v1/', methods: ['GET'], reason: 'Read the listener profile and playlist tracks.' }];
    await writeFile(join(project, 'plugin.json'), JSON.stringify(manifest, null, 2));
    await writeFile(join(project, 'src', 'index.ts'), PLUGIN_SOURCE.replace('__ORIGIN__', origin));

    await cli('build', 'radio', '--out', join(work, 'bundle'));
    await cli('keygen', '--key-id', 'example-radio-2026', '--publisher', 'Example Radio Inc.', '--out', 'keys/radio.key.json', '--test-only');
    await cli('sign', 'bundle', '--key', 'keys/radio.key.json');
    await cli('publish', 'bundle', '--registry', 'registry', '--key', 'keys/radio.pub.json');
    await cli('trust', 'add', 'keys/radio.pub.json', '--trust', 'trusted-keys.json');
    await cli('verify', 'registry/plugins/com.example.radio/0.1.0', '--trust', 'trusted-keys.json', '--registry', 'registry');

    const bundled = await readFile(join(work, 'registry', 'plugins', 'com.example.radio', '0.1.0', 'plugin.js'), 'utf8');
    expect(bundled).not.toMatch(/\bimport\b[^(]/);
  });

  it('is refused by a hosted engine until an admin allow-lists it, then loads and runs in the sandbox', { timeout: 60_000 }, async () => {
    app = await startTestApp(
      {
        OPL_DEPLOYMENT_MODE: 'hosted',
        OPL_ADMIN_TOKEN: ADMIN_TOKEN,
        OPL_REGISTRY_DIR: join(work, 'registry'),
        OPL_PLUGIN_TRUST_FILE: join(work, 'trusted-keys.json'),
      },
      { http: true, worker: false },
      { pluginHostResolver: { 'api.radio.test': '127.0.0.1' } },
    );
    const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const before = (await app.app.http!.inject({ method: 'GET', url: '/api/admin/plugins', headers: auth })).json<{ refused: Array<{ id: string; reason: string }> }>();
    expect(before.refused).toEqual([expect.objectContaining({ id: 'com.example.radio', reason: 'not_allow_listed' })]);

    const allowed = await app.app.http!.inject({
      method: 'POST',
      url: '/api/admin/plugins/allow-list',
      headers: auth,
      payload: { plugin_id: 'com.example.radio', key_id: 'example-radio-2026', version_range: '^0.1.0' },
    });
    expect(allowed.statusCode).toBe(201);
    const providers = (await app.app.http!.inject({ method: 'GET', url: '/providers' })).json<{ providers: Array<{ name: string; plugin: { id: string; signed: boolean } }> }>();
    expect(providers.providers).toEqual([expect.objectContaining({ name: 'radio', plugin: { id: 'com.example.radio', version: '0.1.0', signed: true } })]);

    const host = app.app.services.plugins.host;
    const context = { account: { id: 'acct-1', label: 'Listener' }, credentials: [{ origin, headers: { authorization: `Bearer ${TOKEN}` } }] };
    expect(await host.call('com.example.radio', 'testConnection', {}, context)).toMatchObject({ ok: true, account_id: 'listener-7', display_name: 'Listener Seven' });

    const tracks: string[] = [];
    let cursor: string | null = null;
    do {
      const page: OperationResult<'listPlaylistItems'> = await host.call('com.example.radio', 'listPlaylistItems', { playlist_id: 'roadtrip', cursor }, context);
      tracks.push(...page.items.map((item) => `${item.title}|${item.isrc ?? ''}|${item.provider_uris.radio ?? ''}`));
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect(tracks).toEqual(Array.from({ length: 5 }, (_, i) => `Song ${i}|USRC1700000${i}|radio:track:t${i}`));

    // Typed errors cross the boundary as themselves; without the credential the provider says 401.
    await expect(host.call('com.example.radio', 'listPlaylistItems', { playlist_id: 'nope' }, context)).rejects.toMatchObject({ type: 'NotFound' });
    await expect(host.call('com.example.radio', 'testConnection', {}, { account: null, credentials: [] })).rejects.toMatchObject({ type: 'AuthExpired' });
    // Operations the manifest does not declare never reach the plugin.
    await expect(host.call('com.example.radio', 'createPlaylist', { name: 'x' }, context)).rejects.toMatchObject({ type: 'Unsupported' });
    expect(app.logs.join('')).not.toContain(TOKEN);
  });
});
