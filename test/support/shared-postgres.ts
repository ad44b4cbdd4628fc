import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { createLogger } from '../../core/logging/logger.ts';
import { findFreePort } from '../../core/storage/embedded/free-port.ts';
import { startEmbeddedPostgres, THROWAWAY_SERVER_SETTINGS } from '../../core/storage/embedded-postgres.service.ts';
import { createDatabase, dropDatabase } from '../../core/storage/sql/database.sql.ts';

/**
 * One embedded PostgreSQL server for a whole test run (started by a project's global setup), on
 * which each test file or engine creates its own database: initialising and starting a server
 * costs seconds, creating a database on a running one a fraction of that.
 */
export interface SharedPostgres {
  /** Superuser URL of the maintenance database `postgres`. */
  readonly adminUrl: string;
  stop(): Promise<void>;
}

export async function startSharedPostgres(options: { rootDir: string; ownedRoot: string; name: string }): Promise<SharedPostgres> {
  const server = await startEmbeddedPostgres({
    rootDir: join(options.rootDir, 'postgres'),
    ownedRoot: options.ownedRoot,
    port: await findFreePort(),
    database: options.name,
    logger: createLogger({ level: 'warn', name: `${options.name}-postgres` }),
    settings: { ...THROWAWAY_SERVER_SETTINGS, max_connections: '300' },
  });
  return { adminUrl: server.connectionString('postgres'), stop: () => server.stop() };
}

export interface SharedDatabase {
  /** Superuser URL of the new database. */
  readonly url: string;
  readonly name: string;
  /** Drops the database, disconnecting whatever is still connected to it. */
  drop(): Promise<void>;
}

/** A new empty database with a unique name (`<prefix>_<time>_<random>`) on the shared server. */
export async function createSharedDatabase(adminUrl: string, prefix: string): Promise<SharedDatabase> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await withAdmin(adminUrl, (client) => client.query(createDatabase(name)));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    url: url.toString(),
    name,
    async drop() {
      if (dropped) return;
      dropped = true;
      await withAdmin(adminUrl, (client) => client.query(dropDatabase(name)));
    },
  };
}

async function withAdmin<T>(adminUrl: string, action: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await action(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}
