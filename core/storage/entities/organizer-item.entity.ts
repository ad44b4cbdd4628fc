import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, ownerId, updatedAt, uuidPrimaryKey } from './columns.ts';
import { OrganizerJob } from './organizer-job.entity.ts';
import { ORGANIZER_ACTIONS, ORGANIZER_ITEM_STATUSES } from './values.ts';

/**
 * One playlist and action of an organizer job. Idempotency lives here (the migration operation
 * ledger is not used): a retry resets only failed, retryable items; song removal succeeds after
 * an ambiguous response only if the exact expected sequence is observed.
 */
export const OrganizerItem = defineEntity({
  name: 'OrganizerItem',
  tableName: 'organizer_item',
  properties: {
    id: uuidPrimaryKey(),
    ownerId: ownerId(),
    job: p.manyToOne(OrganizerJob).deleteRule('cascade'),
    playlistId: p.text(),
    playlistName: p.text().nullable(),
    action: p.enum(ORGANIZER_ACTIONS),
    status: p.enum(ORGANIZER_ITEM_STATUSES).default('pending'),
    retryable: p.boolean().default(false),
    idempotencyKey: p.text().unique(),
    /** Provider snapshot identifier the selected entries refer to. */
    snapshotId: p.text().nullable(),
    /** Selected entries for song removal: URI and exact positions. */
    entries: p.json<unknown[]>().nullable(),
    /** Per-occurrence video-entry ids (unofficial video-music provider). */
    setVideoIds: p.array().columnType('text[]').nullable(),
    /** Song removal: the playlist's entries (URI keys and entry ids) the preflight saw, in order. */
    baseline: p.json<unknown[]>().nullable(),
    /** How the playlist relates to the account as the preflight read it (owned, collaborative, followed). */
    relation: p.text().nullable(),
    /** What the user should know about the outcome (copies put back, already absent, …). */
    notes: p.json<string[]>().nullable(),
    baselineSequenceHash: p.text().nullable(),
    expectedSequenceHash: p.text().nullable(),
    attempts: p.integer().default(0),
    errorCode: p.text().nullable(),
    error: p.text().nullable(),
    completedAt: p.datetime().nullable(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  indexes: [{ properties: ['job', 'status'] }, { properties: ['ownerId'] }],
  uniques: [{ properties: ['job', 'playlistId', 'action'] }],
});

export type OrganizerItem = InferEntity<typeof OrganizerItem>;
