import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, runOpl, waitForStatus } from './support/engine-process.ts';
import { createTestDatabase } from './support/test-database.ts';

describe('opl CLI', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'opl-cli-'));
    // mkdtemp makes the directory private; the embedded server's OS user must be able to traverse it.
    await chmod(dataDir, 0o755);
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('stops start-up on bad configuration, naming every variable, with a non-zero exit', async () => {
    const engine = runOpl(['start'], { OPL_PORT: 'abc', OPL_DEPLOYMENT_MODE: 'cloud', OPL_DATA_DIR: dataDir });
    const { code } = await engine.exited;
    expect(code).not.toBe(0);
    expect(engine.output()).toMatch(/OPL_PORT: must be a whole number/);
    expect(engine.output()).toMatch(/OPL_DEPLOYMENT_MODE: must be self_host or hosted/);
    expect(existsSync(join(dataDir, 'postgres'))).toBe(false);
  });

  it('runs `serve` and `worker` as separate processes against an external database, starting no embedded server', async () => {
    const database = await createTestDatabase();
    const port = await freePort();
    const env = { OPL_DATABASE_URL: database.url, OPL_DATA_DIR: dataDir, OPL_PORT: String(port), OPL_LOG_LEVEL: 'info' };
    const api = runOpl(['serve'], env);
    const worker = runOpl(['worker'], env);
    try {
      await waitForStatus(api, `http://127.0.0.1:${port}/readyz`);
      expect(existsSync(join(dataDir, 'postgres'))).toBe(false);
      expect(api.output()).toMatch(/"database":"external"/);
      expect(api.output()).not.toContain(new URL(database.url).password || '\u0000');
      const me = await fetch(`http://127.0.0.1:${port}/api/me`);
      expect(await me.json()).toMatchObject({ owner_id: 'local' });
      const deadline = Date.now() + 60_000;
      while (!worker.output().includes('worker started') && Date.now() < deadline && worker.child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      expect((await api.stop()).code).toBe(0);
      expect((await worker.stop()).code).toBe(0);
      await database.drop();
    }
    expect(worker.output()).toMatch(/worker started/);
  });

  it('warns when the engine runs without the node flags of its heap profile, and only then', async () => {
    const database = await createTestDatabase();
    const env = { OPL_DATABASE_URL: database.url, OPL_DATA_DIR: dataDir, OPL_LOG_LEVEL: 'info' };
    const warning = /OPL_HEAP_PROFILE is memory but node was started without --optimize-for-size/;
    // Started by hand with the default profile (memory): the flag the `opl` launcher adds is missing.
    const byHand = runOpl(['worker'], env);
    // The same profile with the flag given, and the speed profile (which needs no flag).
    const withFlag = runOpl(['worker'], env, ['--optimize-for-size']);
    const speed = runOpl(['worker'], { ...env, OPL_HEAP_PROFILE: 'speed' });
    const workers = [byHand, withFlag, speed];
    try {
      const deadline = Date.now() + 90_000;
      while (workers.some((worker) => !worker.output().includes('worker started') && worker.child.exitCode === null) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      for (const worker of workers) expect((await worker.stop()).code).toBe(0);
      await database.drop();
    }
    for (const worker of workers) expect(worker.output()).toMatch(/worker started/);
    expect(byHand.output()).toMatch(warning);
    expect(byHand.output()).toMatch(/"missing_node_flags":\["--optimize-for-size"\]/);
    expect(withFlag.output()).not.toMatch(/started without/);
    expect(speed.output()).not.toMatch(/started without/);
  });

  it('stops cleanly when a signal arrives while the engine is still starting', async () => {
    const database = await createTestDatabase();
    const env = { OPL_DATABASE_URL: database.url, OPL_DATA_DIR: dataDir, OPL_PORT: String(await freePort()), OPL_LOG_LEVEL: 'debug' };
    const worker = runOpl(['worker'], env);
    try {
      // The first log line means the process runs the engine code (signal handlers are installed first).
      const deadline = Date.now() + 60_000;
      while (worker.output() === '' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(worker.output()).not.toMatch(/worker started/);
      const { code, signal } = await worker.stop('SIGTERM');
      expect({ code, signal }).toEqual({ code: 0, signal: null });
      expect(worker.output()).toMatch(/"msg":"stopped"/);
    } finally {
      await database.drop();
    }
  });

  it('stops gracefully when Ctrl-C reaches it twice, from the terminal and again through the launcher', async () => {
    const database = await createTestDatabase();
    const port = await freePort();
    const env = { OPL_DATABASE_URL: database.url, OPL_DATA_DIR: dataDir, OPL_PORT: String(port), OPL_LOG_LEVEL: 'debug' };
    const engine = runOpl(['start'], env);
    try {
      await waitForStatus(engine, `http://127.0.0.1:${port}/readyz`);
      // A terminal signals the whole process group: the engine hears Ctrl-C itself, then the copy
      // `npm start`'s launchers forward to it. The copy is sent once the first is being handled,
      // so the two cannot merge into one delivery.
      engine.child.kill('SIGINT');
      const deadline = Date.now() + 10_000;
      while (!engine.output().includes('"msg":"stopping"') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      engine.child.kill('SIGINT');
      expect(await engine.exited).toEqual({ code: 0, signal: null });
    } finally {
      await database.drop();
    }
    expect(engine.output()).toMatch(/the same signal again \(forwarded by a launcher\): still stopping/);
    expect(engine.output()).toMatch(/"msg":"stopped"/);
    expect(engine.output()).not.toMatch(/second signal/);
  });

  it('`start` on the embedded database keeps data across a restart and stops it cleanly', async () => {
    const port = await freePort();
    const env = {
      OPL_DATA_DIR: join(dataDir, 'embedded'),
      OPL_PORT: String(port),
      OPL_EMBEDDED_DB_PORT: String(await freePort()),
      OPL_PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      OPL_OWNER_SECRET: 'a long enough owner secret',
    };
    const base = `http://127.0.0.1:${port}`;
    const first = runOpl(['start'], env);
    let cookie: string;
    try {
      await waitForStatus(first, `${base}/readyz`);
      const login = await fetch(`${base}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ secret: env.OPL_OWNER_SECRET }) });
      expect(login.status).toBe(204);
      cookie = /opl_session=[^;]+/.exec(login.headers.get('set-cookie') ?? '')![0];
    } finally {
      const exit = await first.stop('SIGINT');
      expect(exit.code).toBe(0);
    }
    expect(existsSync(join(env.OPL_DATA_DIR, 'postgres', 'data', 'postmaster.pid'))).toBe(false);
    expect(first.output()).not.toContain(env.OPL_OWNER_SECRET);

    const second = runOpl(['start'], env);
    try {
      await waitForStatus(second, `${base}/readyz`);
      const me = await fetch(`${base}/api/me`, { headers: { cookie } });
      expect(me.status).toBe(200);
      expect(await me.json()).toMatchObject({ owner_id: 'local', session: { authenticated: true } });
    } finally {
      expect((await second.stop()).code).toBe(0);
    }
  });
});
