import { AuthExpired, InvalidInput, NotFound, ProviderError, providerKit, RateLimited, retryAfterSeconds, Unsupported, type PluginError } from '@opl/plugin-sdk';
import { record, records, text } from './json-read.ts';

/**
 * InnerTube's failure answers as typed adapter errors. Google's envelope is
 * `{error: {code, message, errors: [{reason}], status}}`; of it only the status, the `status`
 * word, the reason and Retry-After are used — never the body's text, which may echo the request.
 * Messages are ours, in words a user can act on.
 */

export type FailedResponse = Pick<providerKit.FailedResponse, 'status' | 'headers' | 'bodyText'>;

/** What the request was for, for messages; `ownerOnly`: a 403 means only the playlist's owner may. */
export type RequestPurpose = providerKit.RequestPurpose;

/** The `status` word and first `reason` of Google's error envelope. */
export function readGoogleError(bodyText: string): { status: string | null; reason: string | null } {
  const error = record(record(providerKit.parseJsonOrNull(bodyText))?.['error']);
  const status = text(error?.['status']);
  const reason = text(records(error?.['errors'])[0]?.['reason']);
  const clean = (value: string | null) => (value !== null && /^[A-Za-z_]{1,60}$/.test(value) ? value : null);
  return { status: clean(status), reason: clean(reason) };
}

export function errorForResponse(response: FailedResponse, purpose: RequestPurpose, nowMs: number): PluginError {
  const { status } = response;
  const google = readGoogleError(response.bodyText);
  if (status === 401) return new AuthExpired('YouTube Music no longer accepts this connection (the sign-in expired or was revoked); reconnect the YouTube Music account.');
  if (status === 429) {
    const wait = retryAfterSeconds(response.headers['retry-after'], nowMs);
    return new RateLimited(`YouTube Music asked us to slow down while ${purpose.what}${wait !== null ? `; retry after ${wait} s` : ''}.`, wait);
  }
  if (status === 403) {
    if (purpose.ownerOnly && google.reason !== 'ACCESS_TOKEN_SCOPE_INSUFFICIENT') {
      return new Unsupported(`YouTube Music allows ${purpose.what} only for playlists the account owns; this playlist belongs to someone else. Copy it into a playlist of your own instead.`);
    }
    return new AuthExpired(`YouTube Music refused ${purpose.what} for this connection (403); reconnect the YouTube Music account and allow access to it.`);
  }
  if (status === 404) return new NotFound(`YouTube Music has no such ${purpose.missing ?? 'item'} (while ${purpose.what}); it may have been deleted, made private, or the id is wrong.`);
  if (status === 400 || status === 413) return new InvalidInput(`YouTube Music refused ${purpose.what} as an invalid request (${status}${google.status ? ` ${google.status}` : ''}).`);
  if (status >= 500) return new ProviderError(`YouTube Music failed while ${purpose.what} (${status}); this is usually temporary, try again later.`);
  return new ProviderError(`YouTube Music answered ${status} while ${purpose.what}.`);
}
