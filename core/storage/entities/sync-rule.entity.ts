import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, ownerId, updatedAt, uuidPrimaryKey } from './columns.ts';
import { SYNC_MODES, SYNC_RULE_STATUSES } from './values.ts';

/** A one-way scheduled sync, started from one completed full-playlist migration. */
export const SyncRule = defineEntity({
  name: 'SyncRule',
  tableName: 'sync_rule',
  properties: {
    id: uuidPrimaryKey(),
    ownerId: ownerId(),
    /** The completed migration job the rule was created from. */
    originJobId: p.uuid(),
    sourceProvider: p.text(),
    sourceAccountId: p.text(),
    sourcePlaylistId: p.text(),
    targetProvider: p.text(),
    targetAccountId: p.text(),
    targetPlaylistId: p.text(),
    mode: p.enum(SYNC_MODES).default('add_only'),
    status: p.enum(SYNC_RULE_STATUSES).default('active'),
    /** Why the rule is paused (e.g. expired credentials), for the UI's next action. */
    pauseReason: p.text().nullable(),
    intervalMinutes: p.integer(),
    nextRunAt: p.datetime().nullable(),
    lastRunAt: p.datetime().nullable(),
    consecutiveFailures: p.integer().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  indexes: [{ properties: ['ownerId'] }, { properties: ['status', 'nextRunAt'] }],
  checks: [{ name: 'sync_rule_interval_positive', expression: 'interval_minutes > 0' }],
});

export type SyncRule = InferEntity<typeof SyncRule>;
