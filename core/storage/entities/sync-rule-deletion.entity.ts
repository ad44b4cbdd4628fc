import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { ownerId } from './columns.ts';

/**
 * The event of a deleted sync rule (written by the rule's delete trigger): its number comes from
 * the sync event sequence, so a stream resuming after N learns of deletions too. Kept for a week
 * (a client away longer reloads the list anyway).
 */
export const SyncRuleDeletion = defineEntity({
  name: 'SyncRuleDeletion',
  tableName: 'sync_rule_deletion',
  properties: {
    ruleId: p.uuid().primary(),
    ownerId: ownerId(),
    progressSeq: p.bigint('number'),
    deletedAt: p.datetime(),
  },
  indexes: [{ properties: ['ownerId', 'progressSeq'] }, { properties: ['deletedAt'] }],
});

export type SyncRuleDeletion = InferEntity<typeof SyncRuleDeletion>;
