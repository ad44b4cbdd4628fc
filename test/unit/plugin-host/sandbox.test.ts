import { afterEach, describe, expect, it } from 'vitest';
import { InvalidInput, NotFound, ProviderError, RateLimited, Unsupported } from '../../../plugin-sdk/src/errors.ts';
import { manifestSchema, type Manifest } from '../../../plugin-sdk/src/manifest.schema.ts';
import type { OperationInput } from '../../../plugin-sdk/src/operations.schema.ts';
import { createSandbox, PluginLoadError, SandboxError, type Sandbox, type SandboxLogEntry } from '../../../plugin-sdk/src/sandbox/index.ts';

// The sandbox alone, without network access: everything here runs in isolates of this process.

const LIMITS = { memoryMb: 32, callTimeoutMs: 1_500, cpuTimeMs: 400 };

function providerManifest(overrides: Record<string, unknown> = {}, provider: Record<string, unknown> = {}): Manifest {
  return manifestSchema.parse({
    manifest_version: 1,
    id: 'test.sandbox-unit',
    name: 'Sandbox unit',
    version: '1.0.0',
    kind: 'provider',
    publisher: { name: 'Tests', key_id: 'test-key' },
    engines: { opl: '*' },
    provider: {
      name: 'unit',
      display_name: 'Unit',
      capabilities: ['READ_PLAYLISTS', 'READ_TRACKS'],
      attributes: { has_isrc: false, official: false },
      write_constraints: {},
      auth: [{ kind: 'LONG_LIVED_TOKEN' }],
      ...provider,
    },
    network: [{ origin: 'https://api.example.com', path_prefix: '/v1', methods: ['GET'], reason: 'the API' }],
    files: { 'plugin.js': 'a'.repeat(64) },
    ...overrides,
  });
}

const formatManifest = manifestSchema.parse({
  manifest_version: 1,
  id: 'test.format-unit',
  name: 'Format unit',
  version: '1.0.0',
  kind: 'format',
  publisher: { name: 'Tests', key_id: 'test-key' },
  engines: { opl: '*' },
  format: { name: 'lines', display_name: 'Lines', extensions: ['.txt'], directions: ['import', 'export'] },
  files: { 'plugin.js': 'a'.repeat(64) },
});

const sandboxes: Sandbox[] = [];
afterEach(() => {
  for (const sandbox of sandboxes.splice(0)) sandbox.dispose();
});

async function open(code: string, manifest: Manifest = providerManifest(), extra: { onBroken?: (failure: string) => void; limits?: typeof LIMITS } = {}) {
  const logs: SandboxLogEntry[] = [];
  const sandbox = await createSandbox({ manifest, code, limits: LIMITS, log: (entry) => logs.push(entry), ...extra });
  sandboxes.push(sandbox);
  return { sandbox, logs };
}

function provider(operations: string): string {
  return `let kept = null;\nexport default { mark: 'opl.plugin/v1', kind: 'provider', operations: { ${operations} } };`;
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail');
}

describe('createSandbox: calls', () => {
  it('runs an operation, fills defaults and gives ctx only plain capabilities', async () => {
    const { sandbox, logs } = await open(
      provider(`
        async testConnection(input, ctx) {
          const seen = [typeof process, typeof require, typeof setTimeout, typeof fetch, typeof console, typeof WebAssembly, typeof SharedArrayBuffer].join(',');
          ctx.log.info('connected', { seen });
          const roundTrip = ctx.decodeText(ctx.encodeText('héllo'));
          return { ok: true, account_id: ctx.account.id, display_name: seen + '|' + roundTrip + '|' + (ctx.credential === null) + '|' + Object.isFrozen(ctx), country: ctx.now().slice(0, 2) };
        },
      `),
    );
    const result = await sandbox.call('testConnection', {}, { account: { id: 'acc-1', label: 'Me' } });
    expect(result).toEqual({
      ok: true,
      account_id: 'acc-1',
      display_name: 'undefined,undefined,undefined,undefined,undefined,undefined,undefined|héllo|true|true',
      country: '20',
    });
    expect(logs).toContainEqual(expect.objectContaining({ level: 'info', message: 'connected', source: 'plugin', op: 'testConnection' }));
    expect(sandbox.operations).toEqual(['testConnection']);
  });

  it('shows ctx.credential only for an origin the manifest lists in credential_access', async () => {
    const code = provider(`async testConnection(input, ctx) { return { ok: true, display_name: ctx.credential ? ctx.credential.origin + ' ' + ctx.credential.access_token.length : 'none' }; }`);
    const context = { credentials: [{ origin: 'https://api.example.com', headers: { authorization: 'Bearer tok-1234567890' }, token: 'tok-1234567890' }] };
    const without = await open(code);
    expect((await without.sandbox.call('testConnection', {}, context)).display_name).toBe('none');
    const withAccess = await open(code, providerManifest({ credential_access: { origins: ['https://api.example.com'], reason: 'request signing' } }));
    expect((await withAccess.sandbox.call('testConnection', {}, context)).display_name).toBe('https://api.example.com 14');
  });

  it('never lets a result carry a credential value back to the engine', async () => {
    const manifest = providerManifest({ credential_access: { origins: ['https://api.example.com'], reason: 'request signing' } });
    const { sandbox } = await open(provider(`async testConnection(input, ctx) { return { ok: true, display_name: 'leak ' + ctx.credential.access_token }; }`), manifest);
    const result = await sandbox.call('testConnection', {}, { credentials: [{ origin: 'https://api.example.com', headers: {}, token: 'tok-1234567890' }] });
    expect(result.display_name).toBe('leak [REDACTED]');
  });

  it('carries known typed errors across and flattens anything else', async () => {
    const { sandbox } = await open(
      provider(`
        async readPlaylist(input) {
          if (input.playlist_id === 'missing') { const e = new Error('no playlist missing'); e.type = 'NotFound'; throw e; }
          if (input.playlist_id === 'slow') { const e = new Error('slow down'); e.type = 'RateLimited'; e.retryAfterSeconds = 30; throw e; }
          if (input.playlist_id === 'forged') throw { type: 'AuthExpired', message: 'not an Error' };
          if (input.playlist_id === 'number') throw 42;
          throw new TypeError('boom');
        },
      `),
    );
    const missing = await failure(sandbox.call('readPlaylist', { playlist_id: 'missing' }, {}));
    expect(missing).toBeInstanceOf(NotFound);
    expect(missing.message).toBe('no playlist missing');
    const slow = await failure(sandbox.call('readPlaylist', { playlist_id: 'slow' }, {}));
    expect(slow).toBeInstanceOf(RateLimited);
    expect((slow as RateLimited).retryAfterSeconds).toBe(30);
    const forged = await failure(sandbox.call('readPlaylist', { playlist_id: 'forged' }, {}));
    expect(forged).toBeInstanceOf(ProviderError);
    expect(forged).not.toBeInstanceOf(SandboxError);
    expect((await failure(sandbox.call('readPlaylist', { playlist_id: 'number' }, {}))).message).toBe('the plugin failed by throwing a non-error value (number)');
    expect((await failure(sandbox.call('readPlaylist', { playlist_id: 'other' }, {}))).message).toBe('the plugin failed: TypeError: boom');
  });

  it('validates input before and output after the plugin runs', async () => {
    const { sandbox, logs } = await open(
      provider(`
        async readPlaylist(input, ctx) { ctx.log.info('ran'); return input.playlist_id === 'bad' ? { name: 42 } : { name: 'ok', id: input.playlist_id }; },
      `),
    );
    const invalid = await failure(sandbox.call('readPlaylist', { playlist_id: '' }, {}));
    expect(invalid).toBeInstanceOf(InvalidInput);
    expect(logs.filter((entry) => entry.source === 'plugin')).toHaveLength(0);
    const malformed = await failure(sandbox.call('readPlaylist', { playlist_id: 'bad' }, {}));
    expect(malformed).toBeInstanceOf(ProviderError);
    expect(malformed.message).toContain('does not match the readPlaylist contract');
    expect(await sandbox.call('readPlaylist', { playlist_id: 'p1' }, {})).toMatchObject({ id: 'p1', name: 'ok', tracks: [] });
  });

  it('refuses operations the manifest does not declare without running the plugin', async () => {
    const manifest = providerManifest({}, { can_mirror: false });
    const { sandbox, logs } = await open(
      provider(`
        async addTracks(input, ctx) { ctx.log.warn('write ran'); return { results: [] }; },
        async replacePlaylistTracks(input, ctx) { ctx.log.warn('mirror ran'); return {}; },
        async listPlaylists(input, ctx) { return { items: [] }; },
      `),
      manifest,
    );
    const write = await failure(sandbox.call('addTracks', { playlist_id: 'p', items: [{ uri: 'x:1' }] }, {}));
    expect(write).toBeInstanceOf(Unsupported);
    expect(write.message).toContain('ADD_TRACKS');
    expect(await failure(sandbox.call('replacePlaylistTracks', { playlist_id: 'p', uris: [] }, {}))).toBeInstanceOf(Unsupported);
    expect(await failure(sandbox.call('listLikedTracks', {}, {}))).toBeInstanceOf(Unsupported);
    expect(await failure(sandbox.call('listPlaylistItems', { playlist_id: 'p' }, {}))).toBeInstanceOf(Unsupported);
    expect(await failure(sandbox.call('parse' as 'listPlaylists', {}, {}))).toBeInstanceOf(Unsupported);
    expect(logs.filter((entry) => entry.source === 'plugin')).toHaveLength(0);
  });

  it('runs calls concurrently and keeps each ctx to its own call', async () => {
    const { sandbox } = await open(
      provider(`
        async readPlaylist(input, ctx) {
          if (input.playlist_id === 'keep') { kept = ctx; return { name: 'kept' }; }
          if (input.playlist_id === 'reuse') { await kept.fetch('https://api.example.com/v1/me'); return { name: 'fetched' }; }
          return { name: ctx.account.id };
        },
      `),
    );
    const results = await Promise.all(['a', 'b', 'c'].map((id) => sandbox.call('readPlaylist', { playlist_id: id }, { account: { id } })));
    expect(results.map((playlist) => playlist.name)).toEqual(['a', 'b', 'c']);
    await sandbox.call('readPlaylist', { playlist_id: 'keep' }, {});
    const reuse = await failure(sandbox.call('readPlaylist', { playlist_id: 'reuse' }, {}));
    expect(reuse.message).toContain('belongs to a call that has ended');
  });
});

describe('createSandbox: format plugins', () => {
  const code = `export default { mark: 'opl.plugin/v1', kind: 'format', operations: {
    parse(input, ctx) {
      const text = ctx.decodeText(input.bytes, 'windows-1252');
      const lines = text.split('\\n').filter(Boolean);
      return { playlists: [{ name: input.filename, tracks: lines.filter((l) => !l.startsWith('!')).map((l) => ({ title: l, artist: '' })) }],
               issues: lines.flatMap((l, i) => l.startsWith('!') ? [{ line: i + 1, code: 'bad_line', message: 'bang' }] : []) };
    },
    async *serialize(input) {
      for (const playlist of input.playlists) { yield playlist.name + '\\n'; yield new Uint8Array(70000).fill(65); }
      if (input.options.bad) yield 42;
    },
  } };`;

  it('parses bytes handed in as a copy', async () => {
    const { sandbox } = await open(code, formatManifest);
    const bytes = new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a, 0x21, 0x0a, 0x62]);
    const result = await sandbox.call('parse', { bytes, filename: 'mix.txt' }, {});
    expect(result.playlists[0]?.tracks.map((track) => track.title)).toEqual(['café', 'b']);
    expect(result.issues).toEqual([{ line: 2, column: null, code: 'bad_line', message: 'bang', severity: 'error' }]);
  });

  it('streams serialize chunks in order, split to the chunk limit', async () => {
    const { sandbox } = await open(code, formatManifest);
    const chunks: Uint8Array[] = [];
    const result = await sandbox.serialize({ playlists: [{ name: 'One' }, { name: 'Two' }] }, async (chunk) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      chunks.push(chunk);
    });
    expect(chunks.every((chunk) => chunk.byteLength <= 64 * 1024)).toBe(true);
    expect(result.chunks).toBe(chunks.length);
    const text = Buffer.concat(chunks).toString('latin1');
    expect(text).toBe(`One\n${'A'.repeat(70_000)}Two\n${'A'.repeat(70_000)}`);
  });

  it('serializeChecked hands a host-checked input to the plugin as it is, and still refuses what the manifest does not allow', async () => {
    const { sandbox } = await open(code, formatManifest);
    const chunks: Uint8Array[] = [];
    // Not the contract's complete shape (no tracks, no options defaults): serialize would fill them; serializeChecked vouches and passes on.
    const vouched = { playlists: [{ name: 'Vouched' }], options: {} } as unknown as OperationInput<'serialize'>;
    const result = await sandbox.serializeChecked(vouched, (chunk) => {
      chunks.push(chunk);
    });
    expect(Buffer.concat(chunks).toString('latin1')).toBe(`Vouched\n${'A'.repeat(70_000)}`);
    expect(result.chunks).toBe(chunks.length);
    await expect(sandbox.serializeChecked('{"playlists":[]}' as unknown as OperationInput<'serialize'>, () => undefined)).rejects.toThrow('serializeChecked expects the checked input object');

    const provider = await open(`export default { mark: 'opl.plugin/v1', kind: 'provider', operations: { testConnection() { return { ok: true }; } } };`, providerManifest());
    await expect(provider.sandbox.serializeChecked({ playlists: [], options: {} }, () => undefined)).rejects.toThrow(/serialize/);
  });

  it('hands serialize a structured copy of its input: Unicode, nesting, numbers and empty values arrive exactly', async () => {
    const echo = `export default { mark: 'opl.plugin/v1', kind: 'format', operations: {
      parse() { return { playlists: [], issues: [] }; },
      *serialize(input) { yield JSON.stringify(input); },
    } };`;
    const { sandbox } = await open(echo, formatManifest);
    const input = {
      playlists: [
        { id: 'p1', name: '東京の夜 — Ночь 🎧', description: '', tracks: [{ title: 'Ünïcödé "quoted" \\ \u2028', artist: 'A', artists: ['A', 'B'], duration_s: 182.5, provider_uris: { spotify: 'spotify:track:1' }, explicit: false, position: 0 }] },
        { id: 'p2', name: 'Empty', tracks: [] },
      ],
      options: { source_provider: null, nested: { list: [1, 2.5, -3] } },
    } as unknown as OperationInput<'serialize'>;
    for (const run of [(sink: (chunk: Uint8Array) => void) => sandbox.serializeChecked(input, sink), (sink: (chunk: Uint8Array) => void) => sandbox.serialize(input, sink)]) {
      const chunks: Uint8Array[] = [];
      await run((chunk) => {
        chunks.push(chunk);
      });
      const seen = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { playlists: Array<{ name: string; tracks: Array<Record<string, unknown>> }>; options: Record<string, unknown> };
      expect(seen.playlists[0]?.name).toBe('東京の夜 — Ночь 🎧');
      expect(seen.playlists[0]?.tracks[0]).toMatchObject({ title: 'Ünïcödé "quoted" \\ \u2028', artists: ['A', 'B'], duration_s: 182.5, provider_uris: { spotify: 'spotify:track:1' }, explicit: false });
      expect(seen.playlists[1]?.tracks).toEqual([]);
    }
    // serializeChecked adds nothing: the plugin sees exactly what the host checked (serialize's zod pass fills defaults in).
    const chunks: Uint8Array[] = [];
    await sandbox.serializeChecked(input, (chunk) => {
      chunks.push(chunk);
    });
    expect(JSON.parse(Buffer.concat(chunks).toString('utf8'))).toEqual(JSON.parse(JSON.stringify(input)));
  });

  it('fails a serialize that yields something other than text or bytes, or whose consumer fails', async () => {
    const { sandbox } = await open(code, formatManifest);
    const bad = await failure(sandbox.serialize({ playlists: [], options: { bad: true } }, () => undefined));
    expect(bad.message).toContain('serialize chunks must be strings or Uint8Array');
    const consumer = await failure(
      sandbox.serialize({ playlists: [{ name: 'x' }] }, () => {
        throw new Error('disk full');
      }),
    );
    expect(consumer.message).toContain('disk full');
  });
});

describe('createSandbox: serializePlaylist (a playlist writer fed slices of tracks)', () => {
  const writer = `export default { mark: 'opl.plugin/v1', kind: 'format', operations: {
    parse() { return { playlists: [], issues: [] }; },
    *serialize(input) { yield 'whole:' + input.playlists.map((p) => p.name + '=' + p.tracks.map((t) => t.title).join(',')).join(';') + ':' + JSON.stringify(input.options.warnings ?? null); },
    serializePlaylist(input) {
      let written = 0;
      return {
        begin() { return ['begin:' + input.playlist.name + ':' + input.playlist.tracks.length + '|']; },
        *write(tracks) { written += tracks.length; yield 'slice(' + tracks.map((t) => t.title).join(',') + ')'; },
        *end(late) { yield '|end:' + written + ':' + JSON.stringify(late.warnings ?? null); },
      };
    },
  } };`;
  const slices = (...parts: { title: string }[][]) => {
    const queue: ({ done: false; tracks: { title: string; artist: string }[] } | { done: true; late: Record<string, unknown> })[] = [
      ...parts.map((titles) => ({ done: false as const, tracks: titles.map(({ title }) => ({ title, artist: 'A' })) })),
      { done: true as const, late: { warnings: [{ code: 'w' }] } },
    ];
    let asked = 0;
    const next = async () => {
      asked += 1;
      const slice = queue.shift();
      if (!slice) throw new Error('asked for a slice after the end');
      return slice as never;
    };
    return { next, asked: () => asked };
  };
  const text = (chunks: Uint8Array[]) => Buffer.concat(chunks).toString('utf8');

  it('drives the writer: begin, one write per slice as the host hands it over, end with the late options', async () => {
    const { sandbox } = await open(writer, formatManifest);
    const chunks: Uint8Array[] = [];
    const source = slices([{ title: 'a' }], [{ title: 'b' }, { title: 'c' }]);
    const result = await sandbox.serializePlaylist({ playlist: { name: 'Mix' }, options: {} }, source.next, (chunk) => {
      chunks.push(chunk);
    });
    expect(text(chunks)).toBe('begin:Mix:0|slice(a)slice(b,c)|end:3:[{"code":"w"}]');
    expect(result.chunks).toBe(chunks.length);
    expect(source.asked()).toBe(3);
  });

  it('runs a plugin written before writers through its serialize, the slices gathered into one playlist and the late options merged', async () => {
    const old = `export default { mark: 'opl.plugin/v1', kind: 'format', operations: {
      parse() { return { playlists: [], issues: [] }; },
      *serialize(input) { yield 'whole:' + input.playlists.map((p) => p.name + '=' + p.tracks.map((t) => t.title).join(',')).join(';') + ':' + JSON.stringify(input.options.warnings ?? null) + ':' + input.options.keep; },
    } };`;
    const { sandbox } = await open(old, formatManifest);
    const chunks: Uint8Array[] = [];
    await sandbox.serializePlaylist({ playlist: { name: 'Mix' }, options: { keep: 'yes' } }, slices([{ title: 'a' }], [], [{ title: 'b' }]).next, (chunk) => {
      chunks.push(chunk);
    });
    expect(text(chunks)).toBe('whole:Mix=a,b:[{"code":"w"}]:yes');
  });

  it('refuses tracks in the details, an invalid slice, and a plugin that writes no files; a failing source fails the call with its reason', async () => {
    const { sandbox } = await open(writer, formatManifest);
    await expect(sandbox.serializePlaylist({ playlist: { name: 'Mix', tracks: [{ title: 'a', artist: 'A' }] }, options: {} }, slices().next, () => undefined)).rejects.toBeInstanceOf(InvalidInput);
    const invalid = await failure(sandbox.serializePlaylist({ playlist: { name: 'Mix' }, options: {} }, async () => ({ done: false, tracks: [{ title: 42 }] }) as never, () => undefined));
    expect(invalid.message).toContain('invalid serialize slice');
    const broken = await failure(
      sandbox.serializePlaylist({ playlist: { name: 'Mix' }, options: {} }, () => Promise.reject(new Error('the database went away')), () => undefined),
    );
    expect(broken.message).toContain('the database went away');
    const importOnly = await open(writer, manifestSchema.parse({ ...formatManifest, format: { ...formatManifest.format, directions: ['import'] } }));
    await expect(importOnly.sandbox.serializePlaylist({ playlist: { name: 'Mix' }, options: {} }, slices().next, () => undefined)).rejects.toBeInstanceOf(Unsupported);
  });

  it('fails a writer that is not one', async () => {
    const notAWriter = `export default { mark: 'opl.plugin/v1', kind: 'format', operations: { parse() { return { playlists: [], issues: [] }; }, serializePlaylist() { return { begin() { return []; } }; } } };`;
    const { sandbox } = await open(notAWriter, formatManifest);
    const error = await failure(sandbox.serializePlaylist({ playlist: { name: 'Mix' }, options: {} }, slices().next, () => undefined));
    expect(error.message).toContain('serializePlaylist must return a writer with begin, write and end');
  });
});

describe('createSandbox: limits', () => {
  it('stops a synchronous infinite loop at the CPU limit and stays broken', async () => {
    const broken: string[] = [];
    const { sandbox } = await open(provider(`testConnection() { while (true) {} }`), providerManifest(), { onBroken: (kind) => broken.push(kind) });
    const error = await failure(sandbox.call('testConnection', {}, {}));
    expect(error).toBeInstanceOf(SandboxError);
    expect((error as SandboxError).failure).toBe('cpu_timeout');
    expect(sandbox.isDisposed).toBe(true);
    expect(sandbox.failure).toBe('cpu_timeout');
    expect(broken).toEqual(['cpu_timeout']);
    expect(((await failure(sandbox.call('testConnection', {}, {}))) as SandboxError).failure).toBe('cpu_timeout');
  });

  it('stops a loop that starts after an asynchronous host call', async () => {
    const { sandbox } = await open(provider(`async testConnection(input, ctx) { try { await ctx.fetch('https://elsewhere.test/'); } catch {} while (true) {} }`));
    expect(((await failure(sandbox.call('testConnection', {}, {}))) as SandboxError).failure).toBe('cpu_timeout');
  });

  it('stops a call that never settles at the wall-clock limit', async () => {
    const { sandbox } = await open(provider(`async testConnection() { await new Promise(() => {}); }`));
    expect(((await failure(sandbox.call('testConnection', {}, {}))) as SandboxError).failure).toBe('wall_timeout');
  });

  it('stops a memory bomb at the memory limit', async () => {
    // A CPU budget the bomb cannot use up first: filling 32 MiB and V8's last-resort collections
    // take about 200 ms on an idle machine, several times that on a loaded one.
    const limits = { ...LIMITS, callTimeoutMs: 20_000, cpuTimeMs: 20_000 };
    const { sandbox } = await open(provider(`testConnection() { const hoard = []; while (true) hoard.push(new Array(100000).fill(Math.random())); }`), providerManifest(), { limits });
    expect(((await failure(sandbox.call('testConnection', {}, {}))) as SandboxError).failure).toBe('memory');
  });

  it('contains deep recursion as an ordinary error', async () => {
    const { sandbox } = await open(provider(`testConnection() { const down = (n) => down(n + 1) + 1; return down(0); }`));
    const error = await failure(sandbox.call('testConnection', {}, {}));
    expect(error).not.toBeInstanceOf(SandboxError);
    expect(error.message).toContain('Maximum call stack size exceeded');
    expect(sandbox.isDisposed).toBe(false);
  });
});

describe('createSandbox: loading', () => {
  async function loadError(code: string, manifest: Manifest = providerManifest()): Promise<PluginLoadError> {
    const error = await failure(open(code, manifest));
    expect(error).toBeInstanceOf(PluginLoadError);
    return error as PluginLoadError;
  }

  it('refuses code that does not compile, imports modules or runs away at load', async () => {
    expect((await loadError('export default {{{')).failure).toBe('invalid_code');
    expect((await loadError(`import fs from 'node:fs'; export default fs;`)).failure).toBe('imports_not_allowed');
    expect((await loadError(`export { x } from './other.js';`)).failure).toBe('imports_not_allowed');
    expect((await loadError(`while (true) {} export default 1;`)).failure).toBe('resource_limit');
    expect((await loadError(`throw new Error('no'); export default 1;`)).failure).toBe('invalid_code');
  });

  it('refuses a default export that is not a plugin definition of the manifest kind', async () => {
    expect((await loadError(`export default { operations: { testConnection() {} } };`)).failure).toBe('not_a_definition');
    expect((await loadError(`export const plugin = 1;`)).failure).toBe('not_a_definition');
    expect((await loadError(`export default { mark: 'opl.plugin/v1', kind: 'provider', get operations() { throw new Error('x'); } };`)).failure).toBe('not_a_definition');
    expect((await loadError(`export default { mark: 'opl.plugin/v1', kind: 'format', operations: {} };`)).failure).toBe('kind_mismatch');
  });
});
