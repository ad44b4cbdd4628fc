import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { open, seal, VaultKeyMissing } from '../../../../core/services/connections/vault/credential-cipher.ts';
import { envKeyProvider, staticKeyProvider } from '../../../../core/services/connections/vault/key-provider.ts';

describe('credential cipher', () => {
  const keys = staticKeyProvider([randomBytes(32)]);

  it('round-trips and never stores the plaintext', () => {
    const sealed = seal(keys, 'access-token-ABC123', 'opl.credential:acct:1:blob');
    expect(Buffer.from(sealed.blob).toString('latin1')).not.toContain('access-token-ABC123');
    expect(open(keys, sealed, 'opl.credential:acct:1:blob')).toBe('access-token-ABC123');
  });

  it('binds a ciphertext to its row: another account or version does not decrypt', () => {
    const sealed = seal(keys, 'secret', 'opl.credential:acct-a:1:blob');
    expect(() => open(keys, sealed, 'opl.credential:acct-b:1:blob')).toThrow('integrity check');
    expect(() => open(keys, sealed, 'opl.credential:acct-a:2:blob')).toThrow('integrity check');
  });

  it('detects tampering', () => {
    const sealed = seal(keys, 'secret', 'aad');
    const blob = Uint8Array.from(sealed.blob);
    blob[blob.length - 1]! ^= 1;
    expect(() => open(keys, { keyId: sealed.keyId, blob }, 'aad')).toThrow('integrity check');
  });

  it('rotates keys: old ciphertexts open with a previous key, new ones use the current key', () => {
    const previous = randomBytes(32).toString('base64');
    const current = randomBytes(32).toString('base64');
    const before = seal(envKeyProvider(previous), 'old secret', 'aad');
    const rotated = envKeyProvider(current, [previous]);
    expect(open(rotated, before, 'aad')).toBe('old secret');
    expect(seal(rotated, 'new', 'aad').keyId).not.toBe(before.keyId);
    expect(() => open(envKeyProvider(current), before, 'aad')).toThrow(VaultKeyMissing);
  });

  it('refuses keys of the wrong size', () => {
    expect(() => staticKeyProvider([randomBytes(16)])).toThrow('32 bytes');
  });
});
