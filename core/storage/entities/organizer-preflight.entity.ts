import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, ownerId, uuidPrimaryKey } from './columns.ts';
import { ORGANIZER_ACTIONS } from './values.ts';

/**
 * A server-side organizer preflight: what a job on this selection would do, resolved with live
 * reads. Its id is the token a job must present; it expires, names its owner and the baseline it
 * saw, and starts at most one job (`organizer_job.preflight_id` is unique).
 */
export const OrganizerPreflight = defineEntity({
  name: 'OrganizerPreflight',
  tableName: 'organizer_preflight',
  properties: {
    id: uuidPrimaryKey(),
    ownerId: ownerId(),
    provider: p.text(),
    accountId: p.text(),
    action: p.enum(ORGANIZER_ACTIONS),
    /** Per playlist: name, relation, ownership evidence, and for song removal the baseline and chosen entries. */
    plan: p.json<Record<string, unknown>>(),
    /** The exact phrase a job must be confirmed with, if any. */
    confirmationPhrase: p.text().nullable(),
    expiresAt: p.datetime(),
    createdAt: createdAt(),
  },
  indexes: [{ properties: ['ownerId', 'createdAt'] }, { properties: ['expiresAt'] }],
});

export type OrganizerPreflight = InferEntity<typeof OrganizerPreflight>;
