import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { loadConfig, type Config } from '../../../core/config/index.ts';
import { createDatabase, dropDatabase } from '../../../core/storage/sql/database.sql.ts';
import './provided-context.ts';

export interface TestDatabase {
  /** Superuser URL of the new database. */
  url: string;
  name: string;
  /** Drops the database, disconnecting whatever is still connected to it. */
  drop(): Promise<void>;
}

let fileDatabase: TestDatabase | undefined;

/**
 * Creates a new empty database with a unique name on the run's shared server. The first one a
 * test file creates becomes that file's database for `testConfig()`.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('oplTestAdminUrl');
  const name = `opl_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await withAdmin(adminUrl, (client) => client.query(createDatabase(name)));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  const database: TestDatabase = {
    url: url.toString(),
    name,
    async drop() {
      if (dropped) return;
      dropped = true;
      if (fileDatabase === database) fileDatabase = undefined;
      await withAdmin(adminUrl, (client) => client.query(dropDatabase(name)));
    },
  };
  fileDatabase ??= database;
  return database;
}

/**
 * A Config as the engine would parse it from an empty environment, except: the database is this
 * file's test database (create it first with `createTestDatabase()`, e.g. in `beforeAll`), the
 * data directory is a fresh temporary one, HTTP picks a free port and logging is silent. Pass
 * `{ databaseUrl: undefined }` to get the embedded-server mode.
 */
export function testConfig(overrides: Partial<Config> = {}): Config {
  const dataDir = overrides.dataDir ?? mkdtempSync(join(inject('oplTestRoot'), 'data-'));
  const hasDatabaseOverride = Object.hasOwn(overrides, 'databaseUrl');
  if (!hasDatabaseOverride && !fileDatabase) {
    throw new Error('testConfig(): call createTestDatabase() first (e.g. in beforeAll), or pass databaseUrl');
  }
  const base = loadConfig({ OPL_DATA_DIR: dataDir, OPL_LOG_LEVEL: 'silent', OPL_PORT: '0' });
  return { ...base, databaseUrl: fileDatabase?.url, ...overrides };
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
