import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, ownerId, updatedAt, uuidPrimaryKey } from './columns.ts';
import { Snapshot } from './snapshot.entity.ts';
import { SNAPSHOT_REWIND_STATUSES, SYNC_MIRROR_STEP_KINDS, SYNC_MIRROR_STEP_STATUSES } from './values.ts';

/**
 * One rewind of a provider playlist to a snapshot of it ("as it was at time T"): the live playlist
 * becomes the snapshot's ordered songs by removals, moves and additions. One `running` rewind per
 * playlist at a time (claimed under an advisory lock); `stats` holds what it did and the automatic
 * snapshot taken before it.
 */
export const SnapshotRewind = defineEntity({
  name: 'SnapshotRewind',
  tableName: 'snapshot_rewind',
  properties: {
    id: uuidPrimaryKey(),
    ownerId: ownerId(),
    /** The snapshot the playlist is put back to; null once that snapshot is deleted (the ledger stays). */
    snapshot: p.manyToOne(Snapshot).deleteRule('set null').nullable(),
    accountId: p.uuid(),
    playlistId: p.text(),
    status: p.enum(SNAPSHOT_REWIND_STATUSES).default('running'),
    stats: p.json<Record<string, unknown>>().defaultRaw(`'{}'::jsonb`),
    error: p.text().nullable(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  indexes: [{ properties: ['ownerId', 'accountId', 'playlistId', 'createdAt'] }],
});

/**
 * The rewind ledger: one row per provider write, `intended` before the call and settled `done` or
 * `failed` after it — the mirror ledger's protocol (`sync_mirror_step`), written by the same
 * shared writer. A row left `intended` is an ambiguous write: the next rewind reads the playlist
 * again and plans from what it finds, so nothing is applied twice.
 */
export const SnapshotRewindStep = defineEntity({
  name: 'SnapshotRewindStep',
  tableName: 'snapshot_rewind_step',
  properties: {
    id: uuidPrimaryKey(),
    ownerId: ownerId(),
    rewind: p.manyToOne(SnapshotRewind).deleteRule('cascade'),
    seq: p.integer(),
    kind: p.enum(SYNC_MIRROR_STEP_KINDS),
    /** The provider call's arguments (URIs, positions, snapshot id) — never credentials. */
    payload: p.json<Record<string, unknown>>(),
    status: p.enum(SYNC_MIRROR_STEP_STATUSES).default('intended'),
    error: p.text().nullable(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  indexes: [{ properties: ['rewind', 'seq'] }],
});

export type SnapshotRewind = InferEntity<typeof SnapshotRewind>;
export type SnapshotRewindStep = InferEntity<typeof SnapshotRewindStep>;
