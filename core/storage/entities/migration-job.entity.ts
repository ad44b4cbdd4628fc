import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, ownerId, updatedAt, uuidPrimaryKey } from './columns.ts';
import { JOB_ORIGINS, JOB_OUTCOMES, MATCH_STRICTNESS, MIGRATION_JOB_STATUSES, MIGRATION_PHASES, SOURCE_KINDS } from './values.ts';

/**
 * A migration from a source to a target. Summary, warnings, lifecycle timestamps and the
 * selection (with its playlist-level snapshot) are kept indefinitely; item detail expires at
 * `detail_expires_at`.
 */
/** First key of the per-job progress lock; the migration services take the same lock. */
export const MIGRATION_PROGRESS_LOCK = 1_869_181;

/**
 * Progress events are the rows themselves: every insert or update of a job or one of its items
 * takes the next number of one sequence under the job's transaction lock, so within a job the
 * numbers follow commit order and a client resuming after number N misses nothing; the
 * notification (delivered at commit) wakes the event streams of every process.
 */
export function progressTriggerBody(jobIdColumn: 'id' | 'job_id'): string {
  return `perform pg_advisory_xact_lock(${MIGRATION_PROGRESS_LOCK}, hashtext(NEW.${jobIdColumn}::text));
    NEW.progress_seq := nextval('migration_progress_seq');
    perform pg_notify('opl_migration_progress', NEW.${jobIdColumn}::text);
    return NEW;`;
}

export const MigrationJob = defineEntity({
  name: 'MigrationJob',
  tableName: 'migration_job',
  properties: {
    id: uuidPrimaryKey(),
    ownerId: ownerId(),
    sourceProvider: p.text(),
    /** Historical source account id; for imports the import record id, for snapshots the snapshot id. */
    sourceAccountId: p.text(),
    targetProvider: p.text(),
    targetAccountId: p.text(),
    sourceKind: p.enum(SOURCE_KINDS).default('provider'),
    sourceSnapshotId: p.uuid().nullable(),
    origin: p.enum(JOB_ORIGINS).default('user'),
    syncRunId: p.uuid().nullable(),
    /** Mirror sync runs match without writing; the sync finalizer replaces the target in one step. */
    matchOnly: p.boolean().default(false),
    strictness: p.enum(MATCH_STRICTNESS).default('same_recording'),
    status: p.enum(MIGRATION_JOB_STATUSES).default('queued'),
    outcome: p.enum(JOB_OUTCOMES).default('pending'),
    phase: p.enum(MIGRATION_PHASES).default('created'),
    /** The worker holding the job; a lease that is not renewed expires and another worker resumes. */
    leaseOwner: p.text().nullable(),
    leaseExpiresAt: p.datetime().nullable(),
    /** A paused job (quota exhausted until reset) is queued again at this time. */
    resumeAt: p.datetime().nullable(),
    /** Machine-readable cause of a pause or failure (`auth_expired`, `quota_exhausted`, …). */
    errorCode: p.text().nullable(),
    detailPurgedAt: p.datetime().nullable(),
    /** Set by a trigger on every change: the server-sent progress events' ids. */
    progressSeq: p.bigint('number').nullable(),
    /** Selected collections and tracks, plus a playlist-level snapshot for history exports. */
    selection: p.json<Record<string, unknown>>(),
    /** Preflight and runtime warnings. */
    warnings: p.json<unknown[]>().defaultRaw(`'[]'::jsonb`),
    /** Warning codes the user acknowledged before the job started. */
    acknowledgedWarnings: p.json<unknown[]>().defaultRaw(`'[]'::jsonb`),
    /** Compact result summary: per-entity and per-status counts, target collection mappings. */
    summary: p.json<Record<string, unknown>>().nullable(),
    error: p.text().nullable(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    startedAt: p.datetime().nullable(),
    completedAt: p.datetime().nullable(),
    detailExpiresAt: p.datetime().nullable(),
  },
  triggers: [{ name: 'migration_job_progress', timing: 'before', events: ['insert', 'update'], forEach: 'row', body: progressTriggerBody('id') }],
  indexes: [
    { properties: ['ownerId', 'createdAt'] },
    { properties: ['status'] },
    { properties: ['detailExpiresAt'] },
    { properties: ['syncRunId'] },
    { properties: ['targetAccountId', 'createdAt'] },
  ],
});

export type MigrationJob = InferEntity<typeof MigrationJob>;
