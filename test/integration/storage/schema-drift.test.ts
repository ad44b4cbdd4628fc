import { readdirSync } from 'node:fs';
import { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../core/logging/logger.ts';
import { applyMigrations, createOrmConfig, MIGRATIONS_DIR, pendingSchemaDiff } from '../../../core/storage/index.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

describe('checked-in migrations', () => {
  let database: TestDatabase;
  let orm: MikroORM;
  const logger = createLogger({ level: 'silent' });

  beforeAll(async () => {
    database = await createTestDatabase();
    orm = await MikroORM.init(createOrmConfig({ connectionString: database.url, logger }));
  });
  afterAll(async () => {
    await orm?.close(true);
    await database?.drop();
  });

  it('build exactly the schema the entities describe', async () => {
    const applied = await applyMigrations(orm, database.url, logger);
    const files = readdirSync(MIGRATIONS_DIR).filter((name) => name.endsWith('.migration.ts'));
    expect(applied).toEqual(files.sort().map((name) => name.replace(/\.ts$/, '')));

    const diff = await pendingSchemaDiff(orm);
    expect(
      diff,
      `The entities and the migrations disagree. Create a migration with\n` +
        `  node core/storage/migration-cli.ts create --name <what-changed>\n` +
        `The schema generator wants to run:\n${diff}`,
    ).toBe('');
  });
});

describe('schema comparison', () => {
  it("leaves pg-boss's schema in the same database alone", async () => {
    const logger = createLogger({ level: 'silent' });
    const database = await createTestDatabase();
    const orm = await MikroORM.init(createOrmConfig({ connectionString: database.url, logger }));
    try {
      await applyMigrations(orm, database.url, logger);
      await orm.em.getConnection().execute('create schema pgboss; create table pgboss.job (id uuid primary key, name text not null)');
      expect(await pendingSchemaDiff(orm)).toBe('');
    } finally {
      await orm.close(true);
      await database.drop();
    }
  });
});
