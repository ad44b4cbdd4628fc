import nacl from 'tweetnacl';
import { keyIdSchema } from '../manifest.schema.ts';
import { fromBase64, toBase64 } from './encoding.ts';
import { type KeyRecord, type SecretKeyFile } from './key.schema.ts';
import { PluginToolError } from './tool-error.ts';

export interface GenerateKeyOptions {
  keyId: string;
  publisher: string;
  /** Marks the key (and everything it signs) as for tests and local development only. */
  testOnly?: boolean;
  createdAt?: Date;
}

/** A fresh ed25519 publisher key: the secret key file and its public record. */
export function generateKeyPair(options: GenerateKeyOptions): { secret: SecretKeyFile; record: KeyRecord } {
  const keyId = keyIdSchema.safeParse(options.keyId);
  if (!keyId.success) throw new PluginToolError(`"${options.keyId}" is not a valid key id: use 3 to 64 lowercase letters, digits and dashes.`);
  const publisher = options.publisher.trim();
  if (publisher === '' || publisher.length > 200) throw new PluginToolError('The publisher name must be 1 to 200 characters.');
  const pair = nacl.sign.keyPair();
  const secret: SecretKeyFile = {
    key_id: keyId.data,
    publisher,
    algorithm: 'ed25519',
    public_key: toBase64(pair.publicKey),
    secret_key: toBase64(pair.secretKey),
    created_at: (options.createdAt ?? new Date()).toISOString(),
    test_only: options.testOnly ?? false,
  };
  return { secret, record: publicRecordOf(secret) };
}

/** The public key record of a secret key file: what goes into `<name>.pub.json` and the registry's keys/. */
export function publicRecordOf(secret: SecretKeyFile): KeyRecord {
  return {
    key_id: secret.key_id,
    publisher: secret.publisher,
    algorithm: 'ed25519',
    public_key: secret.public_key,
    created_at: secret.created_at,
    revoked_at: null,
    revocation_reason: null,
    endorsement: null,
    test_only: secret.test_only,
  };
}

/** The raw 64-byte ed25519 secret key, after checking that it belongs to the file's public key. */
export function secretKeyBytes(secret: SecretKeyFile): Uint8Array {
  const bytes = fromBase64(secret.secret_key);
  if (!bytes || bytes.length !== nacl.sign.secretKeyLength) throw new PluginToolError(`The secret key of "${secret.key_id}" is not a base64 ed25519 secret key.`);
  const derived = toBase64(nacl.sign.keyPair.fromSecretKey(bytes).publicKey);
  if (derived !== secret.public_key) throw new PluginToolError(`The secret key file of "${secret.key_id}" is inconsistent: its secret key does not belong to its public key.`);
  return bytes;
}
