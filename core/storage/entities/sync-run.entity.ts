import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, ownerId, updatedAt, uuidPrimaryKey } from './columns.ts';
import { SyncRule } from './sync-rule.entity.ts';
import { SYNC_RUN_STATUSES } from './values.ts';

/** One evaluation of a sync rule. At most one queued or running run exists per rule. */
export const SyncRun = defineEntity({
  name: 'SyncRun',
  tableName: 'sync_run',
  properties: {
    id: uuidPrimaryKey(),
    ownerId: ownerId(),
    rule: p.manyToOne(SyncRule).deleteRule('cascade'),
    status: p.enum(SYNC_RUN_STATUSES).default('queued'),
    attempt: p.integer().default(1),
    /** The schedule slot this run serves (catch-up runs have past slots). */
    scheduledFor: p.datetime(),
    sourceSnapshot: p.json<Record<string, unknown>>().nullable(),
    targetSnapshot: p.json<Record<string, unknown>>().nullable(),
    migrationJobId: p.uuid().nullable(),
    /** Lease of the worker running it; an expired lease marks a stale worker. */
    leaseOwner: p.text().nullable(),
    leaseExpiresAt: p.datetime().nullable(),
    error: p.text().nullable(),
    startedAt: p.datetime().nullable(),
    completedAt: p.datetime().nullable(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  indexes: [{ properties: ['rule', 'createdAt'] }, { properties: ['ownerId'] }],
  uniques: [{ name: 'sync_run_one_active_per_rule', properties: ['rule'], where: { status: { $in: ['queued', 'running'] } } }],
});

export type SyncRun = InferEntity<typeof SyncRun>;
