import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { CONFIDENCE_RANGE_CHECK, confidence, createdAt, ownerId, updatedAt, uuidPrimaryKey } from './columns.ts';
import { MigrationJob, progressTriggerBody } from './migration-job.entity.ts';
import { ENTITY_TYPES, ITEM_STATUSES, REVIEW_ACTIONS } from './values.ts';

/** One entity-typed row of a migration job: the private migration ledger and the report's rows. */
export const JobItem = defineEntity({
  name: 'JobItem',
  tableName: 'job_item',
  properties: {
    id: uuidPrimaryKey(),
    ownerId: ownerId(),
    job: p.manyToOne(MigrationJob).deleteRule('cascade'),
    entityType: p.enum(ENTITY_TYPES),
    status: p.enum(ITEM_STATUSES).default('pending'),
    sourcePlaylistId: p.text().nullable(),
    sourcePlaylistName: p.text().nullable(),
    targetPlaylistId: p.text().nullable(),
    position: p.integer().nullable(),
    title: p.text().nullable(),
    artist: p.text().nullable(),
    album: p.text().nullable(),
    durationS: p.integer().nullable(),
    releaseYear: p.integer().nullable(),
    explicit: p.boolean().nullable(),
    isrc: p.text().nullable(),
    /** Generic source entity id and display name (album or artist items have no track id). */
    sourceEntityId: p.text().nullable(),
    sourceEntityName: p.text().nullable(),
    sourceTrackId: p.text().nullable(),
    sourceItemId: p.text().nullable(),
    sourceUri: p.text().nullable(),
    /** Complete universal Track, Album or Artist metadata. */
    sourceMetadata: p.json<Record<string, unknown>>().nullable(),
    targetUri: p.text().nullable(),
    targetId: p.text().nullable(),
    targetEntityId: p.text().nullable(),
    confidence: confidence().nullable(),
    reason: p.text().nullable(),
    reviewAction: p.enum(REVIEW_ACTIONS).nullable(),
    reviewOriginalStatus: p.enum(ITEM_STATUSES).nullable(),
    reviewOriginalReason: p.text().nullable(),
    reviewedAt: p.datetime().nullable(),
    /** Ranked target candidates for review, with each one's score and reason. */
    candidates: p.json<unknown[]>().nullable(),
    /** The match decision's signals and penalties, shown as the reason. */
    matchDetail: p.json<Record<string, unknown>>().nullable(),
    /** Set by a trigger on every change: the server-sent progress events' ids. */
    progressSeq: p.bigint('number').nullable(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  triggers: [{ name: 'job_item_progress', timing: 'before', events: ['insert', 'update'], forEach: 'row', body: progressTriggerBody('job_id') }],
  indexes: [
    { properties: ['job', 'entityType', 'position'] },
    { properties: ['job', 'status'] },
    { properties: ['ownerId'] },
    { properties: ['job', 'progressSeq'] },
  ],
  checks: [{ name: 'job_item_confidence_range', expression: CONFIDENCE_RANGE_CHECK }],
});

export type JobItem = InferEntity<typeof JobItem>;
