import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPluginCli, type PluginCliIo } from '@opl/plugin-sdk/cli';
import { writeBundle } from '@opl/plugin-sdk/tools';
import { startEchoServer, type EchoServer } from '../../fakes/plugin-echo/echo-server.ts';

// `opl-plugin test` end to end: real bundles on disk, the real sandbox, the CLI's exit codes.

let root: string;
let echo: EchoServer;

function io(cwd: string): PluginCliIo & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return { cwd, stdout: { write: (text: string) => (out += text) }, stderr: { write: (text: string) => (err += text) }, out: () => out, err: () => err };
}

async function cli(args: string[], cwd = root) {
  const streams = io(cwd);
  const code = await runPluginCli(['test', ...args], streams);
  return { code, out: streams.out(), err: streams.err() };
}

const providerManifest = (origin: string) => ({
  manifest_version: 1,
  id: 'com.example.cli-test',
  name: 'CLI test provider',
  version: '0.2.0',
  kind: 'provider',
  publisher: { name: 'Example', key_id: 'example-key' },
  engines: { opl: '*' },
  provider: { name: 'clitest', display_name: 'CLI test', capabilities: ['READ_PLAYLISTS', 'READ_TRACKS'], attributes: { has_isrc: false, official: false }, write_constraints: {}, auth: [{ kind: 'LONG_LIVED_TOKEN' }] },
  network: [{ origin, path_prefix: '/v1/', methods: ['GET'], reason: 'the API' }],
});

const providerCode = (origin: string) => `
export default { mark: 'opl.plugin/v1', kind: 'provider', operations: {
  async listPlaylists(input, ctx) {
    const response = await ctx.fetch('${origin}/v1/me/playlists?limit=' + input.limit);
    if (response.status === 404) { const error = new Error('no such account'); error.type = 'NotFound'; throw error; }
    const page = response.json();
    return { items: page.items.map((p) => ({ id: p.id, name: p.name })), next_cursor: page.next, total: page.total };
  },
  async readPlaylist(input, ctx) {
    await ctx.fetch('https://elsewhere.example.org/v1/x');
    return { name: 'never' };
  },
  async listPlaylistItems(input, ctx) {
    const page = (await ctx.fetch('${origin}/v1/playlists/' + input.playlist_id + '/tracks?offset=0&limit=' + input.limit)).json();
    return { items: page.items.map((t) => ({ title: t.name, artist: t.artists[0].name })), next_cursor: page.next, total: page.total };
  },
} };`;

async function providerProject(name: string, origin: string, cases: Record<string, unknown>): Promise<string> {
  const dir = join(root, name);
  await writeBundle({ manifestSource: providerManifest(origin), files: { 'plugin.js': providerCode(origin) }, outDir: join(dir, 'dist') });
  await mkdir(join(dir, 'fixtures'), { recursive: true });
  for (const [file, value] of Object.entries(cases)) await writeFile(join(dir, 'fixtures', file), JSON.stringify(value));
  return dir;
}

const exchange = (status: number, body: unknown) => ({
  request: { method: 'GET', url: 'https://api.example.com/v1/me/playlists?limit=2' },
  response: { status, headers: { 'content-type': 'application/json' }, body },
});

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'opl-test-command-'));
  echo = await startEchoServer({ playlistSize: 250 });
});

afterAll(async () => {
  await echo?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

describe('opl-plugin test', () => {
  it('passes fixture cases served by the fake exchanges, including expected errors', async () => {
    const dir = await providerProject('passing', 'https://api.example.com', {
      'list.json': {
        description: 'first page',
        operation: 'listPlaylists',
        input: { limit: 2 },
        http: [exchange(200, { items: [{ id: 'p1', name: 'Road trip' }, { id: 'p2', name: 'Focus' }], next: 'c2', total: 3 })],
        expect: { items: [{ id: 'p1', name: 'Road trip' }, { name: 'Focus' }], next_cursor: 'c2' },
      },
      'missing.json': { operation: 'listPlaylists', input: { limit: 2 }, http: [exchange(404, {})], expect_error: { type: 'NotFound', message_includes: 'no such account' } },
    });
    const result = await cli([dir]);
    expect(result.code).toBe(0);
    expect(result.out).toContain('Testing com.example.cli-test@0.2.0 (provider, unsigned)');
    expect(result.out).toMatch(/PASS {2}listPlaylists {2}list\.json — first page \(\d+ ms\)\n {4}2 item\(s\), next_cursor "c2", total 3/);
    expect(result.out).toContain('PASS  listPlaylists  missing.json');
    expect(result.out).toContain('failed as expected: NotFound: no such account');
    expect(result.out).toContain('2 passed, 0 failed');
  });

  it('fails cases whose result differs, whose requests are refused or who skip an expected request', async () => {
    const dir = await providerProject('failing', 'https://api.example.com', {
      'a-mismatch.json': {
        operation: 'listPlaylists',
        input: { limit: 2 },
        http: [exchange(200, { items: [{ id: 'p1', name: 'Actual' }], next: null })],
        expect: { items: [{ name: 'Expected' }], next_cursor: null },
      },
      'b-refused.json': { operation: 'readPlaylist', input: { playlist_id: 'x' }, expect: { name: 'never' } },
      'c-unused.json': { operation: 'readPlaylist', input: { playlist_id: 'x' }, http: [exchange(200, {})], expect_error: {} },
    });
    const result = await cli([dir]);
    expect(result.code).toBe(1);
    expect(result.out).toContain('FAIL  listPlaylists  a-mismatch.json');
    expect(result.out).toContain('$.items[0].name: expected "Expected", got "Actual"');
    expect(result.out).toContain('FAIL  readPlaylist  b-refused.json');
    expect(result.out).toContain('request refused: https://elsewhere.example.org/v1/x');
    expect(result.out).toContain('the plugin did not make this expected request: GET https://api.example.com/v1/me/playlists?limit=2');
    expect(result.out).toContain('0 passed, 3 failed');
  });

  it('runs a call script against a real server the grants point to', async () => {
    const dir = await providerProject('script', echo.origin(), {});
    const script = join(dir, 'calls.json');
    await writeFile(
      script,
      JSON.stringify({
        account: { id: 'acc-1', label: 'Me' },
        calls: [
          { operation: 'listPlaylistItems', input: { playlist_id: 'mix', limit: 100 }, expect: { next_cursor: '/v1/playlists/mix/tracks?offset=100&limit=100', total: 250 } },
          { operation: 'listPlaylistItems', input: { playlist_id: 'mix', limit: 3 } },
        ],
      }),
    );
    const result = await cli([dir, '--script', script, '--resolve', 'api.example.com=127.0.0.1']);
    expect(result.code).toBe(0);
    expect(result.out).toContain('PASS  listPlaylistItems  calls.json#1');
    expect(result.out).toContain('3 item(s), next_cursor "/v1/playlists/mix/tracks?offset=3&limit=3", total 250');
    expect(echo.requests.some((request) => request.path.startsWith('/v1/playlists/mix/tracks') && request.headers.authorization === 'Bearer opl-plugin-test-token')).toBe(true);
  });

  it('parses the files in a format plugin’s fixtures directory and summarises them', async () => {
    const dir = join(root, 'format');
    await writeBundle({
      manifestSource: {
        manifest_version: 1,
        id: 'com.example.lines',
        name: 'Lines',
        version: '1.0.0',
        kind: 'format',
        publisher: { name: 'Example', key_id: 'example-key' },
        engines: { opl: '*' },
        format: { name: 'lines', display_name: 'Lines', extensions: ['.lines'], directions: ['import'] },
      },
      files: {
        'plugin.js': `export default { mark: 'opl.plugin/v1', kind: 'format', operations: { parse(input, ctx) {
          const lines = ctx.decodeText(input.bytes).split('\\n').filter(Boolean);
          if (lines[0] === 'crash') throw new Error('cannot read this');
          return { playlists: [{ name: input.filename, tracks: lines.map((title) => ({ title, artist: '' })) }], issues: [] };
        } } };`,
      },
      outDir: join(dir, 'dist'),
    });
    await mkdir(join(dir, 'fixtures'));
    await writeFile(join(dir, 'fixtures', 'good.lines'), 'one\ntwo\n');
    const ok = await cli([dir]);
    expect(ok.code).toBe(0);
    expect(ok.out).toContain('PASS  parse  good.lines');
    expect(ok.out).toContain('1 playlist(s): "good.lines" (2 tracks); 0 issue(s)');
    await writeFile(join(dir, 'fixtures', 'bad.lines'), 'crash\n');
    const bad = await cli([dir]);
    expect(bad.code).toBe(1);
    expect(bad.out).toContain('FAIL  parse  bad.lines');
    expect(bad.out).toContain('ProviderError: the plugin failed: Error: cannot read this');
  });

  it('refuses bundles that do not load or were modified, and bad arguments', async () => {
    const dir = join(root, 'broken');
    await writeBundle({ manifestSource: providerManifest('https://api.example.com'), files: { 'plugin.js': `import fs from 'node:fs'; export default fs;` }, outDir: join(dir, 'dist') });
    await mkdir(join(dir, 'fixtures'));
    const broken = await cli([dir]);
    expect(broken.code).toBe(1);
    expect(broken.err).toContain('does not load in the sandbox (imports_not_allowed)');

    await writeFile(join(dir, 'dist', 'plugin.js'), 'export default 1;');
    const modified = await cli([dir]);
    expect(modified.code).toBe(1);
    expect(modified.err).toContain('(modified_file)');

    expect((await cli([join(root, 'nowhere')])).code).toBe(1);
    expect((await cli([dir, '--no-such-option'])).code).toBe(64);
    expect((await cli([dir, '--memory-mb', 'lots'])).code).toBe(64);
  });
});
