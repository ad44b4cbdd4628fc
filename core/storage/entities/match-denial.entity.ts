import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, uuidPrimaryKey } from './columns.ts';

/**
 * A user's "this is not it": the target track is never auto-chosen again for this source track in
 * this scope (an `account:<id>` overlay). Private, like every overlay.
 */
export const MatchDenial = defineEntity({
  name: 'MatchDenial',
  tableName: 'match_denial',
  properties: {
    id: uuidPrimaryKey(),
    /** `account:<id>`. */
    scope: p.text(),
    sourceProvider: p.text(),
    /** Same keys as the no-match cache: `id:…`, `isrc:…` or `text:…`. */
    sourceKey: p.text(),
    targetProvider: p.text(),
    targetTrackId: p.text(),
    createdAt: createdAt(),
  },
  uniques: [{ properties: ['scope', 'sourceProvider', 'sourceKey', 'targetProvider', 'targetTrackId'] }],
  checks: [{ name: 'match_denial_scope_check', expression: `starts_with(scope, 'account:') and length(scope) > 8` }],
});

export type MatchDenial = InferEntity<typeof MatchDenial>;
