import { describe, expect, it } from 'vitest';
import { ConfigError, configEnvSchema, loadConfig } from '../../../core/config/index.ts';

function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    loadConfig(env, '/srv/opl');
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('loadConfig', () => {
  it('applies the defaults of the specification', () => {
    const config = loadConfig({}, '/srv/opl');
    expect(config).toMatchObject({
      deploymentMode: 'self_host',
      databaseUrl: undefined,
      dataDir: '/srv/opl/data',
      snapshotDir: '/srv/opl/data/snapshots',
      exportMaxPlaylists: 100,
      migrationHistoryRetentionDays: 90,
      host: '127.0.0.1',
    });
  });

  it('names a schema base others can reach: the configured one, else the canonical one, never the listening address', () => {
    for (const env of [{}, { OPL_HOST: '0.0.0.0', OPL_PORT: '0' }, { OPL_HOST: '::' }]) {
      expect(loadConfig(env, '/srv/opl')).toMatchObject({ schemaBaseUrl: 'https://open-playlist.org/schemas', publishedSchemaBaseUrl: null });
    }
    expect(loadConfig({ OPL_PUBLIC_BASE_URL: 'https://music.example.org', OPL_OWNER_SECRET: 'a-long-enough-owner-secret-for-tests' }, '/srv/opl')).toMatchObject({ schemaBaseUrl: 'https://music.example.org/schemas' });
    expect(loadConfig({ OPL_PUBLIC_BASE_URL: 'https://music.example.org', OPL_OWNER_SECRET: 'a-long-enough-owner-secret-for-tests', OPL_SCHEMA_BASE_URL: 'https://schemas.example.org/v' }, '/srv/opl')).toMatchObject({ schemaBaseUrl: 'https://schemas.example.org/v' });
  });

  it('lists every bad value at once, naming each variable', () => {
    const problems = problemsOf({ OPL_PORT: 'abc', OPL_DEPLOYMENT_MODE: 'cloud', OPL_EXPORT_MAX_PLAYLISTS: '0' });
    expect(problems).toHaveLength(3);
    expect(problems.join('\n')).toMatch(/OPL_PORT: must be a whole number \(got "abc"\)/);
    expect(problems.join('\n')).toMatch(/OPL_DEPLOYMENT_MODE: must be self_host or hosted \(got "cloud"\)/);
    expect(problems.join('\n')).toMatch(/OPL_EXPORT_MAX_PLAYLISTS: must be at least 1/);
  });

  it('rejects ports out of range and non-integers', () => {
    expect(problemsOf({ OPL_PORT: '70000' })[0]).toMatch(/OPL_PORT: must be at most 65535/);
    expect(problemsOf({ OPL_PORT: '80.5' })[0]).toMatch(/OPL_PORT/);
  });

  it('reports unknown OPL_ variables so typos do not fall back to defaults silently', () => {
    expect(problemsOf({ OPL_PROT: '9000' })[0]).toMatch(/OPL_PROT: unknown variable/);
  });

  it('sets the snapshot verification caps, with defaults real libraries fit', () => {
    expect(loadConfig({}, '/x').snapshotLimits).toEqual({ archiveBytes: 1024 ** 3, uncompressedBytes: 4 * 1024 ** 3, manifestBytes: 64 * 1024 ** 2, recordBytes: 2 * 1024 ** 2, compressionRatio: 200 });
    expect(loadConfig({ OPL_SNAPSHOT_MAX_COMPRESSION_RATIO: '50', OPL_SNAPSHOT_MAX_ARCHIVE_BYTES: '2048' }, '/x').snapshotLimits).toMatchObject({ compressionRatio: 50, archiveBytes: 2048 });
    expect(problemsOf({ OPL_SNAPSHOT_MAX_COMPRESSION_RATIO: '1' })[0]).toMatch(/OPL_SNAPSHOT_MAX_COMPRESSION_RATIO: must be at least 2/);
    expect(loadConfig({}, '/x').snapshotSigningKeyFile).toBe('/x/data/snapshot-signing.key');
    expect(loadConfig({ OPL_SNAPSHOT_SIGNING: 'false' }, '/x').snapshotSigningKeyFile).toBeNull();
  });

  it('bounds how long an organizer preflight may start its job', () => {
    expect(loadConfig({}, '/x').organizerPreflightTtlSeconds).toBe(600);
    expect(loadConfig({ OPL_ORGANIZER_PREFLIGHT_TTL_SECONDS: '45' }, '/x').organizerPreflightTtlSeconds).toBe(45);
    expect(problemsOf({ OPL_ORGANIZER_PREFLIGHT_TTL_SECONDS: '10' })[0]).toMatch(/OPL_ORGANIZER_PREFLIGHT_TTL_SECONDS: must be at least 30/);
    expect(problemsOf({ OPL_ORGANIZER_PREFLIGHT_TTL_SECONDS: '7200' })[0]).toMatch(/OPL_ORGANIZER_PREFLIGHT_TTL_SECONDS: must be at most 3600/);
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ OPL_PORT: '', OPL_DATABASE_URL: ' ' }, '/x').port).toBe(8765);
  });

  it('accepts 0 retention days as "keep forever"', () => {
    expect(loadConfig({ OPL_MIGRATION_HISTORY_RETENTION_DAYS: '0' }, '/x').migrationHistoryRetentionDays).toBe(0);
  });

  it('validates the database URL without echoing it (it may hold a password)', () => {
    const problems = problemsOf({ OPL_DATABASE_URL: 'mysql://user:hunter2@db/opl' });
    expect(problems[0]).toMatch(/OPL_DATABASE_URL: must be a postgres/);
    expect(problems.join()).not.toContain('hunter2');
    expect(loadConfig({ OPL_DATABASE_URL: 'postgres://u:p@db:5432/opl' }, '/x').databaseUrl).toBe('postgres://u:p@db:5432/opl');
  });

  it('requires an owner secret when the public base URL turns the session gate on, and never echoes it', () => {
    expect(problemsOf({ OPL_PUBLIC_BASE_URL: 'https://music.example.org' })[0]).toMatch(/OPL_OWNER_SECRET: is required/);
    const short = problemsOf({ OPL_PUBLIC_BASE_URL: 'https://music.example.org', OPL_OWNER_SECRET: 'short' });
    expect(short[0]).toMatch(/OPL_OWNER_SECRET: must be at least 12 characters/);
    expect(short.join()).not.toContain('"short"');
    const config = loadConfig({ OPL_PUBLIC_BASE_URL: 'https://music.example.org/', OPL_OWNER_SECRET: 'correct horse battery' }, '/x');
    expect(config.publicBaseUrl).toBe('https://music.example.org');
  });

  it('refuses a public base URL with credentials or a query', () => {
    expect(problemsOf({ OPL_PUBLIC_BASE_URL: 'https://a:b@x.test', OPL_OWNER_SECRET: 'x'.repeat(12) })[0]).toMatch(/OPL_PUBLIC_BASE_URL/);
    expect(problemsOf({ OPL_PUBLIC_BASE_URL: 'ftp://x.test', OPL_OWNER_SECRET: 'x'.repeat(12) })[0]).toMatch(/OPL_PUBLIC_BASE_URL/);
  });

  it('documents every variable', () => {
    for (const [name, schema] of Object.entries(configEnvSchema.shape)) {
      expect(schema.description, `${name} needs a description`).toBeTruthy();
    }
  });
});
