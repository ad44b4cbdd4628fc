import { describe, expect, it } from 'vitest';
import { acquireAdvisoryLock, ADVISORY_LOCK_CLASS, AdvisoryLockKeys, releaseAdvisoryLock } from './advisory-lock.sql.ts';
import { createDatabase, databaseExists, dropDatabase, isDuplicateDatabaseError, quoteIdentifier } from './database.sql.ts';

describe('database statements', () => {
  it('quotes identifiers, doubling embedded quotes', () => {
    expect(quoteIdentifier('opl')).toBe('"opl"');
    expect(quoteIdentifier('we"ird; drop database x')).toBe('"we""ird; drop database x"');
    expect(() => quoteIdentifier('')).toThrow();
    expect(() => quoteIdentifier('a\0b')).toThrow();
  });

  it('binds the name when looking a database up, and quotes it in DDL', () => {
    expect(databaseExists('opl')).toEqual({ text: 'SELECT 1 FROM pg_database WHERE datname = $1', values: ['opl'] });
    expect(createDatabase('opl')).toEqual({ text: 'CREATE DATABASE "opl"', values: [] });
    expect(dropDatabase('opl').text).toBe('DROP DATABASE IF EXISTS "opl" WITH (FORCE)');
  });

  it('recognises a lost CREATE DATABASE race', () => {
    expect(isDuplicateDatabaseError({ code: '42P04' })).toBe(true);
    expect(isDuplicateDatabaseError({ code: '23505' })).toBe(true);
    expect(isDuplicateDatabaseError({ code: '28P01' })).toBe(false);
    expect(isDuplicateDatabaseError(null)).toBe(false);
  });

  it('keeps advisory locks in the engine namespace', () => {
    expect(acquireAdvisoryLock(AdvisoryLockKeys.migrations)).toEqual({
      text: 'SELECT pg_advisory_lock($1::int, $2::int)',
      values: [ADVISORY_LOCK_CLASS, AdvisoryLockKeys.migrations],
    });
    expect(releaseAdvisoryLock(AdvisoryLockKeys.migrations).text).toBe('SELECT pg_advisory_unlock($1::int, $2::int)');
  });
});
