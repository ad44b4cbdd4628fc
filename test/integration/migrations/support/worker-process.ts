import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { writeTranscript } from '../../../support/secret-scan.ts';

/** Starts and kills worker-only engine processes (see migration-worker.entry.ts). */

const ENTRY = fileURLToPath(new URL('./migration-worker.entry.ts', import.meta.url));
const READY = 'opl-test-worker-ready';

export interface WorkerSettings {
  /** OPL_* variables of the worker (database, registry, vault key…). */
  env: Record<string, string>;
  originOverrides: Record<string, string>;
  clients: Record<string, { client_id: string }>;
  leaseSeconds: number;
  sliceSeconds: number;
  /** Built, but polling only after `go()` (the crash tests warm the next worker meanwhile). */
  standby?: boolean;
}

export interface WorkerProcess {
  readonly child: ChildProcess;
  /** Resolves when the worker polls the queue; rejects when it exits before that. */
  readonly ready: Promise<void>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** A standby worker: resolves once it is built and waits for `go()`. */
  readonly built: Promise<void>;
  /** Lets a standby worker start polling. */
  go(): void;
  output(): string;
  /** SIGKILL: no cleanup at all, exactly like a crashed machine. */
  kill(): Promise<void>;
  /** SIGTERM: a graceful stop. */
  stop(): Promise<void>;
}

export function startWorker(settings: WorkerSettings): WorkerProcess {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OPL_')));
  const child = spawn(process.execPath, ['--no-node-snapshot', ENTRY], {
    env: {
      ...inherited,
      ...settings.env,
      TEST_MIGRATION_WORKER_OPTIONS: JSON.stringify({ originOverrides: settings.originOverrides, clients: settings.clients, leaseSeconds: settings.leaseSeconds, sliceSeconds: settings.sliceSeconds }),
      ...(settings.standby ? { TEST_WORKER_STANDBY: '1' } : {}),
    },
    stdio: [settings.standby ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    child.once('exit', (code, signal) => reject(new Error(`the worker exited (${code ?? signal}) before it was ready:\n${output.slice(-4000)}`)));
  });
  ready.catch(() => undefined);
  let markBuilt: () => void = () => undefined;
  const built = new Promise<void>((resolve, reject) => {
    markBuilt = resolve;
    child.once('exit', (code, signal) => reject(new Error(`the worker exited (${code ?? signal}) before it was built:\n${output.slice(-4000)}`)));
  });
  built.catch(() => undefined);
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    if (output.includes('opl-test-worker-standby')) markBuilt();
    if (output.includes(READY)) markReady();
  });
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      // Worker logs join the suite-wide secret scan like every other engine's.
      writeTranscript('migration-worker', [output]);
      resolve({ code, signal });
    }),
  );
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    child,
    ready,
    exited,
    built,
    go() {
      child.stdin?.end('go\n');
    },
    output: () => output,
    async kill() {
      if (alive()) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (alive()) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      try {
        await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
