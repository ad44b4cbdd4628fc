import type { MikroORM } from '@mikro-orm/postgresql';

export interface SqlStatement {
  text: string;
  values: unknown[];
}

export type SqlExecute = (statement: SqlStatement) => Promise<Record<string, unknown>[]>;
export type SqlTransaction = <T>(work: (execute: SqlExecute) => Promise<T>) => Promise<T>;

/**
 * The two ways the services reach PostgreSQL: `execute`, one statement on a pooled connection
 * (its own transaction), and `transaction`, several statements on one connection, committed
 * together when `work` resolves and rolled back when it throws.
 */
export function sqlExecutors(orm: MikroORM): { execute: SqlExecute; transaction: SqlTransaction } {
  return {
    execute: (statement) => orm.em.getConnection().execute<Record<string, unknown>[]>(statement.text, statement.values, 'all'),
    transaction: (work) => orm.em.fork().transactional((em) => work((statement) => em.execute(statement.text, statement.values))),
  };
}
