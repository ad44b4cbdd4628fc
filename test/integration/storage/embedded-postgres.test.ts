import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../core/logging/logger.ts';
import { findFreePort } from '../../../core/storage/embedded/free-port.ts';
import { DatabaseError, openDatabase, type Database } from '../../../core/storage/index.ts';
import { testConfig } from '../support/test-database.ts';
import { capturingLogger, postgresProcessesFor, startOwnerProcess, waitFor } from './helpers.ts';

// These tests run their own embedded servers (own data dir, own port), not the shared one.
async function embeddedConfig() {
  return testConfig({ databaseUrl: undefined, embeddedDbPort: await findFreePort() });
}

async function titles(database: Database): Promise<string[]> {
  const rows = await database.orm.em.getConnection().execute<Array<{ title: string }>>('select title from track_identity order by title');
  return rows.map((row) => row.title);
}

describe('embedded PostgreSQL', () => {
  it('initialises once, keeps data across restarts and stops its server on close', async () => {
    const config = await embeddedConfig();
    const { logger, text } = capturingLogger('debug');

    const first = await openDatabase(config, logger);
    expect(first.embedded).toBe(true);
    expect(first.connectionString).toMatch(new RegExp(`^postgresql://postgres:[^@]+@127\\.0\\.0\\.1:${config.embeddedDbPort}/opl$`));
    await first.orm.em.getConnection().execute(`insert into track_identity (title, artist) values ('kept', 'across restarts')`);
    expect(postgresProcessesFor(config.dataDir).length).toBeGreaterThan(0);
    await first.close();
    expect(postgresProcessesFor(config.dataDir)).toEqual([]);

    const passwordFile = join(config.dataDir, 'postgres', 'password');
    expect(statSync(passwordFile).mode & 0o777).toBe(0o600);
    const password = readFileSync(passwordFile, 'utf8').trim();
    expect(password.length).toBeGreaterThanOrEqual(24);

    const second = await openDatabase(config, logger);
    try {
      expect(await titles(second)).toEqual(['kept']);
      // Same cluster, same password: it was not initialised again.
      expect(readFileSync(passwordFile, 'utf8').trim()).toBe(password);
    } finally {
      await second.close();
    }
    expect(postgresProcessesFor(config.dataDir)).toEqual([]);
    const logs = text();
    expect(logs).toContain('initialising the embedded PostgreSQL cluster');
    expect(logs.match(/initialising the embedded PostgreSQL cluster/g)).toHaveLength(1);
    // The server's own output reached the logger at debug level...
    expect(logs).toContain('database system is ready to accept connections');
    // ...and the password never did.
    expect(logs).not.toContain(password);
  });

  it('adopts the server of an engine process killed with SIGKILL, with the data intact', async () => {
    const config = await embeddedConfig();
    const owner = await startOwnerProcess(config.dataDir, config.embeddedDbPort, 'written before the kill');
    const serverPids = postgresProcessesFor(config.dataDir);
    expect(serverPids.length).toBeGreaterThan(0);

    owner.child.kill('SIGKILL');
    await owner.exited;
    // The orphaned server outlives its engine...
    expect(postgresProcessesFor(config.dataDir).length).toBeGreaterThan(0);

    const { logger, text } = capturingLogger('info');
    const database = await openDatabase(config, logger);
    try {
      expect(text()).toContain('adopting an embedded PostgreSQL server');
      expect(await titles(database)).toEqual(['written before the kill']);
    } finally {
      await database.close();
    }
    // ...and the adopter stops it.
    expect(postgresProcessesFor(config.dataDir)).toEqual([]);
  });

  it('starts over a stale postmaster.pid after the server itself was killed', async () => {
    const config = await embeddedConfig();
    const owner = await startOwnerProcess(config.dataDir, config.embeddedDbPort, 'survives a crash');
    const pidFile = join(config.dataDir, 'postgres', 'data', 'postmaster.pid');
    const postmasterPid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
    // Machine-crash style: the engine and every server process die at once.
    owner.child.kill('SIGKILL');
    for (const pid of postgresProcessesFor(config.dataDir)) process.kill(pid, 'SIGKILL');
    await owner.exited;
    await waitFor(() => postgresProcessesFor(config.dataDir).length === 0);
    expect(readFileSync(pidFile, 'utf8').split('\n')[0]).toBe(String(postmasterPid));

    const database = await openDatabase(config, createLogger({ level: 'silent' }));
    try {
      expect(await titles(database)).toEqual(['survives a crash']);
    } finally {
      await database.close();
    }

    // A pid file naming a live process that is not a postgres server (pid reuse) does not block either.
    writeFileSync(pidFile, `${process.pid}\n${join(config.dataDir, 'postgres', 'data')}\n0\n${config.embeddedDbPort}\n\n127.0.0.1\n0 0\nready\n`);
    const again = await openDatabase(config, createLogger({ level: 'silent' }));
    try {
      expect(await titles(again)).toEqual(['survives a crash']);
    } finally {
      await again.close();
    }
    expect(postgresProcessesFor(config.dataDir)).toEqual([]);
  });

  it('shares the server of another live engine process without stopping it', async () => {
    const config = await embeddedConfig();
    const owner = await startOwnerProcess(config.dataDir, config.embeddedDbPort, 'from the owner');
    try {
      const { logger, text } = capturingLogger('info');
      const database = await openDatabase(config, logger);
      try {
        expect(text()).toContain('attaching to the embedded PostgreSQL server run by another engine process');
        expect(await titles(database)).toEqual(['from the owner']);
      } finally {
        await database.close();
      }
      // Closing the attached handle left the owner's server running.
      expect(postgresProcessesFor(config.dataDir).length).toBeGreaterThan(0);
    } finally {
      owner.child.kill('SIGTERM');
      expect(await owner.exited).toBe(0);
    }
    expect(postgresProcessesFor(config.dataDir)).toEqual([]);
  });

  it('refuses a port that is already taken, with the reason and without leaving a server behind', async () => {
    const config = await embeddedConfig();
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(config.embeddedDbPort, '127.0.0.1', resolve));
    try {
      const error = await openDatabase(config, createLogger({ level: 'silent' })).catch((caught: unknown) => caught as Error);
      expect(error).toBeInstanceOf(DatabaseError);
      expect((error as Error).message).toContain(`Port ${config.embeddedDbPort} is in use: set OPL_EMBEDDED_DB_PORT`);
      expect(postgresProcessesFor(config.dataDir)).toEqual([]);
    } finally {
      blocker.close();
    }
  });
});
