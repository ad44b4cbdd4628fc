import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, ownerId, updatedAt, uuidPrimaryKey } from './columns.ts';
import { JobItem } from './job-item.entity.ts';
import { MigrationJob } from './migration-job.entity.ts';
import { LEDGER_STATES } from './values.ts';

/**
 * Write-ahead record of every provider write: the intent before the call, then the call, then
 * what was observed on the target. An uncertain outcome is reconciled by reading the target,
 * never by blindly repeating a non-idempotent insert.
 */
export const OperationLedger = defineEntity({
  name: 'OperationLedger',
  tableName: 'operation_ledger',
  properties: {
    id: uuidPrimaryKey(),
    ownerId: ownerId(),
    job: p.manyToOne(MigrationJob).deleteRule('cascade'),
    /** Absent for collection-level operations such as creating the target playlist. */
    item: p.manyToOne(JobItem).deleteRule('cascade').nullable(),
    /** e.g. `create_playlist`, `add_tracks`, `replace_tracks`, `save_album`, `follow_artist`. */
    operation: p.text(),
    intent: p.json<Record<string, unknown>>(),
    state: p.enum(LEDGER_STATES).default('intended'),
    idempotencyKey: p.text().unique(),
    observedTargetId: p.text().nullable(),
    observedPosition: p.integer().nullable(),
    error: p.text().nullable(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  indexes: [{ properties: ['job', 'state'] }, { properties: ['item'] }],
});

export type OperationLedger = InferEntity<typeof OperationLedger>;
