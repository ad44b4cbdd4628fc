import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, ownerId, updatedAt, uuidPrimaryKey } from './columns.ts';
import { ORGANIZER_ACTIONS, ORGANIZER_JOB_STATUSES } from './values.ts';

/** A confirmed playlist-maintenance job (safe removal, permanent deletion or song removal). */
export const OrganizerJob = defineEntity({
  name: 'OrganizerJob',
  tableName: 'organizer_job',
  properties: {
    id: uuidPrimaryKey(),
    ownerId: ownerId(),
    provider: p.text(),
    accountId: p.text(),
    mode: p.enum(ORGANIZER_ACTIONS),
    status: p.enum(ORGANIZER_JOB_STATUSES).default('queued'),
    /** Server-side preflight result: ownership and capabilities resolved for every selection. */
    preflight: p.json<Record<string, unknown>>(),
    /** When the typed confirmation was checked. */
    confirmedAt: p.datetime(),
    /** The preflight this job was started from: one job per preflight. */
    preflightId: p.uuid().nullable().unique(),
    /** The worker running the job holds it until then (renewed per item); a crashed worker's lease runs out. */
    leaseOwner: p.text().nullable(),
    leaseUntil: p.datetime().nullable(),
    summary: p.json<Record<string, unknown>>().nullable(),
    error: p.text().nullable(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    startedAt: p.datetime().nullable(),
    completedAt: p.datetime().nullable(),
  },
  indexes: [{ properties: ['ownerId', 'createdAt'] }, { properties: ['status'] }],
});

export type OrganizerJob = InferEntity<typeof OrganizerJob>;
