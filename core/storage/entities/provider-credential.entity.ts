import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, ownerId, updatedAt, uuidPrimaryKey } from './columns.ts';
import { ProviderAccount } from './provider-account.entity.ts';
import { AUTH_KINDS } from './values.ts';

/**
 * Encrypted credentials of a provider account, keyed by account, credential version and granted
 * scopes. Secrets are stored only as ciphertext produced by the pluggable key provider.
 */
export const ProviderCredential = defineEntity({
  name: 'ProviderCredential',
  tableName: 'provider_credential',
  properties: {
    id: uuidPrimaryKey(),
    ownerId: ownerId(),
    providerAccount: p.manyToOne(ProviderAccount).deleteRule('cascade'),
    version: p.integer(),
    authKind: p.enum(AUTH_KINDS),
    scopes: p.array().columnType('text[]').default([]),
    /** Ciphertext of the credential material (access token, pasted headers, user token, ...). */
    encryptedBlob: p.type('uint8array').columnType('bytea'),
    encryptedRefreshToken: p.type('uint8array').columnType('bytea').nullable(),
    /** Which key of the key provider encrypted the blobs, for rotation. */
    keyId: p.text(),
    expiresAt: p.datetime().nullable(),
    accountLabel: p.text().nullable(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  indexes: [{ properties: ['ownerId'] }],
  uniques: [{ name: 'provider_credential_key_unique', properties: ['providerAccount', 'version', 'scopes'] }],
});

export type ProviderCredential = InferEntity<typeof ProviderCredential>;
