import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, uuidPrimaryKey } from './columns.ts';

/** A login session of the self-host owner-session gate. Only a hash of the token is stored. */
export const OwnerSession = defineEntity({
  name: 'OwnerSession',
  tableName: 'owner_session',
  properties: {
    id: uuidPrimaryKey(),
    tokenHash: p.text().unique(),
    createdAt: createdAt(),
    expiresAt: p.datetime(),
    lastSeenAt: p
      .datetime()
      .onCreate(() => new Date())
      .defaultRaw('now()'),
  },
  indexes: [{ properties: ['expiresAt'] }],
});

export type OwnerSession = InferEntity<typeof OwnerSession>;
