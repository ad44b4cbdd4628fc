import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * The central rate limiter's state: one token bucket per provider plugin and account, shared by
 * every engine process. `blocked_until` holds a provider's Retry-After; `quota_*` counts the
 * provider's daily quota units (cost hints of the manifest).
 */
export const RateLimitBucket = defineEntity({
  name: 'RateLimitBucket',
  tableName: 'rate_limit_bucket',
  properties: {
    /** `<plugin id>|<account id or "-">`. */
    bucketKey: p.text().primary(),
    tokens: p.double(),
    refilledAt: p.datetime(),
    blockedUntil: p.datetime().nullable(),
    /** UTC day the quota counter belongs to. */
    quotaDay: p.text().nullable(),
    quotaUsed: p.double().default(0),
  },
});

export type RateLimitBucket = InferEntity<typeof RateLimitBucket>;
