import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { directoryBundleSource } from './bundle-source.ts';
import { jsonText } from './json-file.ts';
import { type SecretKeyFile } from './key.schema.ts';
import { type SignatureFile } from './signature.schema.ts';
import { assertSignable, createSignature } from './signature.ts';
import { PluginToolError } from './tool-error.ts';
import { checkBundleFiles, readBundleManifest, SIGNATURE_FILE } from './verify-bundle.ts';

/**
 * Signs a built bundle in place (writes signature.json). The bundle is checked first: signing a
 * bundle whose files no longer match its manifest would only produce a signature nobody accepts.
 */
export async function signBundle(bundleDir: string, secret: SecretKeyFile, options: { signedAt?: Date } = {}): Promise<SignatureFile> {
  const source = directoryBundleSource(bundleDir);
  const read = await readBundleManifest(source);
  if (!('manifest' in read)) throw new PluginToolError(`Cannot sign ${bundleDir}: ${read.detail}`, { reason: read.reason });
  const { manifest, manifestJson } = read;
  assertSignable(manifest.id, secret, manifest.publisher.key_id);
  const files = await checkBundleFiles(source, manifest);
  if (!(files instanceof Map)) throw new PluginToolError(`Cannot sign ${bundleDir}: ${files.detail}`, { reason: files.reason });
  const signature = createSignature({ manifestJson, id: manifest.id, version: manifest.version, secret, ...(options.signedAt ? { signedAt: options.signedAt } : {}) });
  await writeFile(join(bundleDir, SIGNATURE_FILE), jsonText(signature));
  return signature;
}
