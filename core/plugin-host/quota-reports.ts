import { RateLimited } from '@opl/plugin-sdk';
import { parseBoundaryJson } from '@opl/plugin-sdk/sandbox';
import type { PendingCall, PluginHostLogger, PluginHostOptions } from './plugin-host.types.ts';

/** How a call's used-up daily quota is told to the limiter and to the caller. */

export interface QuotaReporting {
  readonly onQuotaExhausted: PluginHostOptions['onQuotaExhausted'];
  readonly logger: PluginHostLogger;
}

/**
 * A call that ran into a used-up daily quota fails with one recognisable error: RateLimited with
 * `quota` set and `retry_after_s` until the reset. When the limiter refused a request of the call
 * this holds whatever the plugin made of the failed fetch; when the provider itself answered
 * "quota exhausted" the bucket is marked spent so no process sends more of it today.
 */
export async function quotaAwareError(call: PendingCall, error: Error, options: QuotaReporting): Promise<Error> {
  const reported = error instanceof RateLimited ? error.quota : null;
  if (call.quotaRefusal) {
    if (reported) return error;
    const { bucket, resets_at: resetsAt } = call.quotaRefusal;
    return RateLimited.quotaExhausted(
      `${call.pluginId}: the daily quota${bucket === 'default' ? '' : ` (${bucket})`} is used up; the engine sent no request beyond it`,
      bucket,
      resetsAt,
      new Date().toISOString(),
    );
  }
  if (!reported || !options.onQuotaExhausted) return error;
  let resetsAt: Date | null = null;
  try {
    resetsAt = await options.onQuotaExhausted({ pluginId: call.pluginId, accountId: call.accountId, bucket: reported.bucket });
  } catch (failure) {
    options.logger.warn({ plugin: call.pluginId, err: failure }, 'the quota bucket could not be marked exhausted');
  }
  if (!resetsAt) return error;
  const withoutMarker = error.message.replace(RateLimited.quotaMarker(reported), '').trim();
  return RateLimited.quotaExhausted(withoutMarker, reported.bucket, resetsAt.toISOString(), new Date().toISOString());
}

/**
 * A batch write that ran into the provider's own "quota exhausted" midway answers per item
 * rather than failing: its stopped items carry the quota marker, and the bucket is marked spent
 * all the same.
 */
export async function markQuotaFromResults(call: PendingCall, json: string, options: QuotaReporting): Promise<void> {
  if (!options.onQuotaExhausted) return;
  let results: unknown;
  try {
    results = (parseBoundaryJson(json) as { results?: unknown } | null)?.results;
  } catch {
    return;
  }
  if (!Array.isArray(results)) return;
  const buckets = new Set<string>();
  for (const entry of results as { error?: { type?: unknown; message?: unknown } | null }[]) {
    const message = entry?.error?.type === 'RateLimited' ? entry.error.message : null;
    const quota = typeof message === 'string' ? RateLimited.parseQuota(message) : null;
    if (quota) buckets.add(quota.bucket);
  }
  for (const bucket of buckets) {
    try {
      await options.onQuotaExhausted({ pluginId: call.pluginId, accountId: call.accountId, bucket });
    } catch (failure) {
      options.logger.warn({ plugin: call.pluginId, err: failure }, 'the quota bucket could not be marked exhausted');
    }
  }
}
