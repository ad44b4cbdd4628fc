import { AuthExpired, InvalidInput, NotFound, ProviderError, providerKit, RateLimited, retryAfterSeconds, type PluginError } from '@opl/plugin-sdk';

/**
 * Apple Music answers → typed adapter errors. Apple's error document is
 * `{errors: [{id, title, detail, status, code}]}`; messages name the HTTP status and Apple's numeric
 * error `code` only — never the body, its `detail` text or a header value.
 */

const ERROR_CODE = /^\d{5}$/;

/** The first error object's `code` (`40400`), when it is Apple's five-digit form. */
export function appleErrorCode(body: unknown): string | null {
  return providerKit.firstErrorField(body, ['errors'], 'code', ERROR_CODE);
}

/** The typed error for a non-2xx answer to `what` ("reading playlist tracks"). */
export function errorForResponse(response: Pick<providerKit.FailedResponse, 'status' | 'headers' | 'body'>, what: string, nowIso: string): PluginError {
  const suffix = providerKit.statusSuffix(response.status, appleErrorCode(response.body));
  switch (response.status) {
    case 401:
    case 403:
      // A music user token cannot be renewed by the engine: the user signs in again.
      return new AuthExpired(`Apple Music refused the connection while ${what}: the music user token expired or was revoked (or the developer token was refused); reconnect the account ${suffix}`);
    case 404:
      return new NotFound(`Apple Music has no such resource (${what}) ${suffix}`);
    case 429:
      return new RateLimited(`Apple Music is rate limiting requests (${what}) ${suffix}`, retryAfterSeconds(response.headers['retry-after'], nowIso));
    case 400:
    case 405:
    case 409:
    case 413:
    case 415:
    case 422:
      return new InvalidInput(`Apple Music rejected the request while ${what} ${suffix}`);
    default:
      return new ProviderError(`Apple Music failed while ${what} ${suffix}`);
  }
}
