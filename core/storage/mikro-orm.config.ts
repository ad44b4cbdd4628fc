import { fileURLToPath } from 'node:url';
import { defineConfig, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import type { Logger } from '../logging/logger.ts';
import { ENTITIES } from './entities/index.ts';
import { createOrmLoggerFactory } from './orm-logger.ts';
import { OplPostgreSqlDriver } from './postgres-driver.ts';

/** Checked-in migrations: `<timestamp>-<name>.migration.ts`, loaded by Node's type stripping. */
export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
export const MIGRATIONS_TABLE = 'mikro_orm_migrations';

export interface OrmConfigOptions {
  connectionString: string;
  logger: Logger;
  /** Connection pool size of this process. */
  poolMax?: number;
}

export function createOrmConfig(options: OrmConfigOptions): Options {
  return defineConfig({
    // Quotes large parameters in linear time (see postgres-driver.ts).
    driver: OplPostgreSqlDriver,
    clientUrl: options.connectionString,
    entities: [...ENTITIES],
    extensions: [Migrator],
    // The database is created by the embedded server manager, or already exists on an external
    // server (where the engine's role may lack CREATEDB).
    ensureDatabase: false,
    // Entities are given as objects: no folder discovery, so no TypeScript-vs-JavaScript guess.
    preferTs: false,
    pool: { min: 0, max: options.poolMax ?? 10 },
    loggerFactory: createOrmLoggerFactory(options.logger),
    colors: false,
    migrations: {
      tableName: MIGRATIONS_TABLE,
      // Same folder for both modes: the engine runs its .ts sources directly on Node 24.
      path: MIGRATIONS_DIR,
      pathTs: MIGRATIONS_DIR,
      glob: '*.migration.ts',
      emit: 'ts',
      fileName: (timestamp: string, name?: string) => `${timestamp}-${slug(name ?? 'schema')}.migration`,
      // New migrations are diffed against a real database migrated to the latest state, never
      // against a snapshot file (which migrating would rewrite inside the source tree).
      snapshot: false,
      transactional: true,
      allOrNothing: true,
      silent: false,
    },
  });
}

function slug(name: string): string {
  return (
    name
      .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'schema'
  );
}
