import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidInput, RateLimited, Unsupported } from '@opl/plugin-sdk';
import { SandboxError, type AcquirePermit } from '@opl/plugin-sdk/sandbox';
import { heapProfileEnv } from '../../../core/bootstrap/heap-profile.mjs';
import { PluginHost } from '../../../core/plugin-host/index.ts';
import { startEchoServer, type EchoServer } from '../../fakes/plugin-echo/echo-server.ts';
import { captureLogger } from './support/capture-logger.ts';
import { buildSignedBundle, createTestSigner, type SignedBundle } from './support/signed-bundles.ts';

/** The engine-side PluginHost with well-behaved plugins: IPC, streaming, the rate limiter hook and recovery. */

const PROVIDER_ID = 'test.host.provider';
const FORMAT_ID = 'test.host.format';

const providerCode = (origin: string) => `
export default { mark: 'opl.plugin/v1', kind: 'provider', operations: {
  async testConnection(input, ctx) {
    ctx.log.info('connected', { account: ctx.account ? ctx.account.id : null });
    return { ok: true, account_id: ctx.account ? ctx.account.id : null };
  },
  async readPlaylist(input, ctx) {
    if (input.playlist_id === 'rate') { const error = new Error('slow down'); error.type = 'RateLimited'; error.retryAfterSeconds = 7; throw error; }
    if (input.playlist_id === 'hang') await new Promise(() => {});
    if (input.playlist_id === 'slow') {
      try { await ctx.fetch('${origin}/v1/slow'); } catch (error) { ctx.log.info('slow fetch ended', { message: String(error.message) }); }
      return { name: 'after the slow fetch' };
    }
    if (input.playlist_id === 'fetch') {
      const response = await ctx.fetch('${origin}/v1/redirect?to=' + encodeURIComponent('${origin}/v1/echo'));
      return { name: 'status ' + response.status };
    }
    return { id: input.playlist_id, name: 'Playlist ' + input.playlist_id };
  },
  async searchTracks(input, ctx) {
    await ctx.fetch('${origin}/v1/echo');
    return { candidates: [{ title: input.query.text, artist: 'Someone' }] };
  },
} };`;

const formatCode = `
export default { mark: 'opl.plugin/v1', kind: 'format', operations: {
  parse(input, ctx) {
    const names = ctx.decodeText(input.bytes).split('\\n').filter(Boolean);
    return { playlists: [{ name: input.filename, tracks: names.map((title) => ({ title, artist: 'A' })) }], issues: [] };
  },
  async *serialize(input) {
    for (const playlist of input.playlists) {
      yield '# ' + playlist.name + '\\n';
      for (const track of playlist.tracks) yield track.title + '\\n';
      yield new Uint8Array(100000).fill(46);
    }
  },
} };`;

let echo: EchoServer;
let host: PluginHost;
let root: string;
let provider: SignedBundle;
let format: SignedBundle;
const permits: AcquirePermit[] = [];
const logger = captureLogger();

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
}

beforeAll(async () => {
  echo = await startEchoServer();
  root = await mkdtemp(join(tmpdir(), 'opl-plugin-host-'));
  const signer = createTestSigner('plugin-host-test-key');
  const common = { manifest_version: 1, version: '1.2.3', engines: { opl: '*' } };
  provider = await buildSignedBundle(
    signer,
    {
      ...common,
      id: PROVIDER_ID,
      name: 'Host test provider',
      kind: 'provider',
      provider: {
        name: 'hosttest',
        display_name: 'Host test',
        capabilities: ['READ_PLAYLISTS'],
        attributes: { has_isrc: false, official: false },
        write_constraints: {},
        pacing: { search_quota_cost: 3 },
        auth: [{ kind: 'LONG_LIVED_TOKEN' }],
      },
      network: [{ origin: echo.origin(), path_prefix: '/v1/', methods: ['GET'], reason: 'fake API' }],
    },
    providerCode(echo.origin()),
    join(root, 'provider'),
  );
  format = await buildSignedBundle(
    signer,
    { ...common, id: FORMAT_ID, name: 'Host test format', kind: 'format', format: { name: 'lines', display_name: 'Lines', extensions: ['.txt'], directions: ['import', 'export'] } },
    formatCode,
    join(root, 'format'),
  );
  host = new PluginHost({
    limits: { memoryMb: 64, callTimeoutMs: 10_000 },
    quarantineStrikes: 5,
    logger,
    hostResolver: { 'api.example.com': '127.0.0.1' },
    acquire: async (permit) => {
      permits.push(permit);
    },
    pingIntervalMs: 100,
    pingTimeoutMs: 600,
    childNodeFlags: ['--optimize-for-size'],
    childEnv: heapProfileEnv('memory'),
  });
  await host.load(provider);
  await host.load(format);
});

afterAll(async () => {
  await host?.close();
  await echo?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

describe('PluginHost', () => {
  it('starts its child with the heap profile’s node flags and environment, on top of the engine’s', async () => {
    const commandLine = (await readFile(`/proc/${host.childPid!}/cmdline`, 'utf8')).split('\0');
    expect(commandLine).toContain('--optimize-for-size');
    expect(commandLine).toContain('--no-node-snapshot');
    const environment = (await readFile(`/proc/${host.childPid!}/environ`, 'utf8')).split('\0');
    // A default: the engine's own environment, when it sets the variable, wins.
    for (const [name, value] of Object.entries(heapProfileEnv('memory'))) expect(environment).toContain(`${name}=${process.env[name] ?? value}`);
    expect(environment.some((entry) => entry.startsWith('PATH='))).toBe(true);
  });

  it('lists loaded plugins with the operations they implement', () => {
    expect(host.loadedPlugins()).toEqual([
      { id: PROVIDER_ID, version: '1.2.3', kind: 'provider', operations: ['testConnection', 'readPlaylist', 'searchTracks'], strikes: 0 },
      { id: FORMAT_ID, version: '1.2.3', kind: 'format', operations: ['parse', 'serialize'], strikes: 0 },
    ]);
  });

  it('calls operations and carries typed errors across the process boundary', async () => {
    expect(await host.call(PROVIDER_ID, 'testConnection', {}, { account: { id: 'acc-9', label: null } })).toEqual({ ok: true, account_id: 'acc-9', display_name: null, country: null });
    expect(await host.call(PROVIDER_ID, 'readPlaylist', { playlist_id: 'p1' })).toMatchObject({ id: 'p1', name: 'Playlist p1', tracks: [], kind: 'PLAYLIST' });
    const limited = await failure(host.call(PROVIDER_ID, 'readPlaylist', { playlist_id: 'rate' }));
    expect(limited).toBeInstanceOf(RateLimited);
    expect((limited as RateLimited).retryAfterSeconds).toBe(7);
    expect(await failure(host.call(PROVIDER_ID, 'readPlaylist', { playlist_id: '' }))).toBeInstanceOf(InvalidInput);
    expect(await failure(host.call(PROVIDER_ID, 'testConnection', {}, { account: { id: '' } }))).toBeInstanceOf(InvalidInput);
    expect(await failure(host.call(PROVIDER_ID, 'listPlaylists', {}))).toBeInstanceOf(Unsupported);
    expect(await failure(host.call(PROVIDER_ID, 'nonsense' as 'listPlaylists', {}))).toBeInstanceOf(Unsupported);
    const missing = await failure(host.call('test.not.loaded', 'testConnection', {}));
    expect((missing as SandboxError).failure).toBe('not_loaded');
  });

  it('a cancelled call fails at once, the child aborts its request in flight, and the plugin keeps working', async () => {
    const cancel = new AbortController();
    const before = echo.requests.length;
    const call = host.call(PROVIDER_ID, 'readPlaylist', { playlist_id: 'slow' }, {}, cancel.signal);
    while (!echo.requests.slice(before).some((request) => request.path === '/v1/slow')) await new Promise((resolve) => setTimeout(resolve, 20));
    cancel.abort();
    const error = await failure(call);
    expect(error.name).toBe('AbortError');
    const slow = echo.requests.slice(before).find((request) => request.path === '/v1/slow')!;
    while (!slow.abandoned) await new Promise((resolve) => setTimeout(resolve, 20));
    await expect.poll(() => logger.lines.some((line) => line.message === 'slow fetch ended' && /cancelled because the call ended/.test(JSON.stringify(line.data)))).toBe(true);
    expect(await failure(host.call(PROVIDER_ID, 'readPlaylist', { playlist_id: 'p2' }, {}, AbortSignal.abort()))).toHaveProperty('name', 'AbortError');
    expect(await host.call(PROVIDER_ID, 'readPlaylist', { playlist_id: 'p3' })).toMatchObject({ name: 'Playlist p3' });
  }, 15_000);

  it('forwards plugin logs to the engine logger with the plugin id', async () => {
    await host.call(PROVIDER_ID, 'testConnection', {}, { account: { id: 'acc-log' } });
    expect(logger.lines).toContainEqual(expect.objectContaining({ level: 'info', message: 'connected', data: expect.objectContaining({ plugin: PROVIDER_ID, source: 'plugin', op: 'testConnection', data: { account: 'acc-log' } }) }));
  });

  it('asks the engine’s rate limiter before every request, redirect hops included', async () => {
    permits.length = 0;
    expect(await host.call(PROVIDER_ID, 'readPlaylist', { playlist_id: 'fetch' }, { account: { id: 'acc-1' } })).toMatchObject({ name: 'status 200' });
    expect(permits).toEqual([
      { pluginId: PROVIDER_ID, accountId: 'acc-1', op: 'readPlaylist', cost: 1, retryAfterS: null },
      { pluginId: PROVIDER_ID, accountId: 'acc-1', op: 'readPlaylist', cost: 1, retryAfterS: null },
    ]);
    permits.length = 0;
    await host.call(PROVIDER_ID, 'searchTracks', { query: { text: 'song' } }, { account: { id: 'acc-1' } });
    expect(permits).toEqual([{ pluginId: PROVIDER_ID, accountId: 'acc-1', op: 'searchTracks', cost: 3, retryAfterS: null }]);
  });

  it('parses bytes sent across the process boundary', async () => {
    const result = await host.call(FORMAT_ID, 'parse', { bytes: new TextEncoder().encode('one\ntwo\n'), filename: 'list.txt' });
    expect(result.playlists[0]?.tracks.map((track) => track.title)).toEqual(['one', 'two']);
  });

  it('streams serialize chunks in order, waiting for a slow consumer', async () => {
    const chunks: Uint8Array[] = [];
    let busy = false;
    const result = await host.serialize(FORMAT_ID, { playlists: [{ name: 'Mix', tracks: [{ title: 'a', artist: 'x' }, { title: 'b', artist: 'y' }] }] }, async (chunk) => {
      expect(busy).toBe(false);
      busy = true;
      await new Promise((resolve) => setTimeout(resolve, 2));
      chunks.push(chunk);
      busy = false;
    });
    expect(result.chunks).toBe(chunks.length);
    expect(chunks.every((chunk) => chunk.byteLength <= 64 * 1024)).toBe(true);
    expect(Buffer.concat(chunks).toString('utf8')).toBe(`# Mix\na\nb\n${'.'.repeat(100_000)}`);
  });

  it('serializePlaylist asks the engine for the tracks a slice at a time; a plugin without a writer gets them gathered into its serialize', async () => {
    const queue = [
      { done: false as const, tracks: [{ title: 'a', artist: 'x' }] },
      { done: false as const, tracks: [{ title: 'b', artist: 'y' }, { title: 'c', artist: 'z' }] },
      { done: true as const, late: { warnings: [] } },
    ];
    let asked = 0;
    const chunks: Uint8Array[] = [];
    const result = await host.serializePlaylist(
      FORMAT_ID,
      { playlist: { name: 'Mix' } },
      async () => {
        asked += 1;
        return queue.shift() as never;
      },
      (chunk) => {
        chunks.push(chunk);
      },
    );
    expect(asked).toBe(3);
    expect(result.chunks).toBe(chunks.length);
    expect(Buffer.concat(chunks).toString('utf8')).toBe(`# Mix\na\nb\nc\n${'.'.repeat(100_000)}`);
    // The engine's source failing fails the call, with its reason.
    const failed = await failure(host.serializePlaylist(FORMAT_ID, { playlist: { name: 'Mix' } }, () => Promise.reject(new Error('the database went away')), () => undefined));
    expect(failed.message).toContain('the database went away');
  });

  it('recovers when the child process is killed: in-flight calls fail typed, plugins are reloaded', async () => {
    const pid = host.childPid!;
    const hanging = failure(host.call(PROVIDER_ID, 'readPlaylist', { playlist_id: 'hang' }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    process.kill(pid, 'SIGKILL');
    const error = await hanging;
    expect(error).toBeInstanceOf(SandboxError);
    expect((error as SandboxError).failure).toBe('crashed');
    expect(error.message).toContain('SIGKILL');

    expect(await host.call(FORMAT_ID, 'parse', { bytes: new TextEncoder().encode('x'), filename: 'x.txt' })).toMatchObject({ issues: [] });
    expect(await host.call(PROVIDER_ID, 'readPlaylist', { playlist_id: 'p2' })).toMatchObject({ name: 'Playlist p2' });
    expect(host.childPid).not.toBe(pid);
    expect(host.loadedPlugins().map((plugin) => [plugin.id, plugin.strikes])).toEqual([
      [PROVIDER_ID, 1],
      [FORMAT_ID, 0],
    ]);
  });

  it('does not blame the child for time the engine’s own thread was busy', async () => {
    const pid = host.childPid!;
    const before = logger.lines.length;
    // The engine's thread busy with its own work (a large record parsed, say) for several ping
    // timeouts in a row, each stall starting right after the watchdog's tick sent a ping: the
    // healthy child's pong waits in the channel until the stall ends.
    for (let stall = 0; stall < 4; stall++) {
      const until = performance.now() + 1_500;
      while (performance.now() < until) {
        // busy: no timer, no I/O
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await host.call(PROVIDER_ID, 'readPlaylist', { playlist_id: 'p4' })).toMatchObject({ name: 'Playlist p4' });
    expect(host.childPid).toBe(pid);
    expect(logger.lines.slice(before).some((line) => line.message.includes('did not answer a ping'))).toBe(false);
  });

  it('restarts a child that stops answering pings', async () => {
    const pid = host.childPid!;
    const hanging = failure(host.call(PROVIDER_ID, 'readPlaylist', { playlist_id: 'hang' }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    process.kill(pid, 'SIGSTOP');
    const error = (await hanging) as SandboxError;
    expect(error.failure).toBe('crashed');
    expect(logger.lines.some((line) => line.message.includes('did not answer a ping'))).toBe(true);
    expect(await host.call(PROVIDER_ID, 'readPlaylist', { playlist_id: 'p3' })).toMatchObject({ name: 'Playlist p3' });
    expect(host.childPid).not.toBe(pid);
  });

  it('unloads plugins and refuses calls after close', async () => {
    await host.unload(FORMAT_ID);
    expect(((await failure(host.call(FORMAT_ID, 'parse', { bytes: new Uint8Array(1) }))) as SandboxError).failure).toBe('not_loaded');
    const inFlight = failure(host.call(PROVIDER_ID, 'readPlaylist', { playlist_id: 'hang' }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await host.close();
    expect(((await inFlight) as SandboxError).failure).toBe('disposed');
    expect(((await failure(host.call(PROVIDER_ID, 'testConnection', {}))) as SandboxError).failure).toBe('disposed');
  });
});
