import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, ownerId, updatedAt, uuidPrimaryKey } from './columns.ts';
import { SyncRule } from './sync-rule.entity.ts';

/** The last state of a rule's source and target committed by the sync finalizer. */
export const SyncCheckpoint = defineEntity({
  name: 'SyncCheckpoint',
  tableName: 'sync_checkpoint',
  properties: {
    id: uuidPrimaryKey(),
    ownerId: ownerId(),
    rule: p.manyToOne(SyncRule).deleteRule('cascade').unique(),
    /** The run whose finalizer committed this checkpoint. */
    runId: p.uuid().nullable(),
    /** Source snapshot identifier and track sequence seen. */
    sourceState: p.json<Record<string, unknown>>(),
    /** Target sequence (and its hash) after the committed write. */
    targetState: p.json<Record<string, unknown>>(),
    committedAt: p.datetime(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
});

export type SyncCheckpoint = InferEntity<typeof SyncCheckpoint>;
