import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, freePort } from '../support/engine-process.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

/**
 * What a person sees when they start the engine in a terminal: readable log lines and a banner
 * with the address to open. Services and pipes keep JSON lines. The terminal is a real
 * pseudo-terminal (util-linux `script`), so `auto` is decided the way it is for a user.
 */

let dataDir: string;
let database: TestDatabase;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'opl-terminal-'));
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

/** Starts `opl start` inside a pseudo-terminal and collects what the terminal shows until `until` appears. */
async function startInTerminal(env: Record<string, string>, until: RegExp): Promise<string> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OPL_')));
  const command = [process.execPath, '--no-node-snapshot', CLI, 'start'].map((part) => `'${part}'`).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], { env: { ...inherited, ...env }, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  let shown = '';
  child.stdout.on('data', (chunk: Buffer) => (shown += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (shown += chunk.toString()));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  try {
    const deadline = Date.now() + 90_000;
    while (!until.test(shown) && Date.now() < deadline && child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 100));
    if (!until.test(shown)) throw new Error(`the terminal never showed ${until}:\n${shown}`);
    return shown;
  } finally {
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
  }
}

describe('opl start in a terminal', () => {
  it('prints readable lines and a banner with the address to open, and never the database password', async () => {
    const port = await freePort();
    const shown = await startInTerminal({ OPL_DATABASE_URL: database.url, OPL_DATA_DIR: dataDir, OPL_PORT: String(port) }, /Stop:\s+Ctrl-C/);
    expect(shown).toMatch(/Open Playlist Engine \S+ is running\./);
    expect(shown).toContain(`Open:      http://127.0.0.1:${port}`);
    expect(shown).toMatch(/Mode:\s+self-host \(one owner\)/);
    expect(shown).toContain(`Data:      ${dataDir}`);
    expect(shown).toMatch(/Database:\s+external PostgreSQL \(OPL_DATABASE_URL\)/);
    expect(shown).toMatch(/^\d\d:\d\d:\d\d INFO {2}listening url=http:\/\/127\.0\.0\.1:\d+ /m);
    expect(shown).not.toMatch(/^\{"level"/m);
    expect(shown).not.toContain(new URL(database.url).password || '\u0000');
  });

  it('keeps JSON lines in a terminal when OPL_LOG_FORMAT=json, without a banner', async () => {
    const port = await freePort();
    const shown = await startInTerminal({ OPL_DATABASE_URL: database.url, OPL_DATA_DIR: dataDir, OPL_PORT: String(port), OPL_LOG_FORMAT: 'json' }, /"msg":"listening"/);
    expect(shown).toMatch(/^\{"level":"info".*"msg":"listening"/m);
    expect(shown).not.toContain('is running.');
  });
});
