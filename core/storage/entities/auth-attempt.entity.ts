import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, ownerId, uuidPrimaryKey } from './columns.ts';
import { AUTH_KINDS } from './values.ts';

/**
 * A connection in progress: what `begin` handed out and `complete` must check (the OAuth `state`,
 * the PKCE verifier, a device code, a form). Stored in PostgreSQL so the provider's callback may
 * land on any engine process; secrets are sealed by the vault; the row is deleted when completed
 * or expired. Only a hash of `state` is stored, so the table alone cannot complete a flow.
 */
export const AuthAttempt = defineEntity({
  name: 'AuthAttempt',
  tableName: 'auth_attempt',
  properties: {
    id: uuidPrimaryKey(),
    ownerId: ownerId(),
    stateHash: p.text().unique(),
    /** Provider name (`spotify`). */
    provider: p.text(),
    pluginId: p.text(),
    authKind: p.enum(AUTH_KINDS),
    accountLabel: p.text().nullable(),
    /** Set when reconnecting an existing account: completion must yield that same provider user. */
    reconnectAccountId: p.uuid().nullable(),
    scopes: p.array().columnType('text[]').default([]),
    redirectUri: p.text().nullable(),
    /** Sealed JSON of the flow's secrets (PKCE verifier, device code, user-supplied client). */
    sealedSecrets: p.type('uint8array').columnType('bytea'),
    keyId: p.text(),
    /** Device flow: earliest time the next token poll may go out (the provider's interval). */
    nextPollAt: p.datetime().nullable(),
    expiresAt: p.datetime(),
    createdAt: createdAt(),
  },
  indexes: [{ properties: ['expiresAt'] }],
});

export type AuthAttempt = InferEntity<typeof AuthAttempt>;
