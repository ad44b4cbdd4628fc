import type { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import type { Logger } from '../logging/logger.ts';
import { acquireAdvisoryLock, AdvisoryLockKeys, releaseAdvisoryLock } from './sql/advisory-lock.sql.ts';

/**
 * Applies pending checked-in migrations. A session-level advisory lock, held on a connection of
 * its own for the whole run, makes engine processes that start together take turns: the second
 * finds nothing pending. Should this process die, PostgreSQL releases the lock with the session.
 */
export async function applyMigrations(orm: MikroORM, connectionString: string, logger: Logger): Promise<string[]> {
  const lock = new pg.Client({ connectionString, application_name: 'opl-migrations' });
  lock.on('error', () => undefined);
  await lock.connect();
  try {
    await lock.query(acquireAdvisoryLock(AdvisoryLockKeys.migrations));
    const applied = await orm.migrator.up();
    const names = applied.map((migration) => migration.name);
    if (names.length > 0) logger.info({ migrations: names }, 'applied database migrations');
    else logger.debug('database schema is up to date');
    return names;
  } finally {
    await lock.query(releaseAdvisoryLock(AdvisoryLockKeys.migrations)).catch(() => undefined);
    await lock.end().catch(() => undefined);
  }
}

/**
 * SQL that would bring the connected database to the schema the entities describe; empty when
 * the applied migrations and the entities agree.
 */
export async function pendingSchemaDiff(orm: MikroORM): Promise<string> {
  const sql = await orm.schema.getUpdateSchemaSQL({ wrap: false });
  return sql
    .split('\n')
    .filter((line) => line.trim() !== '' && !/^set names /i.test(line.trim()))
    .join('\n');
}
