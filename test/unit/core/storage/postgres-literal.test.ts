import fc from 'fast-check';
import { PostgreSqlPlatform } from '@mikro-orm/postgresql';
import { describe, expect, it } from 'vitest';
import { LinearQuotingPostgreSqlPlatform, quoteLiteral } from '../../../../core/storage/postgres-driver.ts';

// The engine's platform must write exactly the SQL MikroORM's own PostgreSQL platform writes, only
// faster: any difference would be a change of what reaches the database.

const mikro = new PostgreSqlPlatform();
const ours = new LinearQuotingPostgreSqlPlatform();
/** Strings rich in what quoting treats specially. */
const tricky = fc.string({ unit: fc.oneof(fc.constantFrom("'", '\\', '"', '?', 'E', ' ', '\n'), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 })), maxLength: 40 });

describe('quoteLiteral', () => {
  it('quotes as MikroORM does', () => {
    expect(quoteLiteral("it's")).toBe("'it''s'");
    expect(quoteLiteral('C:\\Music\\a.mp3')).toBe(" E'C:\\\\Music\\\\a.mp3'");
    expect(quoteLiteral('')).toBe("''");
    fc.assert(
      fc.property(tricky, (text) => {
        expect(quoteLiteral(text)).toBe(mikro.escape(text));
      }),
      { numRuns: 5_000 },
    );
  });

  it('leaves the queries the platform formats unchanged, whatever the parameters', () => {
    const parameter = fc.oneof(tricky, fc.integer(), fc.boolean(), fc.constant(null), fc.array(tricky, { maxLength: 3 }), fc.date({ noInvalidDate: true }), fc.dictionary(tricky, tricky, { maxKeys: 3 }));
    fc.assert(
      fc.property(fc.array(parameter, { minLength: 1, maxLength: 4 }), (values) => {
        const sql = `select ${values.map(() => '?').join(', ')}`;
        expect(ours.formatQuery(sql, values)).toBe(mikro.formatQuery(sql, values));
      }),
      { numRuns: 2_000 },
    );
  });
});
