import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { KeyProvider } from './key-provider.ts';

/**
 * AES-256-GCM sealing of credential material. The associated data binds a ciphertext to its row
 * (account id and credential version), so a blob copied onto another account does not decrypt.
 * Layout: format byte (1) | IV (12) | tag (16) | ciphertext.
 */

const FORMAT = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface Sealed {
  readonly keyId: string;
  readonly blob: Uint8Array;
}

export class VaultKeyMissing extends Error {
  constructor(keyId: string) {
    super(`the vault key ${keyId} that encrypted this credential is not configured any more; the account must be reconnected`);
    this.name = 'VaultKeyMissing';
  }
}

export function seal(keys: KeyProvider, plaintext: string, associatedData: string): Sealed {
  const { id, key } = keys.current();
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(associatedData, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { keyId: id, blob: new Uint8Array(Buffer.concat([Buffer.from([FORMAT]), iv, cipher.getAuthTag(), ciphertext])) };
}

export function open(keys: KeyProvider, sealed: Sealed, associatedData: string): string {
  const vaultKey = keys.byId(sealed.keyId);
  if (!vaultKey) throw new VaultKeyMissing(sealed.keyId);
  const blob = Buffer.from(sealed.blob);
  if (blob.length < 1 + IV_BYTES + TAG_BYTES || blob[0] !== FORMAT) throw new Error('the stored credential is not in a format this engine can read');
  const decipher = createDecipheriv('aes-256-gcm', vaultKey.key, blob.subarray(1, 1 + IV_BYTES));
  decipher.setAAD(Buffer.from(associatedData, 'utf8'));
  decipher.setAuthTag(blob.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(blob.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    // Never say more: the ciphertext or its binding was altered.
    throw new Error('the stored credential failed its integrity check');
  }
}
