import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, ownerId, updatedAt, uuidPrimaryKey } from './columns.ts';
import { SnapshotProfile } from './snapshot-profile.entity.ts';
import { SNAPSHOT_ORIGINS, SNAPSHOT_STATUSES } from './values.ts';

/** A library snapshot archive (ZIP64 under the snapshot directory) and its verified facts. */
export const Snapshot = defineEntity({
  name: 'Snapshot',
  tableName: 'snapshot',
  properties: {
    id: uuidPrimaryKey(),
    ownerId: ownerId(),
    profile: p.manyToOne(SnapshotProfile).deleteRule('set null').nullable(),
    /** Library lineage UUID, copied from the profile; recorded in the manifest. */
    libraryId: p.uuid(),
    status: p.enum(SNAPSHOT_STATUSES).default('queued'),
    origin: p.enum(SNAPSHOT_ORIGINS).default('created'),
    /** Collections written so far out of those selected, while the job runs (the SSE progress). */
    progress: p.json<Record<string, unknown>>().defaultRaw(`'{}'::jsonb`),
    /** The verified manifest (its collections are what a restore offers); null until verified. */
    manifest: p.json<Record<string, unknown>>().nullable(),
    /** The reason code of the last failed verification (SPEC "Snapshot archive failing verification"). */
    verificationReason: p.text().nullable(),
    /** Archive path relative to the snapshot directory. */
    archivePath: p.text().nullable(),
    archiveSha256: p.text().nullable(),
    archiveBytes: p.bigint('number').nullable(),
    schemaVersion: p.integer().nullable(),
    /** Collection and item counts, and per-collection read failures. */
    counts: p.json<Record<string, unknown>>().defaultRaw(`'{}'::jsonb`),
    /** Per-collection payload and item checksums. */
    checksums: p.json<Record<string, unknown>>().defaultRaw(`'{}'::jsonb`),
    error: p.text().nullable(),
    verifiedAt: p.datetime().nullable(),
    startedAt: p.datetime().nullable(),
    completedAt: p.datetime().nullable(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  indexes: [{ properties: ['ownerId', 'createdAt'] }, { properties: ['status'] }, { properties: ['profile'] }],
});

export type Snapshot = InferEntity<typeof Snapshot>;
