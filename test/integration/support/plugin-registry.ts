import { chmod, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  bundleDirIn,
  emptyTrustStore,
  generateKeyPair,
  publishBundle,
  putRegistryKeyRecord,
  signBundle,
  trustKey,
  writeBundle,
  writeTrustStore,
  type KeyRecord,
  type SecretKeyFile,
} from '@opl/plugin-sdk/tools';

/**
 * Builds real registries for engine tests: generated test-only publisher keys, bundles written
 * and signed by the SDK tools, and — for refusal tests — bundles placed or altered by hand.
 */

export interface TestPublisher {
  keyId: string;
  secret: SecretKeyFile;
  record: KeyRecord;
}

export function createPublisher(keyId = 'test-publisher'): TestPublisher {
  const { secret, record } = generateKeyPair({ keyId, publisher: `Test publisher ${keyId}`, testOnly: true });
  return { keyId, secret, record };
}

export interface TestRegistry {
  dir: string;
  trustFile: string;
  /** OPL_* variables that point an engine at this registry and trust store. */
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

/** An empty registry directory and a trust store trusting `trusted`. */
export async function createTestRegistry(trusted: readonly TestPublisher[] = []): Promise<TestRegistry> {
  const root = await mkdtemp(join(tmpdir(), 'opl-test-registry-'));
  await chmod(root, 0o755);
  const dir = join(root, 'registry');
  await mkdir(dir);
  const trustFile = join(root, 'trusted-keys.json');
  let store = emptyTrustStore();
  for (const publisher of trusted) store = trustKey(store, publisher.record, { testOnly: true });
  await writeTrustStore(trustFile, store);
  return {
    dir,
    trustFile,
    env: { OPL_REGISTRY_DIR: dir, OPL_PLUGIN_TRUST_FILE: trustFile },
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

/** A provider plugin's code as Vite would emit it: one ES module, no imports. */
export function providerCode(operations: string): string {
  return `export default { mark: 'opl.plugin/v1', kind: 'provider', operations: { ${operations} } };\n`;
}

export const TEST_CONNECTION_OP = `async testConnection() { return { ok: true, account_id: 'acct-1', display_name: 'Test account' }; }`;

export function providerManifestSource(id: string, version: string, publisherKeyId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const name = id.split('.').pop()?.replace(/[^a-z0-9_]/g, '_') ?? 'demo';
  return {
    manifest_version: 1,
    id,
    name: `Test ${name}`,
    version,
    kind: 'provider',
    publisher: { name: 'Test publisher', key_id: publisherKeyId },
    engines: { opl: '>=0.1.0' },
    provider: {
      name: /^[a-z]/.test(name) ? name : `p_${name}`,
      display_name: `Test ${name}`,
      capabilities: ['READ_PLAYLISTS', 'READ_TRACKS'],
      attributes: { has_isrc: true, official: true },
      write_constraints: {},
      auth: [{ kind: 'LONG_LIVED_TOKEN' }],
    },
    network: [],
    ...overrides,
  };
}

export interface PublishTestPluginOptions {
  manifestSource: Record<string, unknown>;
  code: string;
  /** null: leave it unsigned (and place it by hand, since publish refuses unsigned bundles). */
  publisher: TestPublisher | null;
  extraFiles?: Record<string, string>;
}

/** Writes, signs and publishes a bundle with the SDK tools; returns its directory in the registry. */
export async function publishTestPlugin(registry: TestRegistry, options: PublishTestPluginOptions): Promise<string> {
  const work = await mkdtemp(join(tmpdir(), 'opl-test-bundle-'));
  try {
    const manifest = await writeBundle({ manifestSource: options.manifestSource, files: { 'plugin.js': options.code, ...options.extraFiles }, outDir: work });
    if (options.publisher) {
      await signBundle(work, options.publisher.secret);
      await publishBundle(work, registry.dir, { publicKey: options.publisher.record });
      return bundleDirIn(registry.dir, manifest.id, manifest.version);
    }
    return await placeBundle(registry, work, manifest.id, manifest.version);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Copies a bundle into the registry without any check and lists it in index.json. */
export async function placeBundle(registry: TestRegistry, bundleDir: string, id: string, version: string): Promise<string> {
  const destination = bundleDirIn(registry.dir, id, version);
  await mkdir(destination, { recursive: true });
  await cp(bundleDir, destination, { recursive: true });
  const indexPath = join(registry.dir, 'index.json');
  const index = JSON.parse(await readFile(indexPath, 'utf8').catch(() => '{"registry_version":1,"plugins":{}}')) as { registry_version: 1; plugins: Record<string, { versions: string[] }> };
  const versions = new Set(index.plugins[id]?.versions ?? []);
  versions.add(version);
  index.plugins[id] = { versions: [...versions] };
  await writeFile(indexPath, `${JSON.stringify(index, null, 2)}\n`);
  return destination;
}

/** Removes a version from index.json (and its directory), as a registry that rolled back would. */
export async function unpublish(registry: TestRegistry, id: string, version: string): Promise<void> {
  const indexPath = join(registry.dir, 'index.json');
  const index = JSON.parse(await readFile(indexPath, 'utf8')) as { plugins: Record<string, { versions: string[] }> };
  const entry = index.plugins[id];
  if (entry) entry.versions = entry.versions.filter((v) => v !== version);
  await writeFile(indexPath, `${JSON.stringify(index, null, 2)}\n`);
  await rm(bundleDirIn(registry.dir, id, version), { recursive: true, force: true });
}

/** Adds a publisher's key record to the registry's keys/ without publishing anything. */
export async function addRegistryKey(registry: TestRegistry, publisher: TestPublisher): Promise<void> {
  await putRegistryKeyRecord(registry.dir, publisher.record);
}
