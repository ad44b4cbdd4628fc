/** Statements for managing whole databases on a server (run on the `postgres` maintenance database). */

export interface SqlQuery {
  text: string;
  values: unknown[];
}

/** Quotes an identifier the way PostgreSQL's `quote_ident` does for any input. */
export function quoteIdentifier(name: string): string {
  if (name.length === 0 || name.includes('\0')) throw new Error('Invalid SQL identifier');
  return `"${name.replaceAll('"', '""')}"`;
}

export function databaseExists(name: string): SqlQuery {
  return { text: 'SELECT 1 FROM pg_database WHERE datname = $1', values: [name] };
}

// CREATE/DROP DATABASE take no bind parameters: the name is quoted instead.
export function createDatabase(name: string): SqlQuery {
  return { text: `CREATE DATABASE ${quoteIdentifier(name)}`, values: [] };
}

export function dropDatabase(name: string): SqlQuery {
  return { text: `DROP DATABASE IF EXISTS ${quoteIdentifier(name)} WITH (FORCE)`, values: [] };
}

/** SQLSTATE of `CREATE DATABASE` racing another session creating the same name. */
export function isDuplicateDatabaseError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '42P04' || code === '23505';
}
