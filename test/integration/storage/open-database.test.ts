import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../core/logging/logger.ts';
import { LinearQuotingPostgreSqlPlatform } from '../../../core/storage/postgres-driver.ts';
import { DatabaseError, MIGRATIONS_DIR, openDatabase, ProviderAccount, ProviderCredential } from '../../../core/storage/index.ts';
import { createTestDatabase, testConfig, type TestDatabase } from '../support/test-database.ts';
import { capturingLogger } from './helpers.ts';

const silent = createLogger({ level: 'silent' });
const migrationCount = readdirSync(MIGRATIONS_DIR).filter((name) => name.endsWith('.migration.ts')).length;

async function tables(url: string): Promise<string[]> {
  const database = await openDatabase(testConfig({ databaseUrl: url }), silent, { migrate: false });
  try {
    const rows = await database.orm.em
      .getConnection()
      .execute<Array<{ table_name: string }>>(`select table_name from information_schema.tables where table_schema = 'public' order by 1`);
    return rows.map((row) => row.table_name);
  } finally {
    await database.close();
  }
}

describe('openDatabase with OPL_DATABASE_URL', () => {
  let fileDatabase: TestDatabase;
  beforeAll(async () => {
    fileDatabase = await createTestDatabase();
  });
  afterAll(() => fileDatabase?.drop());

  it('migrates a fresh database, starts no server and closes cleanly', async () => {
    const config = testConfig();
    const database = await openDatabase(config, silent);
    try {
      expect(database.embedded).toBe(false);
      expect(database.connectionString).toBe(fileDatabase.url);
      await database.ping();
      const applied = await database.orm.em.getConnection().execute<Array<{ name: string }>>('select name from mikro_orm_migrations');
      expect(applied).toHaveLength(migrationCount);
    } finally {
      await database.close();
      await database.close(); // idempotent
    }
    await expect(database.ping()).rejects.toThrow(/closed/);
    expect(existsSync(join(config.dataDir, 'postgres'))).toBe(false);
    expect(await tables(fileDatabase.url)).toEqual(
      expect.arrayContaining(['provider_account', 'provider_credential', 'migration_job', 'job_item', 'operation_ledger', 'track_identity', 'track_edge', 'owner_session']),
    );
  });

  it('leaves the schema alone with migrate: false', async () => {
    const empty = await createTestDatabase();
    try {
      const database = await openDatabase(testConfig({ databaseUrl: empty.url }), silent, { migrate: false });
      await database.close();
      expect(await tables(empty.url)).toEqual([]);
    } finally {
      await empty.drop();
    }
  });

  it('lets processes that start together take turns migrating (advisory lock)', async () => {
    const fresh = await createTestDatabase();
    try {
      const config = testConfig({ databaseUrl: fresh.url });
      const opened = await Promise.all([openDatabase(config, silent), openDatabase(config, silent), openDatabase(config, silent)]);
      try {
        const applied = await opened[0].orm.em.getConnection().execute<Array<{ name: string }>>('select name from mikro_orm_migrations');
        expect(applied).toHaveLength(migrationCount);
      } finally {
        await Promise.all(opened.map((database) => database.close()));
      }
    } finally {
      await fresh.drop();
    }
  });

  it('stores and reads entities, enforcing the schema constraints', async () => {
    const database = await openDatabase(testConfig(), silent);
    try {
      const em = database.orm.em.fork();
      const account = em.create(ProviderAccount, { ownerId: 'local', provider: 'spotify', providerUserId: 'user-1' });
      em.create(ProviderCredential, {
        ownerId: 'local',
        providerAccount: account,
        version: 1,
        authKind: 'OAUTH_PKCE',
        scopes: ['playlist-read-private', 'playlist-modify-private'],
        encryptedBlob: new Uint8Array([1, 2, 3]),
        keyId: 'key-1',
      });
      await em.flush();

      const found = await database.orm.em.fork().findOneOrFail(ProviderCredential, { providerAccount: account.id });
      expect(found.scopes).toEqual(['playlist-read-private', 'playlist-modify-private']);
      expect([...found.encryptedBlob]).toEqual([1, 2, 3]);
      expect(found.createdAt).toBeInstanceOf(Date);
      expect(found.id).toMatch(/^[0-9a-f-]{36}$/);

      const connection = database.orm.em.getConnection();
      const identity = await connection.execute<Array<{ id: string }>>(`insert into track_identity (title, artist) values ('t', 'a') returning id`);
      const edge = (confidence: number, scope: string) =>
        connection.execute(`insert into track_edge (identity_id, provider, provider_track_id, confidence, source, scope) values (?, 'spotify', ?, ?, 'fuzzy', ?)`, [
          identity[0]!.id,
          `track-${confidence}-${scope}`,
          confidence,
          scope,
        ]);
      await edge(0.9, 'global');
      await edge(1, 'account:abc');
      await expect(edge(1.5, 'global')).rejects.toThrow(/track_edge_confidence_range/);
      await expect(edge(0.5, 'account:')).rejects.toThrow(/track_edge_scope_check/);
      await expect(
        connection.execute(`insert into provider_account (owner_id, provider, status) values ('local', 'tidal', 'bogus')`),
      ).rejects.toThrow(/provider_account_status_check/);
    } finally {
      await database.close();
    }
  });

  it('quotes parameters with the linear-time platform, and they reach the database intact', async () => {
    const database = await openDatabase(testConfig(), silent);
    try {
      expect(database.orm.config.getPlatform()).toBeInstanceOf(LinearQuotingPostgreSqlPlatform);
      // Quotes, backslashes, question marks and non-Latin text, inline and inside JSON.
      const text = `it's C:\\Music\\?\\ "quoted" — 東京の夜 ${'x'.repeat(100_000)}`;
      const [row] = await database.orm.em.getConnection().execute<Array<{ text: string; json: { text: string } }>>('select ?::text as text, ?::jsonb as json', [text, JSON.stringify({ text })]);
      expect(row!.text).toBe(text);
      expect(row!.json).toEqual({ text });
    } finally {
      await database.close();
    }
  });

  it('never puts the password in errors or logs', async () => {
    const password = 'Sup3r-Secret-Passw0rd';
    const { logger, text } = capturingLogger('trace');
    // Right server, wrong password: the server rejects the login.
    const wrong = new URL(fileDatabase.url);
    wrong.password = password;
    const error = await openDatabase(testConfig({ databaseUrl: wrong.toString() }), logger).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DatabaseError);
    const rendered = `${(error as Error).message}\n${(error as Error).stack}\n${JSON.stringify(error)}`;
    expect(rendered).toMatch(/password authentication failed/);
    expect(rendered).not.toContain(password);
    expect((error as Error).cause).toBeUndefined();
    expect(text()).not.toContain(password);
  });
});
