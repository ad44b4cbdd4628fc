import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, ownerId, updatedAt, uuidPrimaryKey } from './columns.ts';

/** An immutable metadata-only playlist share. Only a hash of the token is stored. */
export const Share = defineEntity({
  name: 'Share',
  tableName: 'share',
  properties: {
    id: uuidPrimaryKey(),
    ownerId: ownerId(),
    tokenHash: p.text().unique(),
    /** The bounded public snapshot JSON served to recipients. */
    snapshot: p.json<Record<string, unknown>>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    revokedAt: p.datetime().nullable(),
  },
  indexes: [{ properties: ['ownerId', 'createdAt'] }],
});

export type Share = InferEntity<typeof Share>;
