import { describe, expect, it } from 'vitest';
import { createLogger } from '../logging/logger.ts';
import { ENTITIES } from './entities/index.ts';
import { createOrmConfig, MIGRATIONS_DIR } from './mikro-orm.config.ts';

describe('createOrmConfig', () => {
  const config = createOrmConfig({ connectionString: 'postgresql://user:pw@127.0.0.1:5432/opl', logger: createLogger({ level: 'silent' }) });

  it('names migration files <timestamp>-<kebab-name>.migration and finds only those', () => {
    const fileName = config.migrations?.fileName;
    expect(fileName?.('20260101000000', 'addSyncRuleIndex')).toBe('20260101000000-add-sync-rule-index.migration');
    expect(fileName?.('20260101000000', '  weird name!! ')).toBe('20260101000000-weird-name.migration');
    expect(fileName?.('20260101000000')).toBe('20260101000000-schema.migration');
    expect(config.migrations?.glob).toBe('*.migration.ts');
    expect(config.migrations?.path).toBe(MIGRATIONS_DIR);
    expect(config.migrations?.pathTs).toBe(MIGRATIONS_DIR);
  });

  it('never writes a schema snapshot into the source tree and never creates databases itself', () => {
    expect(config.migrations?.snapshot).toBe(false);
    expect(config.ensureDatabase).toBe(false);
  });

  it('registers every entity once, each with its own snake_case table', () => {
    const tables = ENTITIES.map((entity) => entity.meta.tableName);
    expect(new Set(tables).size).toBe(ENTITIES.length);
    for (const table of tables) expect(table).toMatch(/^[a-z]+(_[a-z]+)*$/);
    expect(config.entities).toHaveLength(ENTITIES.length);
  });
});
