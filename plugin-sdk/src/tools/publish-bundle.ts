import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import semver from 'semver';
import { directoryBundleSource } from './bundle-source.ts';
import { writeJsonFileAtomic } from './json-file.ts';
import { type KeyRecord } from './key.schema.ts';
import { bundleDirIn, createLocalRegistrySource, REGISTRY_INDEX_FILE } from './local-registry-source.ts';
import { putRegistryKeyRecord } from './registry-keys.ts';
import { registryBundleSource } from './registry-source.ts';
import { PluginToolError } from './tool-error.ts';
import { MANIFEST_FILE, readBundleManifest, SIGNATURE_FILE, verifyBundle, type VerifiedBundle } from './verify-bundle.ts';

export interface PublishOptions {
  /** The publisher's public key record; needed the first time a key publishes into this registry. */
  publicKey?: KeyRecord | null;
  now?: Date;
}

export interface PublishResult {
  id: string;
  version: string;
  /** The bundle directory inside the registry. */
  destination: string;
  /** False when this exact bundle was already published (publishing is idempotent). */
  published: boolean;
  keyRecord: 'added' | 'updated' | 'unchanged';
  /** All versions of the plugin in the registry after publishing, ascending. */
  versions: string[];
}

function bundleBytes(verified: VerifiedBundle, manifestBytes: Uint8Array, signatureBytes: Uint8Array): Map<string, Uint8Array> {
  return new Map([[MANIFEST_FILE, manifestBytes], [SIGNATURE_FILE, signatureBytes], ...verified.files]);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

/**
 * Publishes a signed bundle into a registry directory: verifies it with the publisher's key,
 * copies it to `plugins/<id>/<version>/` (never over a different bundle: a published version is
 * immutable), adds the version to index.json and the key record to keys/ when missing.
 */
export async function publishBundle(bundleDir: string, registryDir: string, options: PublishOptions = {}): Promise<PublishResult> {
  const source = directoryBundleSource(bundleDir);
  const read = await readBundleManifest(source);
  if (!('manifest' in read)) throw new PluginToolError(`Refusing to publish ${bundleDir}: ${read.detail}`, { reason: read.reason });
  const { manifest } = read;
  const keyId = manifest.publisher.key_id;
  const plugin = `${manifest.id}@${manifest.version}`;
  const registry = createLocalRegistrySource(registryDir);

  const existingRecord = await registry.readKeyRecord(keyId);
  const given = options.publicKey ?? null;
  if (given && given.key_id !== keyId) throw new PluginToolError(`${plugin} is signed for key "${keyId}", but the public key given is "${given.key_id}".`);
  if (given && existingRecord && given.public_key !== existingRecord.public_key) {
    throw new PluginToolError(`The registry already has a different public key under the id "${keyId}"; key ids cannot be reused.`, { reason: 'bad_signature' });
  }
  const record = existingRecord ?? given;
  if (!record) throw new PluginToolError(`The registry has no record of key "${keyId}"; pass the publisher's public key (--key <name>.pub.json) the first time you publish with it.`, { reason: 'unknown_key' });

  // The registry's consumers decide whom to trust; here we only prove the bundle is intact and
  // signed by the key it names, and that the key is not revoked in this registry.
  const now = (options.now ?? new Date()).toISOString();
  const trust = { trust_version: 1 as const, keys: [{ key_id: keyId, publisher: record.publisher, public_key: record.public_key, added_at: now, test_only: record.test_only }], revoked: [] };
  const verified = await verifyBundle(source, { trust, registry: { readKeyRecord: async (id) => (id === keyId ? record : null) } });
  if (!verified.ok) throw new PluginToolError(`Refusing to publish ${plugin}: ${verified.detail}`, { reason: verified.reason });
  const signatureBytes = await source.readFile(SIGNATURE_FILE);
  if (!signatureBytes) throw new PluginToolError(`Refusing to publish ${plugin}: it is not signed.`, { reason: 'unsigned' });
  const files = bundleBytes(verified, read.bytes, signatureBytes);

  const destination = bundleDirIn(registryDir, manifest.id, manifest.version);
  const existing = registryBundleSource(registry, manifest.id, manifest.version);
  const existingListing = (await existing.listFiles()) ?? [];
  let published = false;
  if (existingListing.length > 0) {
    const identical =
      existingListing.length === files.size &&
      (await Promise.all(existingListing.map(async (path) => {
        const mine = files.get(path);
        const theirs = mine ? await existing.readFile(path) : null;
        return mine !== undefined && theirs !== null && sameBytes(mine, theirs);
      }))).every(Boolean);
    if (!identical) {
      throw new PluginToolError(`${plugin} is already published in ${registryDir} with different contents; published versions are immutable, so bump the version.`, { reason: 'duplicate' });
    }
  } else {
    // Write beside the destination and rename, so a reader never sees a half-copied bundle.
    const staging = join(dirname(destination), `.staging-${manifest.version}-${process.pid}-${Date.now()}`);
    await rm(destination, { recursive: true, force: true }); // an empty leftover directory
    try {
      for (const [path, bytes] of files) {
        const target = join(staging, ...path.split('/'));
        await mkdir(dirname(target), { recursive: true });
        await writeFile(target, bytes);
      }
      await rename(staging, destination);
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
    published = true;
  }

  const keyRecord = existingRecord ? 'unchanged' : await putRegistryKeyRecord(registryDir, record);
  const index = await registry.readIndex();
  const known = index.plugins[manifest.id]?.versions ?? [];
  const versions = [...new Set([...known, manifest.version])].sort(semver.compare);
  if (versions.length !== known.length || versions.some((version, i) => version !== known[i])) {
    const plugins = Object.fromEntries(Object.entries({ ...index.plugins, [manifest.id]: { versions } }).sort(([a], [b]) => (a < b ? -1 : 1)));
    await writeJsonFileAtomic(join(registryDir, REGISTRY_INDEX_FILE), { ...index, plugins });
  }
  return { id: manifest.id, version: manifest.version, destination, published, keyRecord, versions };
}
