import { z } from 'zod';
import type { Execute } from '../../../plugins/plugin-store.ts';
import { deleteOlderCredentials, insertCredential, nextCredentialVersion, selectLatestCredential } from '../connections.sql.ts';
import { open, seal } from './credential-cipher.ts';
import type { KeyProvider } from './key-provider.ts';

/**
 * The encrypted store of provider credentials. Plaintext exists only in memory, for the call that
 * needs it; rows hold ciphertext bound to (account, version), the key id, and the non-secret facts
 * (auth kind, scopes, expiry, label). A new version is written on every connect and refresh, so a
 * half-finished refresh never destroys the credential that still works.
 */

const AUTH_KIND = z.enum(['OAUTH_PKCE', 'OAUTH_DEVICE', 'HEADER_PASTE', 'DEVELOPER_USER_TOKEN', 'LONG_LIVED_TOKEN']);
export type AuthKind = z.output<typeof AUTH_KIND>;

/** The secret part, sealed as JSON. */
export const credentialMaterialSchema = z.object({
  secret: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('token'), access_token: z.string().min(1).max(16_384) }),
    z.object({ kind: z.literal('headers'), headers: z.record(z.string().max(100), z.string().max(16_384)) }),
  ]),
  /** A client the user brought (device flow with their own client id/secret), needed to refresh. */
  client: z.object({ client_id: z.string().max(500), client_secret: z.string().max(2_000).nullable() }).nullable().default(null),
});
export type CredentialMaterial = z.output<typeof credentialMaterialSchema>;

export interface NewCredential {
  readonly ownerId: string;
  readonly accountId: string;
  readonly authKind: AuthKind;
  readonly scopes: readonly string[];
  readonly material: CredentialMaterial;
  readonly refreshToken: string | null;
  readonly expiresAt: Date | null;
  readonly accountLabel: string | null;
}

export interface StoredCredential extends NewCredential {
  readonly version: number;
  /** Which vault key sealed it (rotation: a refresh re-seals with the current key). */
  readonly keyId: string;
}

const associated = (accountId: string, version: number, part: 'blob' | 'refresh') => `opl.credential:${accountId}:${version}:${part}`;

export class CredentialVault {
  readonly #execute: Execute;
  readonly #keys: KeyProvider;

  constructor(execute: Execute, keys: KeyProvider) {
    this.#execute = execute;
    this.#keys = keys;
  }

  /** Stores a new version (the caller serialises writers of one account) and drops older ones. */
  async store(credential: NewCredential, execute: Execute = this.#execute): Promise<number> {
    const [row] = await execute(nextCredentialVersion(credential.accountId));
    const version = Number(row?.['version'] ?? 1);
    const blob = seal(this.#keys, JSON.stringify(credentialMaterialSchema.parse(credential.material)), associated(credential.accountId, version, 'blob'));
    const refresh = credential.refreshToken === null ? null : seal(this.#keys, credential.refreshToken, associated(credential.accountId, version, 'refresh'));
    await execute(
      insertCredential({
        ownerId: credential.ownerId,
        accountId: credential.accountId,
        authKind: credential.authKind,
        scopes: credential.scopes,
        blob: blob.blob,
        refreshBlob: refresh?.blob ?? null,
        keyId: blob.keyId,
        expiresAt: credential.expiresAt,
        accountLabel: credential.accountLabel,
        version,
      }),
    );
    await execute(deleteOlderCredentials(credential.accountId, version));
    return version;
  }

  /** The newest credential of an account, decrypted; null when the account has none. */
  async latest(ownerId: string, accountId: string, execute: Execute = this.#execute): Promise<StoredCredential | null> {
    const [row] = await execute(selectLatestCredential(ownerId, accountId));
    if (!row) return null;
    const version = Number(row['version']);
    const keyId = String(row['key_id']);
    const material = credentialMaterialSchema.parse(JSON.parse(open(this.#keys, { keyId, blob: row['encrypted_blob'] as Uint8Array }, associated(accountId, version, 'blob'))));
    const refreshBlob = row['encrypted_refresh_token'] as Uint8Array | null;
    return {
      ownerId,
      accountId,
      version,
      keyId,
      authKind: AUTH_KIND.parse(row['auth_kind']),
      scopes: (row['scopes'] as string[] | null) ?? [],
      material,
      refreshToken: refreshBlob ? open(this.#keys, { keyId, blob: refreshBlob }, associated(accountId, version, 'refresh')) : null,
      expiresAt: row['expires_at'] ? new Date(row['expires_at'] as string | Date) : null,
      accountLabel: (row['account_label'] as string | null) ?? null,
    };
  }

  /** Seals attempt secrets (PKCE verifier, device code) the same way, bound to the attempt. */
  sealAttempt(stateHash: string, secrets: unknown): { keyId: string; blob: Uint8Array } {
    return seal(this.#keys, JSON.stringify(secrets), `opl.auth-attempt:${stateHash}`);
  }

  openAttempt(stateHash: string, keyId: string, blob: Uint8Array): unknown {
    return JSON.parse(open(this.#keys, { keyId, blob }, `opl.auth-attempt:${stateHash}`));
  }
}
