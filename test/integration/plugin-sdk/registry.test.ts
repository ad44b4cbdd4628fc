import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createLocalRegistrySource,
  directoryBundleSource,
  generateKeyPair,
  publishBundle,
  putRegistryKeyRecord,
  registryBundleSource,
  signBundle,
  trustKey,
  emptyTrustStore,
  verifyBundle,
  writeBundle,
  type KeyRecord,
  type SecretKeyFile,
} from '../../../plugin-sdk/src/tools/index.ts';

const manifestSource = (version = '1.0.0') => ({
  manifest_version: 1,
  id: 'com.example.registry-test',
  name: 'Registry test',
  version,
  kind: 'format',
  publisher: { name: 'Example Ltd', key_id: 'registry-key' },
  engines: { opl: '>=0.1.0' },
  format: { name: 'regtest', display_name: 'Registry test', extensions: ['.regtest'], directions: ['import'] },
});

describe('bundles and the local registry on disk', () => {
  let work: string;
  let key: { secret: SecretKeyFile; record: KeyRecord };
  const build = async (dir: string, version = '1.0.0', code = 'export default {};\n') => {
    await writeBundle({ manifestSource: manifestSource(version), files: { 'plugin.js': code, 'docs/NOTES.md': 'notes\n' }, outDir: join(work, dir) });
    await signBundle(join(work, dir), key.secret, { signedAt: new Date('2026-05-01T00:00:00Z') });
    return join(work, dir);
  };

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'opl-registry-'));
    key = generateKeyPair({ keyId: 'registry-key', publisher: 'Example Ltd' });
  });
  afterAll(() => rm(work, { recursive: true, force: true }));

  it('publishes versions in semver order, keeps published versions immutable and republishing idempotent', async () => {
    const registry = join(work, 'registry');
    for (const version of ['1.10.0', '1.2.0', '1.2.0-beta.1']) {
      const result = await publishBundle(await build(`b-${version}`, version), registry, { publicKey: key.record });
      expect(result.published).toBe(true);
    }
    const index = await createLocalRegistrySource(registry).readIndex();
    expect(index.plugins['com.example.registry-test']?.versions).toEqual(['1.2.0-beta.1', '1.2.0', '1.10.0']);
    expect(existsSync(join(registry, 'plugins', 'com.example.registry-test', '1.10.0', 'docs', 'NOTES.md'))).toBe(true);

    const again = await publishBundle(join(work, 'b-1.2.0'), registry);
    expect(again).toMatchObject({ published: false, keyRecord: 'unchanged' });

    const different = await build('b-1.2.0-changed', '1.2.0', 'export default { changed: true };\n');
    await expect(publishBundle(different, registry)).rejects.toMatchObject({ reason: 'duplicate', message: expect.stringContaining('already published in') as unknown });
  });

  it('needs the public key the first time and refuses a different key under an existing id', async () => {
    const registry = join(work, 'registry-keys');
    const bundle = await build('b-keys');
    await expect(publishBundle(bundle, registry)).rejects.toMatchObject({ reason: 'unknown_key', message: expect.stringContaining('--key') as unknown });
    const impostor = generateKeyPair({ keyId: 'registry-key', publisher: 'Someone else' });
    await putRegistryKeyRecord(registry, impostor.record);
    await expect(publishBundle(bundle, registry, { publicKey: key.record })).rejects.toThrow(/different public key under the id "registry-key"/);
    // Signed by the real key but the registry holds the impostor's record: the signature cannot verify.
    await expect(publishBundle(bundle, registry)).rejects.toMatchObject({ reason: 'bad_signature' });
  });

  it('verifies a published bundle through the registry source', async () => {
    const registry = createLocalRegistrySource(join(work, 'registry'));
    const result = await verifyBundle(registryBundleSource(registry, 'com.example.registry-test', '1.10.0'), { trust: trustKey(emptyTrustStore(), key.record), registry });
    expect(result.ok).toBe(true);
  });

  it('refuses an unlisted file added to a published bundle directory', async () => {
    const registry = createLocalRegistrySource(join(work, 'registry'));
    const extra = join(work, 'registry', 'plugins', 'com.example.registry-test', '1.2.0', 'payload.js');
    await writeFile(extra, 'evil();');
    try {
      const result = await verifyBundle(registryBundleSource(registry, 'com.example.registry-test', '1.2.0'), { trust: trustKey(emptyTrustStore(), key.record), registry });
      expect(result).toMatchObject({ ok: false, reason: 'unlisted_file', detail: expect.stringContaining('payload.js') as unknown });
    } finally {
      await rm(extra);
    }
  });

  it('refuses ids, versions and paths that would leave the registry', async () => {
    const registry = createLocalRegistrySource(join(work, 'registry'));
    await expect(registry.readBundleFile('com.example.registry-test', '1.2.0', '../1.10.0/plugin.js')).rejects.toThrow(/not a valid bundle file path/);
    await expect(registry.readBundleFile('..', '1.2.0', 'plugin.js')).rejects.toThrow(/not a valid plugin id/);
    await expect(registry.readBundleFile('com.example.registry-test', '../../keys', 'plugin.js')).rejects.toThrow(/not a valid version/);
    await expect(registry.readKeyRecord('../index')).rejects.toThrow(/not a valid key id/);
    expect(await registry.readBundleFile('com.example.registry-test', '9.9.9', 'plugin.js')).toBeNull();
    expect(await registry.readKeyRecord('no-such-key')).toBeNull();
  });

  it('refuses symlinks that point out of the bundle or the registry', async () => {
    const outside = join(work, 'outside-secret.txt');
    await writeFile(outside, 'secret');
    const bundleDir = join(work, 'registry', 'plugins', 'com.example.registry-test', '1.10.0');
    const link = join(bundleDir, 'docs', 'NOTES.md');
    const saved = await readFile(link);
    await rm(link);
    await symlink(outside, link);
    try {
      const registry = createLocalRegistrySource(join(work, 'registry'));
      await expect(registry.readBundleFile('com.example.registry-test', '1.10.0', 'docs/NOTES.md')).rejects.toThrow(/resolves outside/);
      const result = await verifyBundle(registryBundleSource(registry, 'com.example.registry-test', '1.10.0'), { trust: trustKey(emptyTrustStore(), key.record), registry });
      expect(result).toMatchObject({ ok: false, reason: 'unreadable', detail: expect.stringContaining('resolves outside') as unknown });
    } finally {
      await rm(link);
      await writeFile(link, saved);
    }

    const elsewhere = await build('elsewhere', '3.0.0');
    const versionLink = join(work, 'registry', 'plugins', 'com.example.registry-test', '3.0.0');
    await symlink(elsewhere, versionLink);
    try {
      const registry = createLocalRegistrySource(join(work, 'registry'));
      await expect(registry.listBundleFiles('com.example.registry-test', '3.0.0')).rejects.toThrow(/resolves outside the registry/);
    } finally {
      await rm(versionLink);
    }
  });

  it('reports a malformed index or key record instead of guessing', async () => {
    const dir = join(work, 'broken-registry');
    await mkdir(join(dir, 'keys'), { recursive: true });
    await writeFile(join(dir, 'index.json'), '{"registry_version":2}');
    await writeFile(join(dir, 'keys', 'some-key.json'), JSON.stringify({ ...key.record, key_id: 'other-key' }));
    const registry = createLocalRegistrySource(dir);
    await expect(registry.readIndex()).rejects.toThrow(/index\.json of the registry .* is not valid: registry_version/);
    await expect(registry.readKeyRecord('some-key')).rejects.toThrow(/holds key "other-key", not "some-key"/);
    expect(await createLocalRegistrySource(join(work, 'no-registry-yet')).readIndex()).toEqual({ registry_version: 1, plugins: {} });
  });

  it('writes bundles only into empty or previous-bundle directories, and drops a stale signature', async () => {
    const dir = await build('rebuild');
    await writeBundle({ manifestSource: manifestSource(), files: { 'plugin.js': 'export default 2;\n' }, outDir: dir });
    expect(existsSync(join(dir, 'signature.json'))).toBe(false);
    expect(existsSync(join(dir, 'docs'))).toBe(false);
    expect((await directoryBundleSource(dir).listFiles())).toEqual(['manifest.json', 'plugin.js']);

    const foreign = join(work, 'foreign');
    await mkdir(foreign);
    await writeFile(join(foreign, 'thesis.tex'), 'precious');
    await expect(writeBundle({ manifestSource: manifestSource(), files: { 'plugin.js': 'x' }, outDir: foreign })).rejects.toThrow(/contains files that are not part of a previous bundle \(thesis\.tex\)/);
    expect(await readFile(join(foreign, 'thesis.tex'), 'utf8')).toBe('precious');
    await expect(writeBundle({ manifestSource: manifestSource(), files: { 'plugin.js': 'x', '../up.js': 'x' }, outDir: join(work, 'x') })).rejects.toThrow(/"\.\.\/up\.js" cannot be a bundle file/);
  });

  it('refuses to sign a bundle whose files changed or with a key the manifest does not name', async () => {
    const dir = await build('sign-checks');
    await writeFile(join(dir, 'plugin.js'), 'changed');
    await expect(signBundle(dir, key.secret)).rejects.toMatchObject({ reason: 'modified_file' });
    const other = generateKeyPair({ keyId: 'other-key', publisher: 'Example Ltd' });
    await writeBundle({ manifestSource: manifestSource(), files: { 'plugin.js': 'x' }, outDir: dir });
    await expect(signBundle(dir, other.secret)).rejects.toThrow(/names publisher key "registry-key", but the secret key is "other-key"/);
  });
});
