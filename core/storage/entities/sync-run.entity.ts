import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, ownerId, updatedAt, uuidPrimaryKey } from './columns.ts';
import { SyncRule, syncProgressTriggerBody } from './sync-rule.entity.ts';
import { SYNC_RUN_STATUSES } from './values.ts';

/**
 * One evaluation of a sync rule. At most one queued, running, review- or approval-waiting run exists per rule
 * (a partial unique index), whatever number of worker processes evaluate the schedule.
 */
export const SyncRun = defineEntity({
  name: 'SyncRun',
  tableName: 'sync_run',
  properties: {
    id: uuidPrimaryKey(),
    ownerId: ownerId(),
    rule: p.manyToOne(SyncRule).deleteRule('cascade'),
    status: p.enum(SYNC_RUN_STATUSES).default('queued'),
    attempt: p.integer().default(1),
    /** `schedule`, `manual` or `retry`. */
    trigger: p.text().default('schedule'),
    /** The schedule slot this run serves (catch-up runs have past slots). */
    scheduledFor: p.datetime(),
    sourceSnapshot: p.json<Record<string, unknown>>().nullable(),
    targetSnapshot: p.json<Record<string, unknown>>().nullable(),
    migrationJobId: p.uuid().nullable(),
    /** What the run found: tracks added to the source, whether it was unchanged, provider reads. */
    stats: p.json<Record<string, unknown>>().nullable(),
    /** Lease of the worker running it; an expired lease marks a stale worker. */
    leaseOwner: p.text().nullable(),
    leaseExpiresAt: p.datetime().nullable(),
    errorCode: p.text().nullable(),
    error: p.text().nullable(),
    startedAt: p.datetime().nullable(),
    completedAt: p.datetime().nullable(),
    progressSeq: p.bigint('number').nullable(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  triggers: [{ name: 'sync_run_progress', timing: 'before', events: ['insert', 'update'], forEach: 'row', body: syncProgressTriggerBody() }],
  indexes: [{ properties: ['rule', 'createdAt'] }, { properties: ['ownerId'] }, { properties: ['migrationJobId'] }, { properties: ['ownerId', 'progressSeq'] }],
  uniques: [{ name: 'sync_run_one_active_per_rule', properties: ['rule'], where: { status: { $in: ['queued', 'running', 'review_required', 'approval_required'] } } }],
});

export type SyncRun = InferEntity<typeof SyncRun>;
