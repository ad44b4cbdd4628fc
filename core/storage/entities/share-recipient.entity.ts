import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, uuidPrimaryKey } from './columns.ts';
import { Share } from './share.entity.ts';

/**
 * A share recipient (spec Authentication 9): whoever opened one share and chose to copy it. The
 * row is both the recipient's identity (their rows are owned by `recipient:<id>`, which no user,
 * no owner and no other recipient shares) and their session (only a hash of the cookie is stored).
 * It lives as long as its share: purging the share deletes it.
 */
export const ShareRecipient = defineEntity({
  name: 'ShareRecipient',
  tableName: 'share_recipient',
  properties: {
    id: uuidPrimaryKey(),
    share: p.manyToOne(Share).deleteRule('cascade').index(),
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

export type ShareRecipient = InferEntity<typeof ShareRecipient>;
