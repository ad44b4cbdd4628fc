import nacl from 'tweetnacl';
import { canonicalJsonBytes } from '../canonical-json.ts';
import { fromBase64, toBase64 } from './encoding.ts';
import { ENDORSEMENT_TYPE, type KeyRecord, type SecretKeyFile } from './key.schema.ts';
import { secretKeyBytes } from './keygen.ts';
import { PluginToolError } from './tool-error.ts';

/**
 * Key rotation: the publisher's current key signs the next key's id and public key. Anyone who
 * trusts the old key can then trust the new one without a new trust-store entry, as long as the
 * old key is not revoked.
 */

export function endorsementStatement(record: Pick<KeyRecord, 'key_id' | 'public_key'>, endorsedAt: string): Uint8Array {
  return canonicalJsonBytes({ type: ENDORSEMENT_TYPE, key_id: record.key_id, public_key: record.public_key, endorsed_at: endorsedAt });
}

/** Returns the new key's record carrying the old key's endorsement. */
export function endorseKey(oldSecret: SecretKeyFile, newRecord: KeyRecord, options: { endorsedAt?: Date } = {}): KeyRecord {
  if (oldSecret.key_id === newRecord.key_id) throw new PluginToolError(`A key cannot endorse itself ("${newRecord.key_id}").`);
  if (oldSecret.public_key === newRecord.public_key) throw new PluginToolError(`"${newRecord.key_id}" has the same public key as "${oldSecret.key_id}"; rotation needs a new key pair.`);
  const endorsedAt = (options.endorsedAt ?? new Date()).toISOString();
  const signature = nacl.sign.detached(endorsementStatement(newRecord, endorsedAt), secretKeyBytes(oldSecret));
  return { ...newRecord, endorsement: { key_id: oldSecret.key_id, endorsed_at: endorsedAt, signature: toBase64(signature) } };
}

/** Whether `record.endorsement` is a valid signature by `endorserPublicKey` (base64). */
export function endorsementIsValid(record: KeyRecord, endorserPublicKey: string): boolean {
  if (!record.endorsement) return false;
  const signature = fromBase64(record.endorsement.signature);
  const publicKey = fromBase64(endorserPublicKey);
  if (signature?.length !== nacl.sign.signatureLength || publicKey?.length !== nacl.sign.publicKeyLength) return false;
  return nacl.sign.detached.verify(endorsementStatement(record, record.endorsement.endorsed_at), signature, publicKey);
}
