import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * Failed-sign-in bookkeeping of one throttle key (a client address, an account, or a remembered
 * device, per sign-in kind), shared by every engine process. The key is a SHA-256 hash: the table
 * names no address and no account. Every attempt is counted before the secret is checked, so
 * parallel guesses each see the count of those before them.
 */
export const SignInThrottle = defineEntity({
  name: 'SignInThrottle',
  tableName: 'sign_in_throttle',
  properties: {
    keyHash: p.text().primary(),
    attempts: p.integer(),
    windowStartedAt: p.datetime(),
    lockedUntil: p.datetime().nullable(),
    /** Lockouts in a row (each longer, up to a cap); cleared by a success or a quiet day. */
    lockouts: p.integer().default(0),
    updatedAt: p.datetime(),
  },
  indexes: [{ properties: ['updatedAt'] }],
});

export type SignInThrottle = InferEntity<typeof SignInThrottle>;

/**
 * A device that signed in successfully (OWASP's "device cookie"): its attempts are counted on
 * their own, so an attacker who locks the account out from elsewhere does not lock out a device
 * the real user signed in from before. Only a hash of the cookie is stored.
 */
export const SignInDevice = defineEntity({
  name: 'SignInDevice',
  tableName: 'sign_in_device',
  properties: {
    tokenHash: p.text().primary(),
    /** The sign-in kind and account it was issued for (`owner_secret:owner`). */
    subject: p.text(),
    createdAt: p.datetime(),
    expiresAt: p.datetime(),
  },
  indexes: [{ properties: ['expiresAt'] }],
});

export type SignInDevice = InferEntity<typeof SignInDevice>;
