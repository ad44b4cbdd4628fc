import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, ownerId, updatedAt, uuidPrimaryKey } from './columns.ts';
import { SnapshotProfile } from './snapshot-profile.entity.ts';
import { SNAPSHOT_ORIGINS, SNAPSHOT_STATUSES } from './values.ts';

/** The NOTIFY channel of snapshot changes (payload: the snapshot id). */
export const SNAPSHOT_PROGRESS_CHANNEL = 'opl_snapshot_progress';

/**
 * Snapshot row changes are the snapshot progress events: every insert or update takes the next
 * number of one sequence (the event id, so a client resuming after N misses nothing) and wakes
 * the event streams of every process through NOTIFY, whichever process made the change.
 */
export function snapshotProgressTriggerBody(): string {
  return `NEW.progress_seq := nextval('snapshot_progress_seq');
    perform pg_notify('${SNAPSHOT_PROGRESS_CHANNEL}', NEW.id::text);
    return NEW;`;
}

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
    /** Set by a trigger on every change: the snapshot progress events' ids. */
    progressSeq: p.bigint('number').nullable(),
    verifiedAt: p.datetime().nullable(),
    startedAt: p.datetime().nullable(),
    completedAt: p.datetime().nullable(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  triggers: [{ name: 'snapshot_progress', timing: 'before', events: ['insert', 'update'], forEach: 'row', body: snapshotProgressTriggerBody() }],
  indexes: [{ properties: ['ownerId', 'createdAt'] }, { properties: ['status'] }, { properties: ['profile'] }],
});

export type Snapshot = InferEntity<typeof Snapshot>;
