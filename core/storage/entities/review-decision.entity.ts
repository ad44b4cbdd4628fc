import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, ownerId, updatedAt, uuidPrimaryKey } from './columns.ts';
import { ENTITY_TYPES, REVIEW_ACTIONS } from './values.ts';

/**
 * An accepted review decision, kept apart from job items so that it survives retention cleanup
 * and serves future suggestions. Validated against the target adapter before reuse.
 */
export const ReviewDecision = defineEntity({
  name: 'ReviewDecision',
  tableName: 'review_decision',
  properties: {
    id: uuidPrimaryKey(),
    ownerId: ownerId(),
    /** Where the decision applies: `provider`, `account:<id>` or a lineage such as `snapshot:<library_id>`. */
    scope: p.text(),
    /** Target provider key. */
    provider: p.text(),
    accountId: p.text().nullable(),
    entityType: p.enum(ENTITY_TYPES),
    /** Normalised identity of the source entity (ISRC, provider URI or normalised names). */
    sourceKey: p.text(),
    action: p.enum(REVIEW_ACTIONS),
    chosenTargetUri: p.text().nullable(),
    chosenTargetId: p.text().nullable(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  uniques: [{ name: 'review_decision_source_unique', properties: ['ownerId', 'provider', 'scope', 'entityType', 'sourceKey'] }],
});

export type ReviewDecision = InferEntity<typeof ReviewDecision>;
