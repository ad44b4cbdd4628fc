import nacl from 'tweetnacl';
import { canonicalJsonBytes } from '../canonical-json.ts';
import { fromBase64, sha256Hex, toBase64 } from './encoding.ts';
import { type SecretKeyFile } from './key.schema.ts';
import { secretKeyBytes } from './keygen.ts';
import { SIGNATURE_TYPE, type SignatureFile, type SignatureStatement } from './signature.schema.ts';
import { PluginToolError } from './tool-error.ts';

/** The hash a signature pins: sha256 of the canonical JSON of the manifest document as written. */
export function manifestSha256(manifestJson: unknown): string {
  return sha256Hex(canonicalJsonBytes(manifestJson));
}

export interface SignManifestInput {
  /** The manifest document exactly as it is in manifest.json (parsed JSON). */
  manifestJson: unknown;
  id: string;
  version: string;
  secret: SecretKeyFile;
  signedAt?: Date;
}

export function createSignature(input: SignManifestInput): SignatureFile {
  const statement: SignatureStatement = {
    type: SIGNATURE_TYPE,
    plugin: `${input.id}@${input.version}`,
    manifest_sha256: manifestSha256(input.manifestJson),
    key_id: input.secret.key_id,
    signed_at: (input.signedAt ?? new Date()).toISOString(),
  };
  const signature = nacl.sign.detached(canonicalJsonBytes(statement), secretKeyBytes(input.secret));
  return { statement, signature: toBase64(signature) };
}

/** Whether the detached signature over the statement verifies with `publicKey` (base64). */
export function signatureIsValid(file: SignatureFile, publicKey: string): boolean {
  const signature = fromBase64(file.signature);
  const key = fromBase64(publicKey);
  if (signature?.length !== nacl.sign.signatureLength || key?.length !== nacl.sign.publicKeyLength) return false;
  return nacl.sign.detached.verify(canonicalJsonBytes(file.statement), signature, key);
}

export function assertSignable(id: string, secret: SecretKeyFile, publisherKeyId: string): void {
  if (secret.key_id !== publisherKeyId) {
    throw new PluginToolError(`The manifest of ${id} names publisher key "${publisherKeyId}", but the secret key is "${secret.key_id}"; set publisher.key_id in plugin.json or sign with the right key.`);
  }
}
