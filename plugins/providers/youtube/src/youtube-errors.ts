import { AuthExpired, InvalidInput, NotFound, ProviderError, providerKit, RateLimited, retryAfterSeconds, Unsupported, type PluginError } from '@opl/plugin-sdk';

/**
 * YouTube Data API answers → typed adapter errors. Google's error body names a machine-readable
 * `reason` (quotaExceeded, rateLimitExceeded, playlistNotFound, …); messages carry the status and
 * that reason, never the body's prose or a header value.
 */

const REASON = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const QUOTA_REASONS = new Set(['quotaExceeded', 'dailyLimitExceeded']);
const RATE_REASONS = new Set(['rateLimitExceeded', 'userRateLimitExceeded']);
const SCOPE_REASONS = new Set(['insufficientPermissions', 'ACCESS_TOKEN_SCOPE_INSUFFICIENT']);

/** The first `error.errors[].reason` of a Google error body, when it is a plain identifier. */
export function googleErrorReason(body: unknown): string | null {
  return providerKit.firstErrorField(body, ['error', 'errors'], 'reason', REASON);
}

/**
 * The typed error for a non-2xx answer to `what`. `quotaBucket` names the manifest's quota bucket
 * the request drew from (`search` for search.list), so a provider-side "quota exceeded" marks the
 * right one; its reset time is the engine's to fill in from the manifest.
 */
export function errorForResponse(response: Pick<providerKit.FailedResponse, 'status' | 'headers' | 'body'>, what: string, nowIso: string, quotaBucket = 'default'): PluginError {
  const reason = googleErrorReason(response.body);
  const suffix = providerKit.statusSuffix(response.status, reason);
  if (reason && QUOTA_REASONS.has(reason)) return RateLimited.quotaExhausted(`YouTube's daily quota is used up (${what}) ${suffix}`, quotaBucket);
  if (response.status === 429 || (reason && RATE_REASONS.has(reason))) {
    return new RateLimited(`YouTube is rate limiting requests (${what}) ${suffix}`, retryAfterSeconds(response.headers['retry-after'], nowIso));
  }
  switch (response.status) {
    case 401:
      return new AuthExpired(`YouTube refused the connection's credential while ${what}; reconnect the account ${suffix}`);
    case 403:
      if (reason && SCOPE_REASONS.has(reason)) return new AuthExpired(`the YouTube connection lacks a permission needed for ${what}; reconnect the account with it ${suffix}`);
      return new Unsupported(`YouTube did not allow ${what}: the playlist is not yours or cannot be changed ${suffix}`);
    case 404:
      return new NotFound(`YouTube has no such resource (${what}) ${suffix}`);
    case 400:
    case 409:
      return new InvalidInput(`YouTube rejected the request while ${what} ${suffix}`);
    default:
      return new ProviderError(`YouTube failed while ${what} ${suffix}`);
  }
}

/** Whether a typed error came from a 404 with this Google `reason` (e.g. `videoNotFound`). */
export function isEntryNotFound(error: unknown, reason: string): boolean {
  return error instanceof NotFound && error.message.endsWith(`(HTTP 404 ${reason})`);
}
