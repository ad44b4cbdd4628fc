import type { AddressRange } from './ip-address.ts';
import type { UrlRefusalReason } from './public-url.ts';

/**
 * Stable codes of a refused or failed safe fetch. `detail` says what happened in words a user can
 * act on and never contains a URL's userinfo, query or the addresses a name resolved to.
 */
export const SAFE_FETCH_CODES = [
  'url_not_allowed',
  'destination_not_public',
  'dns_failed',
  'too_many_redirects',
  'invalid_redirect',
  'headers_too_large',
  'response_too_large',
  'compressed_response',
  'timeout',
  'aborted',
  'network_error',
] as const;

export type SafeFetchCode = (typeof SAFE_FETCH_CODES)[number];

/** For `url_not_allowed` the URL rule that refused; for `destination_not_public` the address range. */
export type SafeFetchReason = UrlRefusalReason | AddressRange;

export class SafeFetchError extends Error {
  override readonly name = 'SafeFetchError';
  readonly code: SafeFetchCode;
  readonly reason: SafeFetchReason | null;
  readonly detail: string;

  constructor(code: SafeFetchCode, detail: string, reason: SafeFetchReason | null = null) {
    super(detail);
    this.code = code;
    this.reason = reason;
    this.detail = detail;
  }
}

export function isSafeFetchError(value: unknown): value is SafeFetchError {
  return value instanceof SafeFetchError;
}
