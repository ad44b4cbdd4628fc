import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { writeTranscript } from '../../support/secret-scan.ts';
import { createSharedDatabase } from '../../support/shared-postgres.ts';
import '../../integration/support/provided-context.ts';

/** Starts the real engine (`opl start`) as a child process with its own data dir and embedded PostgreSQL. */

export const projectRoot = fileURLToPath(new URL('../../../', import.meta.url));

const READY_TIMEOUT_MS = 120_000;
const STOP_GRACE_MS = 20_000;
const LOG_TAIL_CHARS = 16_000;

export interface RunningEngine {
  readonly baseUrl: string;
  readonly port: number;
  /** SIGTERM, then SIGKILL of the whole process group after 20 s; removes the data dir. */
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Unref'd, so a pending grace timer never keeps the test run alive after the engine is gone. */
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** Keeps the end of a growing log so a failure can show what the engine said last. */
function tail(stream: NodeJS.ReadableStream | null, sink: { text: string; all?: string[] }): void {
  stream?.setEncoding('utf8');
  stream?.on('data', (chunk: string) => {
    sink.text = (sink.text + chunk).slice(-LOG_TAIL_CHARS);
    sink.all?.push(chunk);
  });
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

function exited(child: ChildProcess): Promise<void> {
  if (hasExited(child)) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

async function waitForReady(baseUrl: string, engine: ChildProcess, log: { text: string }): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (hasExited(engine)) {
      throw new Error(`e2e: the engine exited (${engine.exitCode ?? engine.signalCode}) before it was ready. Its output:\n${log.text}`);
    }
    try {
      const response = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(2_000) });
      if (response.status === 200) return;
      last = `HTTP ${response.status}: ${(await response.text()).slice(0, 500)}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await sleep(250);
  }
  throw new Error(`e2e: GET ${baseUrl}/readyz did not answer 200 within ${READY_TIMEOUT_MS / 1000} s (last: ${last}). Engine output:\n${log.text}`);
}

async function stopProcess(engine: ChildProcess, log: { text: string }): Promise<void> {
  if (hasExited(engine) || engine.pid === undefined) return;
  engine.kill('SIGTERM');
  const stopped = await Promise.race([exited(engine).then(() => true), sleep(STOP_GRACE_MS).then(() => false)]);
  if (stopped) {
    if (engine.exitCode !== 0) process.stderr.write(`e2e: the engine stopped with ${engine.exitCode ?? engine.signalCode}. Its output:\n${log.text}\n`);
    return;
  }
  process.stderr.write(`e2e: the engine did not stop within ${STOP_GRACE_MS / 1000} s of SIGTERM; killing its process group.\n${log.text}\n`);
  // The engine leads its own process group, so the embedded PostgreSQL goes with it.
  try {
    process.kill(-engine.pid, 'SIGKILL');
  } catch {
    engine.kill('SIGKILL');
  }
  await exited(engine);
}

/**
 * Starts `opl start` on free ports and waits until `GET /readyz` answers 200. `env` adds OPL_*
 * settings (given the base URL, for settings such as OPL_PUBLIC_BASE_URL that must name it); the
 * developer's own OPL_* variables are never inherited.
 */
export async function startEngine(env: (baseUrl: string) => Record<string, string> = () => ({})): Promise<RunningEngine> {
  const dataDir = mkdtempSync(join(tmpdir(), 'opl-e2e-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OPL_')));
  // Like `npm start` on a fresh checkout: the first-party plugins, signed with the local key.
  const plugins = { OPL_REGISTRY_DIR: join(dataDir, 'registry'), OPL_PLUGIN_TRUST_FILE: join(dataDir, 'trusted-keys.json') };
  const setup = spawnSync(process.execPath, ['--no-node-snapshot', join(projectRoot, 'core', 'cli', 'main.ts'), 'plugin', 'setup'], {
    cwd: projectRoot,
    encoding: 'utf8',
    env: { ...inherited, ...plugins, OPL_DATA_DIR: dataDir },
  });
  if (setup.status !== 0) throw new Error(`e2e: opl plugin setup failed:\n${setup.stdout}\n${setup.stderr}`);
  const engine = spawn(process.execPath, ['--no-node-snapshot', join(projectRoot, 'core', 'cli', 'main.ts'), 'start'], {
    cwd: projectRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...inherited,
      OPL_HOST: '127.0.0.1',
      OPL_PORT: String(port),
      OPL_DATA_DIR: dataDir,
      OPL_EMBEDDED_DB_PORT: String(await freePort()),
      OPL_LOG_LEVEL: 'warn',
      ...plugins,
      ...env(baseUrl),
    },
  });
  // The whole output goes to the run's secret scan (test/support/secret-scan.ts) when it stops.
  const log: { text: string; all: string[] } = { text: '', all: [] };
  tail(engine.stdout, log);
  tail(engine.stderr, log);
  const stop = async () => {
    try {
      await stopProcess(engine, log);
    } finally {
      writeTranscript('e2e-engine', log.all);
      rmSync(dataDir, { recursive: true, force: true });
    }
  };
  try {
    await waitForReady(baseUrl, engine, log);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, port, stop };
}

/**
 * `startEngine` on a database of its own on the e2e run's shared PostgreSQL server, for test
 * files that need an engine in another mode: no server to initialise and start per engine.
 * Call it from test files only (it reads `inject`); `stop()` also drops the database.
 */
export async function startEngineOnSharedDatabase(env: (baseUrl: string) => Record<string, string> = () => ({})): Promise<RunningEngine> {
  const database = await createSharedDatabase(inject('oplTestAdminUrl'), 'opl_e2e');
  try {
    const engine = await startEngine((baseUrl) => ({ ...env(baseUrl), OPL_DATABASE_URL: database.url }));
    return {
      ...engine,
      async stop() {
        try {
          await engine.stop();
        } finally {
          await database.drop();
        }
      },
    };
  } catch (error) {
    await database.drop();
    throw error;
  }
}
