import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, ownerId, updatedAt, uuidPrimaryKey } from './columns.ts';
import { SyncRule } from './sync-rule.entity.ts';
import { SYNC_MIRROR_STEP_KINDS, SYNC_MIRROR_STEP_STATUSES } from './values.ts';

/**
 * The mirror ledger: one row per provider write of a mirror run (a removal, a move, a replacement),
 * written `intended` before the call and settled `done` or `failed` after it. A row left `intended`
 * is an ambiguous write (the process died or the answer was lost): the next run re-reads the target
 * and plans from what it finds, so nothing is applied twice by blind replay.
 */
export const SyncMirrorStep = defineEntity({
  name: 'SyncMirrorStep',
  tableName: 'sync_mirror_step',
  properties: {
    id: uuidPrimaryKey(),
    ownerId: ownerId(),
    rule: p.manyToOne(SyncRule).deleteRule('cascade'),
    runId: p.uuid(),
    /** Order of the step within its run. */
    seq: p.integer(),
    kind: p.enum(SYNC_MIRROR_STEP_KINDS),
    /** The provider call's arguments (URIs, positions, snapshot id) — never credentials. */
    payload: p.json<Record<string, unknown>>(),
    status: p.enum(SYNC_MIRROR_STEP_STATUSES).default('intended'),
    error: p.text().nullable(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  indexes: [{ properties: ['rule', 'createdAt'] }, { properties: ['runId', 'seq'] }],
});

export type SyncMirrorStep = InferEntity<typeof SyncMirrorStep>;
