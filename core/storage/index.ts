export { openDatabase, DatabaseError, EMBEDDED_DATABASE_NAME, type Database, type OpenDatabaseOptions } from './database.ts';
export { applyMigrations, pendingSchemaDiff } from './migrator.ts';
export { createOrmConfig, MIGRATIONS_DIR } from './mikro-orm.config.ts';
export { startEmbeddedPostgres, type EmbeddedPostgresServer, type EmbeddedPostgresOptions, type EmbeddedPostgresMode } from './embedded-postgres.service.ts';
export * from './entities/index.ts';
