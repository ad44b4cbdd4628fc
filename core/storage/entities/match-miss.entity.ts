import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, updatedAt, uuidPrimaryKey } from './columns.ts';

/**
 * The no-match cache: a source track the target provider's search really had no plausible match
 * for, at one strictness. Searching again waits until `retry_after` (a backoff that doubles with
 * each further miss). Global like the identity graph, so it holds no personal data: provider
 * names, a source track key (provider track id, ISRC or normalised text) and timings only.
 * Rate limits and auth errors never land here; they leave the item retryable.
 */
export const MatchMiss = defineEntity({
  name: 'MatchMiss',
  tableName: 'match_miss',
  properties: {
    id: uuidPrimaryKey(),
    sourceProvider: p.text(),
    /** `id:<provider track id>`, `isrc:<ISRC>` or `text:<normalised title|artist|duration>`. */
    sourceKey: p.text(),
    targetProvider: p.text(),
    strictness: p.text(),
    /** Misses in a row; the backoff doubles with each. */
    attempts: p.integer().default(1),
    lastTriedAt: p.datetime(),
    retryAfter: p.datetime(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  uniques: [{ properties: ['sourceProvider', 'sourceKey', 'targetProvider', 'strictness'] }],
});

export type MatchMiss = InferEntity<typeof MatchMiss>;
