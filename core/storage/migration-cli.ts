/**
 * Maintainer tool for the checked-in migrations (not part of the `opl` CLI):
 *
 *   node core/storage/migration-cli.ts create [--name <name>] [--blank] [--database-url <url>]
 *   node core/storage/migration-cli.ts check [--database-url <url>]
 *
 * Both apply the existing migrations to a scratch database — a temporary embedded server, or the
 * server at --database-url, which must be a throwaway database — and compare the result with the
 * entities. `create` writes the difference as a new migration; `check` exits 1 when there is one.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { MikroORM } from '@mikro-orm/postgresql';
import { createLogger, type Logger } from '../logging/logger.ts';
import { findFreePort } from './embedded/free-port.ts';
import { startEmbeddedPostgres, THROWAWAY_SERVER_SETTINGS } from './embedded-postgres.service.ts';
import { createOrmConfig, MIGRATIONS_DIR } from './mikro-orm.config.ts';
import { applyMigrations, pendingSchemaDiff } from './migrator.ts';

const USAGE = `usage: node core/storage/migration-cli.ts <create|check> [--name <name>] [--blank] [--database-url <url>]`;

export async function runMigrationCli(argv: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      blank: { type: 'boolean', default: false },
      'database-url': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const command = positionals[0];
  if (values.help || (command !== 'create' && command !== 'check')) {
    process.stderr.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  // Logs go to stderr so that stdout carries only the result.
  const logger = createLogger({ level: 'warn', name: 'opl-migrations', destination: process.stderr });
  return withScratchDatabase(values['database-url'], logger, async (connectionString) => {
    const orm = await MikroORM.init(createOrmConfig({ connectionString, logger }));
    try {
      await applyMigrations(orm, connectionString, logger);
      if (command === 'check') {
        const diff = await pendingSchemaDiff(orm);
        if (!diff) {
          process.stdout.write('Migrations and entities agree.\n');
          return 0;
        }
        process.stdout.write(`The entities differ from the schema the migrations build. Run "create" to add a migration for:\n${diff}\n`);
        return 1;
      }
      const result = await orm.migrator.create(MIGRATIONS_DIR, values.blank, false, values.name);
      if (!result.fileName) {
        process.stdout.write('No schema changes: entities and migrations agree; nothing created.\n');
        return 0;
      }
      process.stdout.write(`Created ${relative(process.cwd(), join(MIGRATIONS_DIR, result.fileName))}\n${result.diff.up.join('\n')}\n`);
      return 0;
    } finally {
      await orm.close(true);
    }
  });
}

async function withScratchDatabase<T>(url: string | undefined, logger: Logger, action: (connectionString: string) => Promise<T>): Promise<T> {
  if (url) return action(url);
  const dir = await mkdtemp(join(tmpdir(), 'opl-migrations-'));
  try {
    const server = await startEmbeddedPostgres({
      rootDir: join(dir, 'postgres'),
      ownedRoot: dir,
      port: await findFreePort(),
      database: 'opl_migrations',
      logger,
      settings: { ...THROWAWAY_SERVER_SETTINGS },
    });
    try {
      return await action(server.connectionString());
    } finally {
      await server.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  runMigrationCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
