import { emptyTrustStore, generateKeyPair, signBundle, trustKey, verifyBundle, writeBundle, type SecretKeyFile, type TrustStore } from '@opl/plugin-sdk/tools';
import type { PluginBundle } from '../../../../core/plugin-host/index.ts';

/**
 * Test plugins go through the same path as real ones: written as a bundle, signed with a freshly
 * generated test-only key, and verified against a trust store holding that key before the
 * PluginHost sees them.
 */

export interface TestSigner {
  readonly keyId: string;
  readonly publisher: string;
  readonly secret: SecretKeyFile;
  readonly trust: TrustStore;
}

export function createTestSigner(keyId: string, publisher = 'OPL sandbox tests'): TestSigner {
  const { secret, record } = generateKeyPair({ keyId, publisher, testOnly: true });
  return { keyId, publisher, secret, trust: trustKey(emptyTrustStore(), record, { testOnly: true }) };
}

export interface SignedBundle extends PluginBundle {
  readonly dir: string;
}

/** Writes, signs and verifies a one-file bundle; returns what the engine would load. */
export async function buildSignedBundle(signer: TestSigner, manifestSource: Record<string, unknown>, code: string, dir: string): Promise<SignedBundle> {
  await writeBundle({ manifestSource: { ...manifestSource, publisher: { name: signer.publisher, key_id: signer.keyId } }, files: { 'plugin.js': code }, outDir: dir });
  await signBundle(dir, signer.secret);
  const verified = await verifyBundle(dir, { trust: signer.trust });
  if (!verified.ok) throw new Error(`the test bundle in ${dir} did not verify: ${verified.reason}: ${verified.detail}`);
  const entry = verified.files.get(verified.manifest.entry);
  if (!entry) throw new Error(`the test bundle in ${dir} has no entry file`);
  return { manifest: verified.manifest, code: new TextDecoder().decode(entry), dir };
}
