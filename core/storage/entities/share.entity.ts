import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, ownerId, updatedAt, uuidPrimaryKey } from './columns.ts';

/**
 * An immutable playlist share: a bounded, normalised public snapshot (an Open Playlist bundle with
 * no account data) read by anyone holding the token. Only a hash of the token is stored, so the
 * table alone cannot be turned back into working links.
 */
export const Share = defineEntity({
  name: 'Share',
  tableName: 'share',
  properties: {
    id: uuidPrimaryKey(),
    ownerId: ownerId(),
    tokenHash: p.text().unique(),
    /** The bounded public snapshot JSON served to recipients. */
    snapshot: p.json<Record<string, unknown>>(),
    /** The shared playlist's name and size, so the owner's list never loads snapshots. */
    name: p.text().default(''),
    trackCount: p.integer().default(0),
    /** `import` for an import record, else the provider the playlist was read from. */
    sourceProvider: p.text().nullable(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** After this the share answers like a revoked one; null: until revoked. */
    expiresAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
  },
  indexes: [{ properties: ['ownerId', 'createdAt'] }],
});

export type Share = InferEntity<typeof Share>;
