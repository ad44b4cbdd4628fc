import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOpl } from '../support/engine-process.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { createPublisher, createTestRegistry, providerCode, providerManifestSource, publishTestPlugin, TEST_CONNECTION_OP, type TestRegistry } from '../support/plugin-registry.ts';

async function opl(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const run = runOpl(args, env);
  const { code } = await run.exited;
  return { code, output: run.output() };
}

describe('opl plugin: admin commands on the server', () => {
  let database: TestDatabase;
  let registry: TestRegistry;
  let dataDir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase();
    const publisher = createPublisher('cli-publisher');
    registry = await createTestRegistry([publisher]);
    await publishTestPlugin(registry, { manifestSource: providerManifestSource('com.example.cli', '1.3.0', publisher.keyId), code: providerCode(TEST_CONNECTION_OP), publisher });
    dataDir = await mkdtemp(join(tmpdir(), 'opl-cli-data-'));
    env = { ...registry.env, OPL_DATABASE_URL: database.url, OPL_DATA_DIR: dataDir, OPL_DEPLOYMENT_MODE: 'hosted', OPL_LOG_LEVEL: 'silent' };
  });

  afterAll(async () => {
    await database?.drop();
    await registry?.cleanup();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('lists refused plugins with reasons, allow-lists one, and lists it as loaded', { timeout: 120_000 }, async () => {
    const before = await opl(['plugin', 'list'], env);
    expect(before.code, before.output).toBe(0);
    expect(before.output).toMatch(/com\.example\.cli@1\.3\.0\s+not_allow_listed/);

    const bad = await opl(['plugin', 'allow', 'add', 'com.example.cli', 'cli-publisher', 'latest'], env);
    expect(bad.code).toBe(64);
    expect(bad.output).toMatch(/not a semver range/);

    const added = await opl(['plugin', 'allow', 'add', 'com.example.cli', 'cli-publisher', '^1.0.0'], env);
    expect(added.code, added.output).toBe(0);
    const entryId = /Added ([0-9a-f-]{36})/.exec(added.output)?.[1];
    expect(entryId).toBeDefined();

    const listed = await opl(['plugin', 'allow', 'list'], env);
    expect(listed.output).toContain(`${entryId!}  com.example.cli  key cli-publisher  ^1.0.0  added by cli`);

    const after = await opl(['plugin', 'list'], env);
    expect(after.output).toMatch(/Loaded \(1\):\n\s+com\.example\.cli@1\.3\.0\s+provider\s+key cli-publisher/);

    const removed = await opl(['plugin', 'allow', 'remove', entryId!], env);
    expect(removed.code).toBe(0);
    const missing = await opl(['plugin', 'release', 'com.example.cli'], env);
    expect(missing.code).toBe(1);
    expect(missing.output).toMatch(/not quarantined/);
  });

  it('passes authoring commands to opl-plugin', async () => {
    const help = await opl(['plugin', 'verify'], env);
    expect(help.code).toBe(64);
    expect(help.output).toMatch(/opl-plugin verify/);
  });
});
