import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chown, mkdir, readFile, realpath, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { Logger } from '../logging/logger.ts';
import { resolvePostgresBinaries, type PostgresBinaries } from './embedded/postgres-binaries.ts';
import { parsePostmasterPid, type PostmasterPid } from './embedded/postmaster-pid.ts';
import { isProcessAlive, readProcessCwd, readProcessName } from './embedded/process-info.ts';
import { hasLiveOwner, readServerRecord, removeServerRecord, writeServerRecord } from './embedded/server-record.ts';
import { ensureReachable, resolveServerUser, type ServerUser } from './embedded/server-user.ts';
import { withStartLock } from './embedded/start-lock.ts';
import { createDatabase, databaseExists, isDuplicateDatabaseError } from './sql/database.sql.ts';

export interface EmbeddedPostgresOptions {
  /** Directory holding everything of the embedded server (`<OPL_DATA_DIR>/postgres`). */
  rootDir: string;
  /**
   * Directory the engine owns above `rootDir` (`OPL_DATA_DIR`). When the server runs as another
   * OS user, directories from here down may be made traversable for it; ones above are not touched.
   */
  ownedRoot?: string;
  port: number;
  /** Application database, created when missing. */
  database: string;
  logger: Logger;
  /** Extra `postgres -c name=value` settings, e.g. `{ fsync: 'off' }` for throwaway test servers. */
  settings?: Record<string, string>;
  startTimeoutMs?: number;
  stopTimeoutMs?: number;
}

/**
 * How this handle relates to the server process:
 * - `started`: this process spawned it and stops it on `stop()`;
 * - `adopted`: it outlived the engine that started it (killed), and this process now owns it;
 * - `attached`: another live engine process owns it; `stop()` leaves it running.
 */
export type EmbeddedPostgresMode = 'started' | 'adopted' | 'attached';

export interface EmbeddedPostgresServer {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly database: string;
  readonly pid: number;
  readonly mode: EmbeddedPostgresMode;
  /** The superuser password, for building connections; never log it. */
  readonly password: string;
  /** URL of `database` (or another database on the same server). */
  connectionString(database?: string): string;
  stop(): Promise<void>;
}

/**
 * Settings for throwaway servers (tests, migration tooling): durability traded for speed. Never
 * for a server holding real data.
 */
export const THROWAWAY_SERVER_SETTINGS: Readonly<Record<string, string>> = {
  fsync: 'off',
  synchronous_commit: 'off',
  full_page_writes: 'off',
};

const HOST = '127.0.0.1';
const SUPERUSER = 'postgres';
const DATA_SUBDIR = 'data';
const OUTPUT_TAIL_LINES = 40;

/**
 * Starts (or finds) the embedded PostgreSQL server of a data directory. The cluster is created
 * on first use with a random superuser password kept in a 0600 file beside it. A server left
 * running by a killed engine is adopted rather than fought over, a stale `postmaster.pid` is
 * removed, and a server owned by another live engine process is shared without being stopped.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgresServer> {
  const logger = options.logger.child({ component: 'embedded-postgres' });
  const rootDir = options.rootDir;
  const paths = {
    data: join(rootDir, DATA_SUBDIR),
    staging: join(rootDir, `${DATA_SUBDIR}.initdb`),
    password: join(rootDir, 'password'),
    record: join(rootDir, 'server.json'),
    lock: join(rootDir, 'start.lock'),
  };
  const startTimeoutMs = options.startTimeoutMs ?? 120_000;

  await mkdir(rootDir, { recursive: true, mode: 0o700 });
  const binaries = await resolvePostgresBinaries();
  const user = await resolveServerUser(logger);
  if (user) {
    await ensureReachable(paths.data, user, options.ownedRoot ?? rootDir, logger);
    await ensureReachable(binaries.postgres, user, undefined, logger);
  }

  const found = await withStartLock(paths.lock, startTimeoutMs, async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const live = await findLivePostmaster(paths.data, logger);
      if (live) {
        const port = live.port ?? options.port;
        if (live.status === 'stopping') {
          await waitForExit(live.pid, undefined, startTimeoutMs);
          continue;
        }
        if (hasLiveOwner(await readServerRecord(paths.record), live.pid)) {
          logger.info({ postgresPid: live.pid, port }, 'attaching to the embedded PostgreSQL server run by another engine process');
          if (!(await waitUntilReady(paths.data, live.pid, undefined, startTimeoutMs))) continue;
          return { pid: live.pid, port, mode: 'attached' as const, child: undefined, output: undefined };
        }
        logger.info({ postgresPid: live.pid, port }, 'adopting an embedded PostgreSQL server left running by an engine process that stopped without closing it; its log output is not captured');
        if (!(await waitUntilReady(paths.data, live.pid, undefined, startTimeoutMs))) continue;
        await writeServerRecord(paths.record, live.pid, port);
        return { pid: live.pid, port, mode: 'adopted' as const, child: undefined, output: undefined };
      }
      if (!(await isInitialised(paths.data))) await initialise(paths, binaries, user, logger, options.settings?.fsync === 'off');
      const started = await spawnServer(paths.data, binaries, user, options, logger, startTimeoutMs);
      if (!started) continue; // lost a race with another postmaster for the directory: look again
      await writeServerRecord(paths.record, started.pid, options.port);
      return { ...started, port: options.port, mode: 'started' as const };
    }
    throw new Error(`Could not start or attach to the embedded PostgreSQL server in ${paths.data}`);
  });

  const password = await readPassword(paths.password);
  const server = new RunningServer({
    pid: found.pid,
    port: found.port,
    mode: found.mode,
    database: options.database,
    password,
    child: found.child,
    output: found.output,
    paths,
    logger,
    stopTimeoutMs: options.stopTimeoutMs ?? 60_000,
  });
  try {
    await ensureDatabase(server, options.database);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}

interface Paths {
  data: string;
  staging: string;
  password: string;
  record: string;
  lock: string;
}

class RunningServer implements EmbeddedPostgresServer {
  readonly host = HOST;
  readonly user = SUPERUSER;
  readonly port: number;
  readonly database: string;
  readonly pid: number;
  readonly mode: EmbeddedPostgresMode;
  readonly password: string;
  readonly #child: ChildProcess | undefined;
  readonly #output: OutputRouter | undefined;
  readonly #paths: Paths;
  readonly #logger: Logger;
  readonly #stopTimeoutMs: number;
  readonly #exitHook: () => void;
  #stopping: Promise<void> | undefined;

  constructor(init: {
    pid: number;
    port: number;
    mode: EmbeddedPostgresMode;
    database: string;
    password: string;
    child: ChildProcess | undefined;
    output: OutputRouter | undefined;
    paths: Paths;
    logger: Logger;
    stopTimeoutMs: number;
  }) {
    this.pid = init.pid;
    this.port = init.port;
    this.mode = init.mode;
    this.database = init.database;
    this.password = init.password;
    this.#child = init.child;
    this.#output = init.output;
    this.#paths = init.paths;
    this.#logger = init.logger;
    this.#stopTimeoutMs = init.stopTimeoutMs;
    // Last resort when the process exits without closing the database (process.exit, uncaught
    // error): ask the server for a fast shutdown. Only synchronous work is possible here.
    this.#exitHook = () => {
      if (this.mode !== 'attached') signal(this.pid, 'SIGINT');
    };
    process.once('exit', this.#exitHook);
  }

  connectionString(database: string = this.database): string {
    return `postgresql://${SUPERUSER}:${encodeURIComponent(this.password)}@${HOST}:${this.port}/${encodeURIComponent(database)}`;
  }

  stop(): Promise<void> {
    this.#stopping ??= this.#stop();
    return this.#stopping;
  }

  async #stop(): Promise<void> {
    process.removeListener('exit', this.#exitHook);
    if (this.mode === 'attached') return;
    const stop = async () => {
      this.#output?.expectExit();
      if (isProcessAlive(this.pid)) {
        // SIGINT = "fast" shutdown: roll back open transactions, checkpoint, exit.
        signal(this.pid, 'SIGINT');
        if (!(await waitForExit(this.pid, this.#child, this.#stopTimeoutMs))) {
          this.#logger.warn({ postgresPid: this.pid }, 'embedded PostgreSQL did not stop in time; forcing an immediate shutdown');
          signal(this.pid, 'SIGQUIT');
          if (!(await waitForExit(this.pid, this.#child, 10_000))) {
            signal(this.pid, 'SIGKILL');
            await waitForExit(this.pid, this.#child, 10_000);
          }
        }
      }
      await removeServerRecord(this.#paths.record, this.pid);
      this.#logger.debug({ postgresPid: this.pid }, 'embedded PostgreSQL stopped');
    };
    let locked = false;
    try {
      await withStartLock(this.#paths.lock, this.#stopTimeoutMs, async () => {
        locked = true;
        await stop();
      });
    } catch (error) {
      // The lock only keeps a concurrent start from racing the shutdown; if it cannot be taken
      // (directory removed underneath, timeout), stopping the server still matters more.
      if (locked) throw error;
      this.#logger.warn({ err: error }, 'stopping the embedded PostgreSQL server without the start lock');
      await stop();
    }
  }
}

/** The live postmaster serving `dataDir`, if any; removes a stale `postmaster.pid`. */
async function findLivePostmaster(dataDir: string, logger: Logger): Promise<PostmasterPid | undefined> {
  const pidFile = join(dataDir, 'postmaster.pid');
  const text = await readFile(pidFile, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  const info = parsePostmasterPid(text);
  if (info && (await servesDirectory(info.pid, dataDir))) return info;
  // The pid is gone, or was reused by an unrelated process. PostgreSQL itself would refuse to
  // start while that pid is alive (and, as another user, it cannot even tell), so clear it.
  logger.info({ postgresPid: info?.pid }, 'removing a stale postmaster.pid left by a server that is no longer running');
  await unlink(pidFile).catch(() => undefined);
  return undefined;
}

async function servesDirectory(pid: number, dataDir: string): Promise<boolean> {
  if (!isProcessAlive(pid)) return false;
  const name = readProcessName(pid);
  if (name !== undefined && name !== 'postgres') return false;
  const cwd = readProcessCwd(pid);
  if (cwd === undefined) return true; // no /proc: trust the live pid, as PostgreSQL does
  const [a, b] = await Promise.all([realpath(cwd).catch(() => cwd), realpath(dataDir).catch(() => dataDir)]);
  return a === b;
}

async function isInitialised(dataDir: string): Promise<boolean> {
  return stat(join(dataDir, 'PG_VERSION')).then(
    () => true,
    () => false,
  );
}

/**
 * Creates the cluster in a staging directory and renames it into place, so that a data
 * directory with `PG_VERSION` is always complete even if initdb was killed halfway.
 */
async function initialise(paths: Paths, binaries: PostgresBinaries, user: ServerUser | undefined, logger: Logger, noSync: boolean): Promise<void> {
  logger.info({ dir: paths.data }, 'initialising the embedded PostgreSQL cluster');
  await rm(paths.staging, { recursive: true, force: true });
  await mkdir(paths.staging, { mode: 0o700 });
  const password = randomBytes(24).toString('base64url');
  const pwfile = join(dirname(paths.password), `initdb-pw.${randomBytes(6).toString('hex')}`);
  await writeFile(pwfile, `${password}\n`, { mode: 0o600 });
  try {
    if (user) {
      await chown(paths.staging, user.uid, user.gid);
      await chown(pwfile, user.uid, user.gid);
    }
    const args = [
      `--pgdata=${paths.staging}`,
      `--username=${SUPERUSER}`,
      `--pwfile=${pwfile}`,
      '--auth=scram-sha-256',
      '--encoding=UTF8',
      // The builtin provider's C.UTF-8 sorts and classifies the same on every machine and needs
      // no OS locale; LC_* stay at C so messages are never translated.
      '--locale=C',
      '--locale-provider=builtin',
      '--builtin-locale=C.UTF-8',
      ...(noSync ? ['--no-sync'] : []),
    ];
    const output = new OutputRouter(logger, 'initdb');
    const code = await new Promise<number | null>((resolvePromise, reject) => {
      const child = spawn(binaries.initdb, args, { ...spawnIdentity(user), stdio: ['ignore', 'pipe', 'pipe'], env: serverEnv() });
      output.attach(child);
      child.once('error', reject);
      child.once('exit', (exitCode) => resolvePromise(exitCode));
    });
    if (code !== 0) throw new Error(`initdb failed (exit code ${code}): ${output.tail()}`);
  } finally {
    await unlink(pwfile).catch(() => undefined);
  }
  await writePassword(paths.password, password);
  await rename(paths.staging, paths.data);
}

interface Spawned {
  pid: number;
  child: ChildProcess;
  output: OutputRouter;
}

/** Spawns the postmaster and waits until it accepts connections; undefined if it lost the directory to another postmaster. */
async function spawnServer(
  dataDir: string,
  binaries: PostgresBinaries,
  user: ServerUser | undefined,
  options: EmbeddedPostgresOptions,
  logger: Logger,
  timeoutMs: number,
): Promise<Spawned | undefined> {
  const settings: Record<string, string> = {
    listen_addresses: HOST,
    // TCP on loopback only: no socket files in /tmp to collide or to need permissions.
    unix_socket_directories: '',
    ...options.settings,
  };
  const args = ['-D', dataDir, '-p', String(options.port), ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`])];
  logger.debug({ port: options.port }, 'starting the embedded PostgreSQL server');
  // Detached: a Ctrl-C in the terminal reaches the engine, which then closes the database in
  // order, instead of killing the server underneath in-flight work.
  const child = spawn(binaries.postgres, args, { ...spawnIdentity(user), detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: serverEnv() });
  const output = new OutputRouter(logger, 'postgres');
  output.attach(child);
  const spawnError = new Promise<Error>((resolvePromise) => child.once('error', resolvePromise));
  child.unref();
  const pid = child.pid;
  if (pid === undefined) throw new Error(`Could not start the embedded PostgreSQL server: ${(await spawnError).message}`);

  const ready = await waitUntilReady(dataDir, pid, child, timeoutMs);
  if (ready) return { pid, child, output };
  if (child.exitCode === null && child.signalCode === null) {
    signal(pid, 'SIGQUIT');
    await waitForExit(pid, child, 10_000);
    throw new Error(`The embedded PostgreSQL server did not become ready within ${timeoutMs} ms: ${output.tail()}`);
  }
  const competitor = await findLivePostmaster(dataDir, logger);
  if (competitor && competitor.pid !== pid) return undefined;
  const hint = /could not bind/i.test(output.tail()) ? ` Port ${options.port} is in use: set OPL_EMBEDDED_DB_PORT to a free port.` : '';
  throw new Error(`The embedded PostgreSQL server exited during startup (exit code ${child.exitCode ?? child.signalCode}).${hint} Server output:\n${output.tail()}`);
}

/**
 * Waits until `postmaster.pid` names `pid` with status `ready` (the server accepts connections).
 * False when the process exited first.
 */
async function waitUntilReady(dataDir: string, pid: number, child: ChildProcess | undefined, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  const pidFile = join(dataDir, 'postmaster.pid');
  while (Date.now() < deadline) {
    if (child ? child.exitCode !== null || child.signalCode !== null : !isProcessAlive(pid)) return false;
    const info = parsePostmasterPid((await readFile(pidFile, 'utf8').catch(() => '')) ?? '');
    if (info?.pid === pid && info.status === 'ready') return true;
    await sleep(50);
  }
  return false;
}

async function waitForExit(pid: number, child: ChildProcess | undefined, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child ? child.exitCode !== null || child.signalCode !== null : !isProcessAlive(pid)) return true;
    await sleep(50);
  }
  return false;
}

async function ensureDatabase(server: RunningServer, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: server.connectionString('postgres') });
  client.on('error', () => undefined); // a dropped idle connection must not crash the process
  await client.connect();
  try {
    const exists = await client.query(databaseExists(database));
    if (exists.rowCount) return;
    await client.query(createDatabase(database)).catch((error: unknown) => {
      if (!isDuplicateDatabaseError(error)) throw error;
    });
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function writePassword(path: string, password: string): Promise<void> {
  const staged = `${path}.${process.pid}`;
  await writeFile(staged, `${password}\n`, { mode: 0o600 });
  await rename(staged, path);
}

async function readPassword(path: string): Promise<string> {
  try {
    const password = (await readFile(path, 'utf8')).trim();
    if (password) return password;
  } catch {
    // reported below
  }
  throw new Error(`The embedded PostgreSQL password file ${path} is missing or unreadable; the cluster beside it cannot be used without it`);
}

function spawnIdentity(user: ServerUser | undefined): { uid?: number; gid?: number } {
  return user ? { uid: user.uid, gid: user.gid } : {};
}

/** The server gets a minimal, fixed environment: nothing of the engine's (secrets included) leaks in. */
function serverEnv(): NodeJS.ProcessEnv {
  return { PATH: '/usr/local/bin:/usr/bin:/bin', LC_ALL: 'C', TZ: 'UTC' };
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

/** Routes a child's output lines to the logger at debug level and keeps the last few for errors. */
class OutputRouter {
  readonly #logger: Logger;
  readonly #source: string;
  readonly #lines: string[] = [];
  #exitExpected = false;

  constructor(logger: Logger, source: string) {
    this.#logger = logger;
    this.#source = source;
  }

  attach(child: ChildProcess): void {
    for (const stream of [child.stdout, child.stderr]) {
      if (!stream) continue;
      let pending = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        pending += chunk;
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) this.#line(line);
      });
      stream.on('end', () => {
        if (pending) this.#line(pending);
        pending = '';
      });
      // The server outlives the pipes when it is adopted later; never keep the engine alive for them.
      (stream as { unref?: () => void }).unref?.();
    }
    child.once('exit', (code, signalName) => {
      if (this.#source === 'postgres' && !this.#exitExpected && code !== 0) {
        this.#logger.warn({ code, signal: signalName }, 'the embedded PostgreSQL server exited unexpectedly');
      }
    });
  }

  expectExit(): void {
    this.#exitExpected = true;
  }

  tail(): string {
    return this.#lines.join('\n') || '(no output)';
  }

  #line(line: string): void {
    if (!line.trim()) return;
    this.#lines.push(line);
    if (this.#lines.length > OUTPUT_TAIL_LINES) this.#lines.shift();
    this.#logger.debug({ source: this.#source }, line);
  }
}
