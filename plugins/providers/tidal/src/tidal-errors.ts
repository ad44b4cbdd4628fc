import { AuthExpired, InvalidInput, NotFound, ProviderError, providerKit, RateLimited, retryAfterSeconds, Unsupported, type PluginError } from '@opl/plugin-sdk';

/**
 * TIDAL answers → typed adapter errors. Messages name the status and, when present, TIDAL's
 * machine-readable error `code`; never the response body, its `detail` text or a header value.
 */

const ERROR_CODE = /^[A-Z][A-Z0-9_]{0,63}$/;

/** The first JSON:API error object's `code`, if it is a plain identifier. */
export function jsonApiErrorCode(body: unknown): string | null {
  return providerKit.firstErrorField(body, ['errors'], 'code', ERROR_CODE);
}

/** The typed error for a non-2xx answer to `what` (e.g. "reading playlist items"). */
export function errorForResponse(response: Pick<providerKit.FailedResponse, 'status' | 'headers' | 'body'>, what: string, nowIso: string): PluginError {
  const suffix = providerKit.statusSuffix(response.status, jsonApiErrorCode(response.body));
  switch (response.status) {
    case 401:
      return new AuthExpired(`TIDAL refused the connection's credential while ${what}; reconnect the account ${suffix}`);
    case 403:
      return new Unsupported(`TIDAL did not allow ${what}: the playlist is not yours, or the connection lacks a permission ${suffix}`);
    case 404:
      return new NotFound(`TIDAL has no such resource (${what}) ${suffix}`);
    case 429:
      return new RateLimited(`TIDAL is rate limiting requests (${what}) ${suffix}`, retryAfterSeconds(response.headers['retry-after'], nowIso));
    case 400:
    case 405:
    case 406:
    case 415:
    case 422:
      return new InvalidInput(`TIDAL rejected the request while ${what} ${suffix}`);
    default:
      return new ProviderError(`TIDAL failed while ${what} ${suffix}`);
  }
}
