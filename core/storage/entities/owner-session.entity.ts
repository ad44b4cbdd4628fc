import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { AppUser } from './app-user.entity.ts';
import { createdAt, uuidPrimaryKey } from './columns.ts';

/**
 * A login session: of the self-host owner (no user), or of a hosted instance's signed-in user. Only
 * a hash of the token is stored.
 */
export const OwnerSession = defineEntity({
  name: 'OwnerSession',
  tableName: 'owner_session',
  properties: {
    id: uuidPrimaryKey(),
    tokenHash: p.text().unique(),
    /** Hosted mode: the signed-in user; null for the self-host owner. */
    user: p.manyToOne(AppUser).nullable().deleteRule('cascade').index(),
    createdAt: createdAt(),
    expiresAt: p.datetime(),
    lastSeenAt: p
      .datetime()
      .onCreate(() => new Date())
      .defaultRaw('now()'),
    /**
     * Hosted mode: the ID token of the sign-in, sealed by the credential vault (bound to this
     * session's token hash), kept only to end the session at the OpenID provider on sign-out.
     */
    idTokenSealed: p.type('uint8array').columnType('bytea').nullable(),
    idTokenKeyId: p.text().nullable(),
  },
  indexes: [{ properties: ['expiresAt'] }],
});

export type OwnerSession = InferEntity<typeof OwnerSession>;
