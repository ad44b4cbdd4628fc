import { AuthExpired, InvalidInput, NotFound, ProviderError, providerKit, RateLimited, retryAfterSeconds, Unsupported, type PluginError } from '@opl/plugin-sdk';
import { record, text } from './json-read.ts';

/**
 * Spotify's failure answers as typed adapter errors. Messages are ours, in words a user can act
 * on; of the answer only the status, Retry-After and the API's short `error.message` (sanitized)
 * are used, never a raw body. The host masks credentials on top of this.
 */

export type FailedResponse = Pick<providerKit.FailedResponse, 'status' | 'headers' | 'bodyText'>;

/** What the request was for, for messages; `ownerOnly`: a 403 means only an owner or collaborator may. */
export type RequestPurpose = providerKit.RequestPurpose;

export const SCOPE_MESSAGE = 'Insufficient client scope';

/** Spotify's `{"error": {"status", "message", "reason"?}}`; OAuth-style bodies are read too. */
export function readErrorBody(bodyText: string): { message: string | null; reason: string | null } {
  const top = record(providerKit.parseJsonOrNull(bodyText));
  const inner = record(top?.['error']);
  const message = text(inner?.['message']) ?? text(top?.['error_description']) ?? text(top?.['message']);
  const reason = text(inner?.['reason']) ?? text(top?.['reason']);
  return { message, reason };
}

/** The API's short description, kept only when it is a plain short sentence. */
export const { safeDetail } = providerKit;

export function errorForResponse(response: FailedResponse, purpose: RequestPurpose, nowMs: number): PluginError {
  const { status } = response;
  const { message, reason } = readErrorBody(response.bodyText);
  const detail = safeDetail(message);
  if (status === 401) return new AuthExpired('Spotify no longer accepts this connection (the access token expired or was revoked); reconnect the Spotify account.');
  if (status === 429) {
    const wait = retryAfterSeconds(response.headers['retry-after'], nowMs);
    if (reason === 'QUOTA_EXCEEDED') {
      return new RateLimited(`The Spotify app's request quota is exhausted, so Spotify refused ${purpose.what} and will refuse further requests until the quota resets${wait !== null ? ` (in about ${wait} s)` : ''}; this is not a short pacing limit, and retrying sooner will not help.`, wait);
    }
    return new RateLimited(`Spotify's rate limit was reached while ${purpose.what}${wait !== null ? `; retry after ${wait} s` : ''}.`, wait);
  }
  if (status === 403) {
    if (message === SCOPE_MESSAGE) return new AuthExpired(`The Spotify connection lacks a permission needed for ${purpose.what}; reconnect the Spotify account and grant the requested access.`);
    if (purpose.ownerOnly) {
      return new Unsupported(`Spotify allows ${purpose.what} only for playlists the account owns or collaborates on; this playlist belongs to someone else. Ask its owner to add you as a collaborator, or copy it into a playlist of your own in Spotify.`);
    }
    return new Unsupported(`Spotify refused ${purpose.what} for this account (403)${detail ? `: ${detail}` : ''}.`);
  }
  if (status === 404) return new NotFound(`Spotify has no such ${purpose.missing ?? 'item'} (404, while ${purpose.what}); it may have been deleted, or the id is wrong.`);
  if (status === 400 || status === 413 || status === 422) return new InvalidInput(`Spotify refused ${purpose.what} as an invalid request (${status})${detail ? `: ${detail}` : ''}.`);
  if (status >= 500) return new ProviderError(`Spotify failed while ${purpose.what} (${status}); this is usually temporary, try again later.`);
  return new ProviderError(`Spotify answered ${status} while ${purpose.what}.`);
}
