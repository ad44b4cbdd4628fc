import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { CONFIDENCE_RANGE_CHECK, confidence, createdAt, uuidPrimaryKey } from './columns.ts';
import { TrackIdentity } from './track-identity.entity.ts';
import { EDGE_SOURCES } from './values.ts';

/**
 * Links an identity to one provider track. `global` edges hold no personal data; a user's
 * confirmation writes an `account:<id>` overlay that applies only to that account.
 */
export const TrackEdge = defineEntity({
  name: 'TrackEdge',
  tableName: 'track_edge',
  properties: {
    id: uuidPrimaryKey(),
    identity: p.manyToOne(TrackIdentity).deleteRule('cascade'),
    provider: p.text(),
    providerTrackId: p.text(),
    providerUri: p.text().nullable(),
    confidence: confidence(),
    source: p.enum(EDGE_SOURCES),
    scope: p.text().default('global'),
    createdAt: createdAt(),
  },
  indexes: [{ properties: ['identity'] }],
  uniques: [{ properties: ['provider', 'providerTrackId', 'scope'] }],
  checks: [
    { name: 'track_edge_confidence_range', expression: CONFIDENCE_RANGE_CHECK },
    { name: 'track_edge_scope_check', expression: `scope = 'global' or (starts_with(scope, 'account:') and length(scope) > 8)` },
  ],
});

export type TrackEdge = InferEntity<typeof TrackEdge>;
