import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, uuidPrimaryKey } from './columns.ts';

/**
 * A person signed in through the OpenID provider of a hosted instance: one row per (issuer,
 * subject), never per e-mail address (addresses change and are reused). Its id is the owner id of
 * everything the user owns (`owner_id` columns), so users never share data. `user` is a reserved
 * word in PostgreSQL, hence `app_user`.
 */
export const AppUser = defineEntity({
  name: 'AppUser',
  tableName: 'app_user',
  properties: {
    id: uuidPrimaryKey(),
    issuer: p.text(),
    subject: p.text(),
    /** As the provider last said; shown only to the user themself. */
    email: p.text().nullable(),
    displayName: p.text().nullable(),
    /** Member of an `OPL_OIDC_ADMIN_GROUPS` group at the last sign-in. */
    isAdmin: p.boolean().default(false),
    createdAt: createdAt(),
    lastSignInAt: p.datetime(),
  },
  uniques: [{ properties: ['issuer', 'subject'] }],
});

export type AppUser = InferEntity<typeof AppUser>;

/**
 * An OpenID Connect sign-in in progress: the `state` (hashed), and sealed by the vault the PKCE
 * verifier and `nonce` the callback must present. Bound to the browser that began it (a hash of an
 * HttpOnly cookie), so a callback link sent to someone else signs nobody in. Deleted when used.
 */
export const OidcSignInAttempt = defineEntity({
  name: 'OidcSignInAttempt',
  tableName: 'oidc_sign_in_attempt',
  properties: {
    stateHash: p.text().primary(),
    browserHash: p.text(),
    sealedSecrets: p.type('uint8array').columnType('bytea'),
    keyId: p.text(),
    expiresAt: p.datetime(),
  },
  indexes: [{ properties: ['expiresAt'] }],
});

export type OidcSignInAttempt = InferEntity<typeof OidcSignInAttempt>;
