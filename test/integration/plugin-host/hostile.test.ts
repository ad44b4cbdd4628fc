import { randomUUID } from 'node:crypto';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AuthExpired, ProviderError, Unsupported, type OperationName } from '@opl/plugin-sdk';
import { PluginLoadError, SandboxError } from '@opl/plugin-sdk/sandbox';
import { PluginHost, type QuarantineEvent } from '../../../core/plugin-host/index.ts';
import { startEchoServer, type EchoServer } from '../../fakes/plugin-echo/echo-server.ts';
import { captureLogger } from './support/capture-logger.ts';
import { buildHostileBundles, hostileId } from './support/hostile-fixtures.ts';
import { startResponsivenessProbe, type ResponsivenessProbe } from './support/responsiveness-probe.ts';
import { createTestSigner } from './support/signed-bundles.ts';
import type { SignedBundle } from './support/signed-bundles.ts';

/**
 * The hostile-plugin suite: every plugin in test/fixtures/plugins/hostile tries one thing. Each
 * is signed with a freshly generated test key and verified like a registry bundle, then loaded
 * into one real PluginHost (isolates in a child process). Every attempt must end in the expected
 * typed error (or a harmless result), while an HTTP server in this process keeps answering and
 * the account's token never shows up in a result, an error or a log line.
 */

const TOKEN = `tok-${randomUUID()}`;
const LOAD_REFUSED = new Set(['import-module', 'not-a-definition', 'kind-mismatch']);

let echo: EchoServer;
let host: PluginHost;
let probe: ResponsivenessProbe;
let root: string;
let bundles: Map<string, SignedBundle>;
const logger = captureLogger();
const quarantines: QuarantineEvent[] = [];

function context() {
  return {
    account: { id: 'acct-1', label: 'Tester' },
    credentials: [{ origin: echo.origin(), headers: { authorization: `Bearer ${TOKEN}` }, token: TOKEN }],
  };
}

interface Attempt {
  result?: Record<string, unknown>;
  error?: Error;
  /** Probe answers received while the call ran. */
  answeredDuring: number;
  /** Requests the fake server received while the call ran. */
  requests: EchoServer['requests'];
}

async function attempt(name: string, op: OperationName = 'testConnection', input: Record<string, unknown> = {}, on: PluginHost = host): Promise<Attempt> {
  const answeredBefore = probe.answered();
  const requestsBefore = echo.requests.length;
  let outcome: Pick<Attempt, 'result' | 'error'>;
  try {
    outcome = { result: await on.call(hostileId(name), op, input, context()) };
  } catch (error) {
    outcome = { error: error as Error };
  }
  // Nothing the plugin hands back may carry the token.
  expect(JSON.stringify(outcome.result ?? null)).not.toContain(TOKEN);
  expect(outcome.error?.message ?? '').not.toContain(TOKEN);
  return { ...outcome, answeredDuring: probe.answered() - answeredBefore, requests: echo.requests.slice(requestsBefore) };
}

function expectFailure(outcome: Attempt, type: new (...args: never[]) => Error, fragment?: string | RegExp): Error {
  expect(outcome.result).toBeUndefined();
  expect(outcome.error).toBeInstanceOf(type);
  if (fragment !== undefined) expect(outcome.error!.message).toMatch(fragment);
  return outcome.error!;
}

function expectLimit(outcome: Attempt, failure: SandboxError['failure']): void {
  const error = expectFailure(outcome, SandboxError);
  expect((error as SandboxError).failure).toBe(failure);
  // The engine kept serving while the plugin burnt its budget.
  expect(outcome.answeredDuring).toBeGreaterThanOrEqual(2);
}

function foreignRequests(): string[] {
  const granted = `api.example.com:${echo.port}`;
  return echo.requests.filter((request) => request.host !== granted).map((request) => `${request.host}${request.path}`);
}

beforeAll(async () => {
  echo = await startEchoServer();
  root = await mkdtemp(join(tmpdir(), 'opl-hostile-'));
  const signer = createTestSigner('hostile-test-key');
  bundles = await buildHostileBundles(signer, { origin: echo.origin(), port: echo.port, otherPort: echo.port === 65_535 ? 1 : echo.port + 1 }, root);
  host = new PluginHost({
    limits: { memoryMb: 32, callTimeoutMs: 2_000, cpuTimeMs: 500 },
    quarantineStrikes: 3,
    logger,
    hostResolver: { 'api.example.com': '127.0.0.1', 'evil.test': '127.0.0.1', 'api.example.com.evil.test': '127.0.0.1' },
  });
  host.onQuarantine((_id, _reason, event) => quarantines.push(event));
  await host.start();
  for (const [name, bundle] of bundles) if (!LOAD_REFUSED.has(name)) await host.load(bundle);
  probe = await startResponsivenessProbe();
});

afterEach(() => {
  expect(logger.text()).not.toContain(TOKEN);
});

afterAll(async () => {
  await probe?.stop();
  await host?.close();
  await echo?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

describe('the hostile suite itself', () => {
  it('has at least 25 plugins, each signed and verified', async () => {
    expect(bundles.size).toBeGreaterThanOrEqual(25);
    for (const bundle of bundles.values()) await access(join(bundle.dir, 'signature.json'));
  });
});

describe('hostile plugins: CPU, time and memory', () => {
  it('sync-infinite-loop is stopped at the CPU limit', async () => {
    expectLimit(await attempt('sync-infinite-loop'), 'cpu_timeout');
  });

  it('async-infinite-loop is stopped at the CPU limit after its await', async () => {
    const outcome = await attempt('async-infinite-loop');
    expectLimit(outcome, 'cpu_timeout');
    expect(outcome.requests.map((request) => request.path)).toEqual(['/v1/ping']);
  });

  it('never-settling-promise is stopped at the wall-clock limit', async () => {
    expectLimit(await attempt('never-settling-promise'), 'wall_timeout');
  });

  it('memory-bomb is stopped at the memory limit', async () => {
    // Its own host, with a CPU budget the bomb cannot use up first: filling 32 MiB and V8's
    // last-resort collections take about 200 ms on an idle machine, beyond the shared host's
    // 500 ms on a loaded one, and the test is about the memory limit.
    const roomy = new PluginHost({ limits: { memoryMb: 32, callTimeoutMs: 20_000, cpuTimeMs: 20_000 }, logger });
    try {
      await roomy.start();
      await roomy.load(bundles.get('memory-bomb')!);
      expectLimit(await attempt('memory-bomb', 'testConnection', {}, roomy), 'memory');
    } finally {
      await roomy.close();
    }
  });

  it('deep-recursion fails as an ordinary provider error and costs no strike', async () => {
    const error = expectFailure(await attempt('deep-recursion'), ProviderError, /Maximum call stack size exceeded/);
    expect(error).not.toBeInstanceOf(SandboxError);
    expect(host.loadedPlugins().find((plugin) => plugin.id === hostileId('deep-recursion'))?.strikes).toBe(0);
  });

  it('log-spam reaches the log only up to the per-call bound', async () => {
    const before = logger.lines.length;
    const outcome = await attempt('log-spam');
    expect(outcome.result).toMatchObject({ ok: true, display_name: 'spammed' });
    const lines = logger.lines.slice(before).filter((line) => line.data.plugin === hostileId('log-spam'));
    expect(lines.length).toBeLessThanOrEqual(101);
    expect(lines.at(-1)?.message).toContain('log limit');
    expect(Math.max(...lines.map((line) => line.message.length))).toBeLessThanOrEqual(2_000);
    expect(lines.every((line) => JSON.stringify(line.data).length < 10_000)).toBe(true);
  });
});

describe('hostile plugins: network', () => {
  it('giant-response is cut off at the response cap', async () => {
    expectFailure(await attempt('giant-response'), ProviderError, /larger than the plugin's limit of 1048576 bytes/);
  });

  it('request-timeout gives up at the manifest request timeout', async () => {
    expectFailure(await attempt('request-timeout'), ProviderError, /no complete response within 300 ms/);
  });

  it('redirect-loop stops after five redirects', async () => {
    const outcome = await attempt('redirect-loop');
    expectFailure(outcome, ProviderError, /more than 5 redirects/);
    expect(outcome.requests).toHaveLength(6);
  });

  it.each([
    ['undeclared-host', /request refused: http:\/\/evil\.test:\d+\/v1\/steal: the origin http:\/\/evil\.test:\d+ matches no network grant/],
    ['lookalike-suffix-host', /request refused: .*api\.example\.com\.evil\.test.* matches no network grant/],
    ['userinfo-host', /request refused: .*URLs with credentials \(user@host\) are not allowed/],
    ['ip-literal-hex', /request refused: http:\/\/127\.0\.0\.1:\d+\/v1\/echo: IP address hosts are allowed only when a grant names that address/],
    ['ip-literal-v6', /request refused: http:\/\/\[::1\]:\d+\/v1\/echo: IP address hosts/],
    ['port-change', /request refused: http:\/\/api\.example\.com:\d+\/v1\/echo: the origin .* matches no network grant/],
    ['method-not-granted', /request refused: .*POST is not granted for this path/],
    ['encoded-path-traversal', /request refused: .*the path contains encoded separators/],
    ['header-injection', /invalid fetch request: headers/],
  ])('%s is refused before anything leaves the sandbox', async (name, message) => {
    const outcome = await attempt(name);
    expectFailure(outcome, ProviderError, message);
    expect(outcome.requests).toEqual([]);
    expect(logger.lines.some((line) => line.data.plugin === hostileId(name) && line.data.source === 'sandbox' && /refused/.test(line.message)) || name === 'header-injection').toBe(true);
  });

  it('redirect-to-undeclared: the redirect hop is re-checked and refused', async () => {
    const outcome = await attempt('redirect-to-undeclared');
    expectFailure(outcome, ProviderError, /redirect refused \(hop 1\): http:\/\/evil\.test:\d+\/v1\/steal/);
    expect(outcome.requests.map((request) => request.path.split('?')[0])).toEqual(['/v1/redirect']);
  });

  it('echo-credential: the host attaches the token, the plugin only ever sees it masked', async () => {
    const outcome = await attempt('echo-credential');
    const reversed = (text: string) => [...text].reverse().join('');
    expect(outcome.result).toMatchObject({ ok: true, display_name: `${reversed('[REDACTED]')} | ${reversed('[REDACTED]')}` });
    expect(logger.text()).not.toContain(reversed(TOKEN));
    expect(outcome.requests).toHaveLength(1);
    expect(outcome.requests[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('write-from-read: a write sneaked into a read is refused by the grants', async () => {
    const outcome = await attempt('write-from-read', 'listPlaylists');
    expectFailure(outcome, ProviderError, /POST is not granted/);
    expect(outcome.requests).toEqual([]);
  });

  it('ctx-retention: a ctx kept from an earlier call is dead', async () => {
    expect((await attempt('ctx-retention', 'listPlaylists', { cursor: null })).result).toMatchObject({ items: [] });
    const outcome = await attempt('ctx-retention', 'listPlaylists', { cursor: 'again' });
    expectFailure(outcome, ProviderError, /belongs to a call that has ended/);
    expect(outcome.requests).toEqual([]);
  });
});

describe('hostile plugins: escaping the realm', () => {
  it('host-globals finds no host object and no non-standard global', async () => {
    const outcome = await attempt('host-globals');
    expect(outcome.result).toMatchObject({ ok: true, display_name: '{"extra":[],"present":[]}' });
  });

  it('eval-escape: Function constructors and eval stay inside the isolate', async () => {
    const outcome = await attempt('eval-escape');
    expect(outcome.result?.display_name).toBe('undefined,undefined,undefined,undefined,undefined,threw,undefined,clean');
  });

  it('dynamic-import cannot load a module at run time', async () => {
    const error = expectFailure(await attempt('dynamic-import'), ProviderError);
    expect(error.message).not.toContain('root:');
  });

  it.each([
    ['import-module', 'imports_not_allowed'],
    ['not-a-definition', 'not_a_definition'],
    ['kind-mismatch', 'kind_mismatch'],
  ])('%s is refused at load', async (name, failure) => {
    const error = await host.load(bundles.get(name)!).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(PluginLoadError);
    expect((error as PluginLoadError).failure).toBe(failure);
    expect(host.loadedPlugins().some((plugin) => plugin.id === hostileId(name))).toBe(false);
    await host.ping();
  });
});

describe('hostile plugins: data', () => {
  it('proto-pollution: __proto__ keys are dropped and no prototype changes', async () => {
    const outcome = await attempt('proto-pollution', 'listPlaylists');
    const page = outcome.result as { items: Record<string, unknown>[] };
    expect(Object.getPrototypeOf(page)).toBe(Object.prototype);
    const [playlist] = page.items;
    expect(Object.getPrototypeOf(playlist)).toBe(Object.prototype);
    expect(Object.hasOwn(playlist!, '__proto__')).toBe(false);
    expect(playlist!.metadata).toEqual({ kept: 1 });
    const track = (playlist!.tracks as Record<string, unknown>[])[0]!;
    expect(track.provider_metadata).toEqual({ nested: {} });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.stringify(outcome.result)).not.toContain('polluted');
  });

  it('isolate-prototype-tamper: pollution of its own realm does not travel with its data', async () => {
    const outcome = await attempt('isolate-prototype-tamper', 'listPlaylists');
    const page = outcome.result as { items: Record<string, unknown>[] };
    expect(page.items[0]?.name).toBe('looks normal');
    expect(JSON.stringify(page)).not.toMatch(/polluted|isAdmin|extra/);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it('log-credential: a token the plugin was shown is masked in every log line', async () => {
    const before = logger.lines.length;
    expect((await attempt('log-credential')).result).toMatchObject({ ok: true });
    const lines = logger.lines.slice(before).filter((line) => line.data.plugin === hostileId('log-credential') && line.data.source === 'plugin');
    expect(lines).toHaveLength(3);
    expect(JSON.stringify(lines)).toContain('[REDACTED]');
  });

  it('malformed-output is rejected against the operation schema', async () => {
    expectFailure(await attempt('malformed-output', 'listPlaylists'), ProviderError, /does not match the listPlaylists contract/);
  });

  it('giant-result over the schema maximum is rejected', async () => {
    expectFailure(await attempt('giant-result', 'listPlaylists'), ProviderError, /does not match the listPlaylists contract: items/);
  });

  it('undeclared-write: an operation the manifest does not declare never runs', async () => {
    const before = logger.lines.length;
    const outcome = await attempt('undeclared-write', 'addTracks', { playlist_id: 'p1', items: [{ uri: 'x:1' }] });
    expectFailure(outcome, Unsupported, /does not declare ADD_TRACKS/);
    expect(outcome.requests).toEqual([]);
    expect(logger.lines.slice(before).some((line) => line.data.plugin === hostileId('undeclared-write') && line.data.source === 'plugin')).toBe(false);
  });

  it('throw-non-error becomes a provider error that says what was thrown', async () => {
    expectFailure(await attempt('throw-non-error'), ProviderError, 'the plugin failed by throwing a non-error value (number)');
  });

  it('throw-trap-error: booby-trapped error fields are not trusted', async () => {
    expectFailure(await attempt('throw-trap-error'), ProviderError, 'the plugin failed by throwing a non-error value (object)');
  });

  it('forged-typed-error: a plain object cannot pose as a typed error', async () => {
    const error = expectFailure(await attempt('forged-typed-error'), ProviderError);
    expect(error).not.toBeInstanceOf(AuthExpired);
  });
});

describe('repeated limit breaches', () => {
  it('quarantine a plugin: unloaded, reported, refused; loading it again releases it', async () => {
    const id = hostileId('repeat-offender');
    for (let strike = 1; strike <= 3; strike++) {
      const error = expectFailure(await attempt('repeat-offender'), SandboxError) as SandboxError;
      expect(error.failure).toBe('cpu_timeout');
    }
    expect(quarantines.map((event) => event.pluginId)).toEqual([id]);
    expect(quarantines[0]).toMatchObject({ version: '1.0.0', failures: ['cpu_timeout', 'cpu_timeout', 'cpu_timeout'] });
    expect(quarantines[0]?.reason).toMatch(/broke its sandbox limits 3 times/);
    expect(host.loadedPlugins().some((plugin) => plugin.id === id)).toBe(false);
    expect(host.quarantinedPlugins().map((event) => event.pluginId)).toEqual([id]);

    const refused = expectFailure(await attempt('repeat-offender', 'validateUri', { uri: 'hostile:1' }), SandboxError) as SandboxError;
    expect(refused.failure).toBe('quarantined');
    expect(refused.message).toContain('is quarantined');

    await host.load(bundles.get('repeat-offender')!);
    expect((await attempt('repeat-offender', 'validateUri', { uri: 'hostile:1' })).result).toMatchObject({ valid: true });
    expect(host.loadedPlugins().find((plugin) => plugin.id === id)?.strikes).toBe(0);
  });
});

describe('after the whole suite', () => {
  it('no request ever reached a host other than the granted one', () => {
    expect(foreignRequests()).toEqual([]);
  });

  it('the engine side stayed responsive throughout', () => {
    expect(probe.failures()).toEqual([]);
    expect(probe.answered()).toBeGreaterThan(20);
    // A blocked event loop would show up as an answer taking about as long as a plugin call.
    expect(probe.slowestMs()).toBeLessThan(1_000);
  });

  it('the token appears in no captured log line', () => {
    expect(logger.lines.length).toBeGreaterThan(0);
    expect(logger.text()).not.toContain(TOKEN);
    expect(logger.text()).not.toContain(TOKEN.slice(4));
  });
});
