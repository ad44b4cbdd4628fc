import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { loadConfig, type Config } from '../../../core/config/index.ts';
import { createSharedDatabase, type SharedDatabase } from '../../support/shared-postgres.ts';
import './provided-context.ts';

export type TestDatabase = SharedDatabase;

let fileDatabase: TestDatabase | undefined;

/**
 * Creates a new empty database with a unique name on the run's shared server. The first one a
 * test file creates becomes that file's database for `testConfig()`.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const created = await createSharedDatabase(inject('oplTestAdminUrl'), 'opl_test');
  const database: TestDatabase = {
    ...created,
    async drop() {
      if (fileDatabase === database) fileDatabase = undefined;
      await created.drop();
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
