import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { createLogger, type Logger } from '../../../core/logging/logger.ts';

/** Pids of live postgres processes (postmaster and backends) serving `<dataDir>/postgres/data`. */
export function postgresProcessesFor(dataDir: string): number[] {
  const pgdata = join(dataDir, 'postgres', 'data');
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      const dashD = cmdline.indexOf('-D');
      if (dashD >= 0 && cmdline[dashD + 1] === pgdata) pids.push(Number(entry));
    } catch {
      // exited while we looked
    }
  }
  return pids;
}

/** A logger that keeps every line, to assert what reached (or never reached) the logs. */
export function capturingLogger(level = 'debug'): { logger: Logger; text: () => string } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk.toString('utf8'));
      callback();
    },
  });
  return { logger: createLogger({ level, destination }), text: () => lines.join('') };
}

const OWNER_SCRIPT = fileURLToPath(new URL('./fixtures/embedded-owner.ts', import.meta.url));

export interface OwnerProcess {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts fixtures/embedded-owner.ts and waits until it has opened the database and written `title`. */
export async function startOwnerProcess(dataDir: string, port: number, title: string): Promise<OwnerProcess> {
  const child = spawn(process.execPath, [OWNER_SCRIPT, dataDir, String(port), title], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`owner process did not get ready:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('READY\n')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`owner process exited with ${code}:\n${output}`));
    });
  });
  return { child, output: () => output, exited };
}

export async function waitFor(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
