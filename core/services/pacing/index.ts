export { bucketKey, QuotaExhausted, RateLimiter, RateLimitWaitTooLong, type PacedPermit, type RateLimiterOptions, type Transaction } from './rate-limiter.ts';
export { DEFAULT_BUCKET, exhaustQuota, priceRequest, quotaBucketKey, takeQuota, type PricedRequest, type Quota, type QuotaCostRule, type QuotaRequestInfo, type QuotaState } from './quota-bucket.ts';
export { nextQuotaReset, quotaDay } from './quota-day.ts';
export { quotaForecast, type BucketForecast, type QuotaForecast, type QuotaForecastOptions, type QuotaUsage } from './quota-forecast.ts';
export { freshBucket, takeToken, type BucketRules, type BucketState, type TakeOutcome } from './token-bucket.ts';
