import type { Configuration } from '@mikro-orm/core';
import { PostgreSqlDriver, PostgreSqlPlatform } from '@mikro-orm/postgresql';

/**
 * MikroORM writes every query parameter into the SQL text as a quoted literal, and its quoting
 * (`escapeLiteral`, a port of libpq's) appends the string one character at a time. That is fine
 * for an id, but an import record's playlists are one JSON parameter: 100,000 tracks are ~50 MB of
 * text, and quoting them took 7 s, building the query 13 s more (measured: a 100,000-line TXT
 * import preview answered in 33 s, nearly all of it here). This platform quotes strings with two
 * native `replaceAll`s instead, producing exactly the same literal (a quote and a backslash are
 * doubled, and a string with a backslash becomes an `E'…'` literal with a leading space, as
 * there): test/unit/storage/postgres-literal.test.ts holds it to MikroORM's output.
 */

/** `text` as a PostgreSQL string literal, the way MikroORM's PostgreSQL platform writes it. */
export function quoteLiteral(text: string): string {
  const quoted = `'${text.replaceAll("'", "''")}'`;
  return text.includes('\\') ? ` E${quoted.replaceAll('\\', '\\\\')}` : quoted;
}

export class LinearQuotingPostgreSqlPlatform extends PostgreSqlPlatform {
  override escape(value: unknown): string {
    return typeof value === 'string' ? quoteLiteral(value) : super.escape(value);
  }
}

/** MikroORM's PostgreSQL driver on `LinearQuotingPostgreSqlPlatform`. */
export class OplPostgreSqlDriver extends PostgreSqlDriver {
  constructor(config: Configuration) {
    super(config);
    // The parent constructor fixes its platform; the connections only receive it later (when the
    // metadata is set), so replacing it here reaches every query. `platform` is readonly to
    // subclasses in the typings only.
    (this as unknown as { platform: PostgreSqlPlatform }).platform = new LinearQuotingPostgreSqlPlatform();
  }
}
