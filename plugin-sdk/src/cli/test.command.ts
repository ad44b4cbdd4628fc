import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, extname, join, relative } from 'node:path';
import { MockAgent, type Dispatcher } from 'undici';
import { PluginError } from '../errors.ts';
import type { Manifest } from '../manifest.schema.ts';
import { OPERATIONS, type OperationName } from '../operations.schema.ts';
import { createHostFetch, createResolvingAgent, createSandbox, isOperationName, PluginLoadError, SandboxError, type HostCredential, type Sandbox } from '../sandbox/index.ts';
import { checkBundleFiles, decodeUtf8, directoryBundleSource, PluginToolError, readBundleManifest } from '../tools/index.ts';
import { flag, parseCommandArgs, pathFrom, stringOption } from './cli-args.ts';
import { EXIT_FAILED, EXIT_OK, UsageError, type PluginCliIo } from './cli-io.ts';

export const TEST_USAGE =
  'opl-plugin test [project-dir] [--bundle <dir>] [--fixtures <dir>] [--script <calls.json>] [--resolve <host>=<ip>]… [--memory-mb <n>] [--timeout-ms <n>] [--verbose]   (defaults: ., <project>/dist, <project>/fixtures)';

/**
 * `opl-plugin test`: runs a built bundle in the same isolated-vm sandbox the engine uses —
 * manifest grants, limits, schema validation both ways — and reports each case.
 *
 * Fixture cases (`<fixtures>/*.json`): `{description?, operation, input?, input_file?, http?,
 * credentials?, expect?, expect_error?}`. `http` lists the exchanges a fake server answers
 * (`{request: {method?, url}, response: {status?, headers?, body?}}`); requests are still checked
 * against the manifest's grants first, an unexpected request fails the case, and so does an
 * exchange the plugin never asked for. `input_file` (format plugins) becomes `input.bytes`.
 * `expect` is matched as a subset of the validated result (objects: listed keys; arrays: same
 * length, item by item); `expect_error` as `{type?, message_includes?}`.
 * Other files in the fixtures directory of a format plugin that no case reads are parsed too, and
 * their playlists and issues summarised.
 *
 * `--script` runs `{account?, credentials?, calls: [{operation, input?, expect?, expect_error?}]}`
 * against the real network — whatever the grants point to, typically a local fake server (map its
 * host names with `--resolve`).
 *
 * Exit codes: 0 every case passed, 1 a case failed or the bundle could not be loaded, 64 usage.
 */

const DEFAULT_TOKEN = 'opl-plugin-test-token';
const MAX_SHOWN = 400;

interface TestCase {
  readonly name: string;
  readonly description: string | null;
  readonly operation: OperationName;
  readonly input: Record<string, unknown>;
  /** Format plugins: a file in the fixtures directory handed to the plugin as `input.bytes`. */
  readonly inputFile: string | null;
  readonly http: readonly HttpExchange[] | null;
  readonly credentials: HostCredential[] | null;
  readonly account: { id: string; label: string | null } | null;
  readonly expect: unknown;
  readonly expectError: { type?: string; message_includes?: string } | null;
}

interface HttpExchange {
  readonly request: { readonly method?: string; readonly url: string };
  readonly response: { readonly status?: number; readonly headers?: Record<string, string>; readonly body?: unknown };
}

interface Outcome {
  ok: boolean;
  lines: string[];
}

function record(value: unknown, what: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new PluginToolError(`${what} must be a JSON object.`);
  return value as Record<string, unknown>;
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text;
}

/** Where `actual` differs from the subset `expected`, as "path: expected …, got …" lines. */
export function subsetMismatches(expected: unknown, actual: unknown, path = '$'): string[] {
  if (expected === null || typeof expected !== 'object') {
    return Object.is(expected, actual) ? [] : [`${path}: expected ${shown(expected)}, got ${shown(actual)}`];
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${path}: expected an array, got ${shown(actual)}`];
    if (actual.length !== expected.length) return [`${path}: expected ${expected.length} items, got ${actual.length}`];
    return expected.flatMap((item, index) => subsetMismatches(item, actual[index], `${path}[${index}]`));
  }
  if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return [`${path}: expected an object, got ${shown(actual)}`];
  return Object.entries(expected).flatMap(([key, value]) => subsetMismatches(value, (actual as Record<string, unknown>)[key], `${path}.${key}`));
}

function summarise(op: OperationName, result: unknown): string {
  const value = result as Record<string, unknown>;
  if (op === 'parse') {
    const playlists = value.playlists as { name: string; tracks: unknown[] }[];
    const issues = value.issues as { line: number | null; code: string; message: string }[];
    const names = playlists.map((playlist) => `"${playlist.name}" (${playlist.tracks.length} tracks)`).join(', ');
    const issueText = issues
      .slice(0, 5)
      .map((issue) => `line ${issue.line ?? '?'} ${issue.code}: ${issue.message}`)
      .join('; ');
    return `${playlists.length} playlist(s): ${names || 'none'}; ${issues.length} issue(s)${issues.length > 0 ? `: ${issueText}${issues.length > 5 ? '; …' : ''}` : ''}`;
  }
  if (Array.isArray(value.items)) return `${value.items.length} item(s), next_cursor ${shown(value.next_cursor ?? null)}${typeof value.total === 'number' ? `, total ${value.total}` : ''}`;
  return shown(result);
}

function errorText(error: unknown): string {
  if (error instanceof SandboxError) return `${error.type} (${error.failure}): ${error.message}`;
  if (error instanceof PluginError) return `${error.type}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

function parseCase(raw: unknown, name: string, fromScript: boolean): TestCase {
  const value = record(raw, name);
  const operation = value.operation;
  if (typeof operation !== 'string' || !isOperationName(operation)) throw new PluginToolError(`${name}: "operation" must be one of ${Object.keys(OPERATIONS).join(', ')}.`);
  const http = value.http === undefined ? null : value.http;
  if (http !== null && (!Array.isArray(http) || fromScript)) throw new PluginToolError(`${name}: "http" must be a list of exchanges${fromScript ? ' (and belongs in fixture cases, not scripts)' : ''}.`);
  for (const exchange of (http ?? []) as unknown[]) {
    const request = record(record(exchange, `${name}: an http exchange`).request, `${name}: http[].request`);
    if (typeof request.url !== 'string') throw new PluginToolError(`${name}: every http exchange needs request.url.`);
  }
  const expectError = value.expect_error === undefined ? null : (record(value.expect_error, `${name}: expect_error`) as TestCase['expectError']);
  return {
    name,
    description: typeof value.description === 'string' ? value.description : null,
    operation,
    input: value.input === undefined ? {} : record(value.input, `${name}: input`),
    inputFile: typeof value.input_file === 'string' ? value.input_file : null,
    http: http as HttpExchange[] | null,
    credentials: Array.isArray(value.credentials) ? (value.credentials as HostCredential[]) : null,
    account: value.account === undefined ? null : (record(value.account, `${name}: account`) as TestCase['account']),
    expect: value.expect,
    expectError,
  };
}

function mockServer(exchanges: readonly HttpExchange[]): { agent: MockAgent; requests: () => string[]; unused: () => string[] } {
  const agent = new MockAgent({ enableCallHistory: true });
  agent.disableNetConnect();
  for (const exchange of exchanges) {
    const url = new URL(exchange.request.url);
    const body = exchange.response.body;
    const payload = typeof body === 'string' ? body : JSON.stringify(body ?? null);
    agent
      .get(url.origin)
      .intercept({ path: url.pathname + url.search, method: (exchange.request.method ?? 'GET').toUpperCase() })
      .reply(exchange.response.status ?? 200, payload, { headers: exchange.response.headers ?? {} });
  }
  return {
    agent,
    requests: () => (agent.getCallHistory()?.calls() ?? []).map((call) => `${call.method} ${call.fullUrl}`),
    unused: () => agent.pendingInterceptors().map((pending) => `${String(pending.method)} ${pending.origin}${String(pending.path)}`),
  };
}

function defaultCredentials(manifest: Manifest): HostCredential[] {
  const origins = [...new Set(manifest.network.map((grant) => grant.origin))];
  return origins.map((origin) => ({ origin, headers: { authorization: `Bearer ${DEFAULT_TOKEN}` }, token: DEFAULT_TOKEN }));
}

interface RunContext {
  readonly manifest: Manifest;
  readonly code: string;
  readonly limits: { memoryMb: number; callTimeoutMs: number; cpuTimeMs: number };
  readonly fixturesDir: string;
  readonly liveDispatcher: Dispatcher | undefined;
  readonly verbose: boolean;
  readonly io: PluginCliIo;
}

async function withSandbox<T>(run: RunContext, dispatcher: Dispatcher | undefined, lines: string[], use: (sandbox: Sandbox) => Promise<T>): Promise<T> {
  const hostFetch = createHostFetch({ manifest: run.manifest, ...(dispatcher ? { dispatcher } : {}) });
  const sandbox = await createSandbox({
    manifest: run.manifest,
    code: run.code,
    limits: run.limits,
    hostFetch,
    log: (entry) => {
      if (run.verbose || entry.source === 'sandbox' || entry.level === 'warn' || entry.level === 'error') {
        lines.push(`    ${entry.source === 'plugin' ? 'log' : 'sandbox'} ${entry.level}: ${entry.message}${entry.data ? ` ${shown(entry.data)}` : ''}`);
      }
    },
  });
  try {
    return await use(sandbox);
  } finally {
    sandbox.dispose();
    await hostFetch.close();
  }
}

async function runCase(run: RunContext, testCase: TestCase, fromScript: boolean): Promise<Outcome> {
  const lines: string[] = [];
  const mock = testCase.http && !fromScript ? mockServer(testCase.http) : null;
  // Fixture cases never reach the network: without "http" exchanges every request fails.
  const dispatcher = fromScript ? run.liveDispatcher : (mock?.agent ?? mockServer([]).agent);
  const input = { ...testCase.input };
  if (testCase.inputFile !== null) input.bytes = new Uint8Array(await readFile(pathFrom(run.fixturesDir, testCase.inputFile)));

  const started = performance.now();
  let result: unknown = undefined;
  let failure: unknown = undefined;
  await withSandbox(run, dispatcher, lines, async (sandbox) => {
    try {
      if (testCase.operation === 'serialize') {
        const chunks: Uint8Array[] = [];
        await sandbox.serialize(input, (chunk) => void chunks.push(chunk));
        result = { text: new TextDecoder().decode(Buffer.concat(chunks)), chunks: chunks.length };
      } else {
        result = await sandbox.call(testCase.operation, input, {
          account: testCase.account ?? { id: 'test-account', label: 'opl-plugin test' },
          credentials: testCase.credentials ?? defaultCredentials(run.manifest),
        });
      }
    } catch (error) {
      failure = error;
    }
  });
  const ms = Math.round(performance.now() - started);

  const problems: string[] = [];
  if (testCase.expectError) {
    if (failure === undefined) problems.push(`expected an error${testCase.expectError.type ? ` of type ${testCase.expectError.type}` : ''}, but the call succeeded: ${shown(result)}`);
    else {
      const type = failure instanceof PluginError ? failure.type : 'Error';
      if (testCase.expectError.type && type !== testCase.expectError.type) problems.push(`expected a ${testCase.expectError.type} error, got ${errorText(failure)}`);
      if (testCase.expectError.message_includes && !errorText(failure).includes(testCase.expectError.message_includes)) problems.push(`expected the error message to include ${shown(testCase.expectError.message_includes)}, got ${errorText(failure)}`);
    }
  } else if (failure !== undefined) {
    problems.push(`the call failed: ${errorText(failure)}`);
  } else if (testCase.expect !== undefined) {
    problems.push(...subsetMismatches(testCase.expect, result));
  }
  if (mock) {
    const made = mock.requests();
    const unused = mock.unused();
    if (unused.length > 0) problems.push(`the plugin did not make ${unused.length === 1 ? 'this expected request' : 'these expected requests'}: ${unused.join(', ')} (it made: ${made.join(', ') || 'none'})`);
  }

  const ok = problems.length === 0;
  const title = `${ok ? 'PASS' : 'FAIL'}  ${testCase.operation}  ${testCase.name}${testCase.description ? ` — ${testCase.description}` : ''} (${ms} ms)`;
  const detail = ok ? [`    ${failure !== undefined ? `failed as expected: ${errorText(failure)}` : summarise(testCase.operation, result)}`] : problems.map((problem) => `    ${problem}`);
  return { ok, lines: [title, ...detail, ...lines] };
}

async function parseFile(run: RunContext, path: string): Promise<Outcome> {
  const lines: string[] = [];
  const started = performance.now();
  const bytes = new Uint8Array(await readFile(path));
  const name = relative(run.fixturesDir, path);
  return withSandbox(run, mockServer([]).agent, lines, async (sandbox) => {
    try {
      const result = await sandbox.call('parse', { bytes, filename: basename(path) }, {});
      return { ok: true, lines: [`PASS  parse  ${name} (${Math.round(performance.now() - started)} ms)`, `    ${summarise('parse', result)}`, ...lines] };
    } catch (error) {
      return { ok: false, lines: [`FAIL  parse  ${name}`, `    ${errorText(error)}`, ...lines] };
    }
  });
}

async function loadBundle(bundleDir: string): Promise<{ manifest: Manifest; code: string; signed: boolean }> {
  const source = directoryBundleSource(bundleDir);
  const read = await readBundleManifest(source);
  if (!('manifest' in read)) throw new PluginToolError(`${read.detail} Build the plugin first (opl-plugin build) or pass --bundle <dir>.`, { reason: read.reason });
  const files = await checkBundleFiles(source, read.manifest);
  if (!(files instanceof Map)) throw new PluginToolError(files.detail, { reason: files.reason });
  const code = decodeUtf8(files.get(read.manifest.entry) ?? new Uint8Array());
  if (code === null) throw new PluginToolError(`${read.manifest.entry} is not valid UTF-8.`);
  const signed = await stat(join(bundleDir, 'signature.json')).then(
    () => true,
    () => false,
  );
  return { manifest: read.manifest, code, signed };
}

function positiveInteger(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0) throw new UsageError(`--${name} must be a positive integer.`);
  return number;
}

function resolveTable(args: readonly string[]): Record<string, string> {
  const table: Record<string, string> = {};
  args.forEach((arg, index) => {
    if (arg !== '--resolve') return;
    const value = args[index + 1] ?? '';
    const [host, ip] = value.split('=');
    if (!host || !ip) throw new UsageError('--resolve takes <host>=<ip>, e.g. --resolve api.example.com=127.0.0.1.');
    table[host.toLowerCase()] = ip;
  });
  return table;
}

async function readJsonCase(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as unknown;
  } catch (error) {
    throw new PluginToolError(`${path} is not readable JSON: ${(error as Error).message}`);
  }
}

export async function runTestCommand(args: readonly string[], io: PluginCliIo): Promise<number> {
  // --resolve may repeat; parseArgs keeps only the last, so it is read from the raw arguments.
  const resolve = resolveTable(args);
  const parsed = parseCommandArgs(
    args.filter((arg, index) => arg !== '--resolve' && args[index - 1] !== '--resolve'),
    { bundle: { type: 'string' }, fixtures: { type: 'string' }, script: { type: 'string' }, 'memory-mb': { type: 'string' }, 'timeout-ms': { type: 'string' }, verbose: { type: 'boolean' } },
    1,
  );
  const projectDir = pathFrom(io.cwd, parsed.positionals[0] ?? '.');
  const bundleDir = pathFrom(projectDir, stringOption(parsed, 'bundle') ?? 'dist');
  const fixturesDir = pathFrom(projectDir, stringOption(parsed, 'fixtures') ?? 'fixtures');
  const scriptPath = stringOption(parsed, 'script');
  const timeoutMs = positiveInteger(stringOption(parsed, 'timeout-ms'), 'timeout-ms', 30_000);
  const limits = { memoryMb: positiveInteger(stringOption(parsed, 'memory-mb'), 'memory-mb', 128), callTimeoutMs: timeoutMs, cpuTimeMs: timeoutMs };

  const { manifest, code, signed } = await loadBundle(bundleDir);
  io.stdout.write(`Testing ${manifest.id}@${manifest.version} (${manifest.kind}, ${signed ? 'signed' : 'unsigned'}) from ${bundleDir} in the sandbox\n`);
  // Load once up front so a plugin that cannot start is reported as such, not as failing cases.
  try {
    await createSandbox({ manifest, code, limits, log: () => undefined, hostFetch: createHostFetch({ manifest, dispatcher: mockServer([]).agent }) }).then((sandbox) => sandbox.dispose());
  } catch (error) {
    if (error instanceof PluginLoadError) throw new PluginToolError(`The plugin does not load in the sandbox (${error.failure}): ${error.message}`);
    throw error;
  }

  const liveDispatcher = Object.keys(resolve).length > 0 ? createResolvingAgent(resolve) : undefined;
  const run: RunContext = { manifest, code, limits, fixturesDir, liveDispatcher, verbose: flag(parsed, 'verbose'), io };
  const outcomes: Outcome[] = [];
  const report = (outcome: Outcome) => {
    outcomes.push(outcome);
    io.stdout.write(`${outcome.lines.join('\n')}\n`);
  };

  try {
    if (scriptPath) {
      const script = record(await readJsonCase(pathFrom(io.cwd, scriptPath)), scriptPath);
      if (!Array.isArray(script.calls) || script.calls.length === 0) throw new PluginToolError(`${scriptPath}: "calls" must be a non-empty list.`);
      for (const [index, call] of script.calls.entries()) {
        // Script-wide account and credentials apply to every call that does not set its own.
        const merged = { account: script.account, credentials: script.credentials, ...record(call, `${scriptPath}: calls[${index}]`) };
        report(await runCase(run, parseCase(merged, `${basename(scriptPath)}#${index + 1}`, true), true));
      }
    } else {
      const entries = await readdir(fixturesDir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') throw new PluginToolError(`There is no fixtures directory at ${fixturesDir}; add fixture cases there, pass --fixtures <dir>, or run calls with --script <calls.json>.`);
        throw error;
      });
      const files = entries.filter((entry) => entry.isFile() && !entry.name.startsWith('.')).map((entry) => entry.name).sort();
      const cases = await Promise.all(files.filter((file) => extname(file) === '.json').map(async (file) => parseCase(await readJsonCase(join(fixturesDir, file)), file, false)));
      const referenced = new Set(cases.map((testCase) => testCase.inputFile));
      for (const testCase of cases) report(await runCase(run, testCase, false));
      if (manifest.kind === 'format') {
        for (const file of files.filter((name) => extname(name) !== '.json' && !referenced.has(name))) report(await parseFile(run, join(fixturesDir, file)));
      }
      if (outcomes.length === 0) throw new PluginToolError(`${fixturesDir} holds no fixture cases (*.json)${manifest.kind === 'format' ? ' and no files to parse' : ''}.`);
    }
  } finally {
    await liveDispatcher?.close();
  }

  const failed = outcomes.filter((outcome) => !outcome.ok).length;
  io.stdout.write(`\n${outcomes.length - failed} passed, ${failed} failed\n`);
  return failed === 0 ? EXIT_OK : EXIT_FAILED;
}

/** The name run-plugin-cli.ts loads. */
export const testCommand = runTestCommand;
