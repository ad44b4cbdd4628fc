import { join } from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../config/index.ts';
import { redactText, type Logger } from '../logging/logger.ts';
import { startEmbeddedPostgres, type EmbeddedPostgresServer } from './embedded-postgres.service.ts';
import { createOrmConfig } from './mikro-orm.config.ts';
import { applyMigrations } from './migrator.ts';

export interface Database {
  orm: MikroORM;
  /** URL of the same database for other clients (pg-boss). Contains the password: never log it. */
  connectionString: string;
  /** True when the database lives in the engine's embedded PostgreSQL server. */
  embedded: boolean;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  /** Closes the ORM's connections, then stops the embedded server if this process owns it. */
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** Apply pending migrations before returning (default true). */
  migrate?: boolean;
}

/** Name of the application database inside the embedded server. */
export const EMBEDDED_DATABASE_NAME = 'opl';

/** Raised when the database cannot be opened; its message and stack never contain the password. */
export class DatabaseError extends Error {
  readonly code: string | undefined;

  constructor(message: string, code: string | undefined) {
    super(message);
    this.name = 'DatabaseError';
    this.code = code;
  }
}

/**
 * Opens the engine's database: the server at `config.databaseUrl`, or else the embedded server
 * under `<dataDir>/postgres` (started, adopted or shared as needed).
 */
export async function openDatabase(config: Config, logger: Logger, options: OpenDatabaseOptions = {}): Promise<Database> {
  const secrets = config.databaseUrl ? [passwordOf(config.databaseUrl)] : [];
  let server: EmbeddedPostgresServer | undefined;
  let orm: MikroORM | undefined;
  try {
    if (!config.databaseUrl) {
      server = await startEmbeddedPostgres({
        rootDir: join(config.dataDir, 'postgres'),
        ownedRoot: config.dataDir,
        port: config.embeddedDbPort,
        database: EMBEDDED_DATABASE_NAME,
        logger,
      });
      secrets.push(server.password);
    }
    const connectionString = config.databaseUrl ?? server!.connectionString();
    orm = await MikroORM.init(createOrmConfig({ connectionString, logger }));
    const ormRef = orm;
    const ping = async () => {
      await ormRef.em.getConnection().execute('select 1');
    };
    await ping();
    if (options.migrate ?? true) await applyMigrations(orm, connectionString, logger);

    const ownedServer = server;
    let closing: Promise<void> | undefined;
    return {
      orm,
      connectionString,
      embedded: ownedServer !== undefined,
      async ping() {
        // MikroORM reconnects lazily after close(); a closed Database must stay closed.
        if (closing) throw new DatabaseError('The database is closed', undefined);
        await ping().catch((error: unknown) => Promise.reject(sanitize(error, secrets)));
      },
      close() {
        closing ??= (async () => {
          try {
            await ormRef.close(true);
          } finally {
            await ownedServer?.stop();
          }
        })();
        return closing;
      },
    };
  } catch (error) {
    await orm?.close(true).catch(() => undefined);
    await server?.stop().catch(() => undefined);
    throw sanitize(error, secrets);
  }
}

function passwordOf(url: string): string {
  try {
    return decodeURIComponent(new URL(url).password);
  } catch {
    return '';
  }
}

/** Rebuilds an error without anything that could carry the password (message, stack, cause). */
function sanitize(error: unknown, secrets: readonly string[]): DatabaseError {
  const scrub = (text: string) => {
    let result = redactText(text);
    for (const secret of secrets) {
      if (!secret) continue;
      result = result.replaceAll(secret, '[REDACTED]').replaceAll(encodeURIComponent(secret), '[REDACTED]');
    }
    return result;
  };
  const source = error instanceof Error ? error : new Error(String(error));
  const code = (source as { code?: unknown }).code;
  const sanitized = new DatabaseError(scrub(source.message || String(error)), typeof code === 'string' ? code : undefined);
  const frames = (source.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  sanitized.stack = scrub([`DatabaseError: ${sanitized.message}`, ...frames].join('\n'));
  return sanitized;
}
