import { AuthExpired, InvalidInput, NotFound, ProviderError, providerKit, RateLimited, Unsupported, type PluginError } from '@opl/plugin-sdk';
import { integer, record, text } from './json-read.ts';

/**
 * Deezer's failures as typed adapter errors. The API answers almost every failure with HTTP 200
 * and `{"error": {"type", "message", "code"}}`, so a 200 is never success until its body says so.
 * Codes (Deezer's published list): 4 quota, 100 items limit, 200 permission, 300 invalid token,
 * 500/501 parameters, 600 invalid query, 700 busy, 800 no data, 901 individual account. Messages
 * are ours; of the answer only the code and a sanitized short message are used.
 */

/** What the request was for; `missing` names what "no data" (800) means is missing. */
export type RequestPurpose = providerKit.RequestPurpose;

export interface DeezerErrorBody {
  readonly type: string | null;
  readonly message: string | null;
  readonly code: number | null;
}

/** Deezer's window is 50 requests per 5 seconds: after a quota answer, the next window is at most 5 s away. */
export const QUOTA_RETRY_AFTER_S = 5;

export const DUPLICATE_MESSAGE = 'Deezer playlists hold each track at most once, and this track is already in the playlist.';

/** The refusal of a track that is already in the playlist (the whole request is refused). */
export class DuplicateTrack extends InvalidInput {
  constructor() {
    super(DUPLICATE_MESSAGE);
  }
}

/** The `error` object of an answer, or null when the answer is not an error. */
export function readErrorBody(body: unknown): DeezerErrorBody | null {
  const error = record(record(body)?.['error']);
  if (!error) return null;
  const code = integer(error['code']) ?? (typeof error['code'] === 'string' && /^\d+$/.test(error['code']) ? Number(error['code']) : null);
  return { type: text(error['type']), message: text(error['message']), code };
}

export function errorFromBody(error: DeezerErrorBody, purpose: RequestPurpose): PluginError {
  const detail = providerKit.safeDetail(error.message);
  switch (error.code) {
    case 4:
      return new RateLimited(`Deezer's request limit (50 requests per 5 seconds) was reached while ${purpose.what}; retry in a few seconds.`, QUOTA_RETRY_AFTER_S);
    case 700:
      return new ProviderError(`Deezer was too busy to answer while ${purpose.what}; this is usually temporary, try again later.`);
    case 300:
      return new AuthExpired('Deezer no longer accepts this connection (the access token expired or was revoked); reconnect the Deezer account.');
    case 200:
      if (purpose.ownerOnly) {
        return new Unsupported(`Deezer allows ${purpose.what} only for playlists the account created or collaborates on; this one belongs to someone else. Copy it into a playlist of your own first.`);
      }
      return new AuthExpired(`The Deezer connection lacks a permission needed for ${purpose.what}, or it has ended; reconnect the Deezer account and grant the requested access.`);
    case 800:
      return new NotFound(`Deezer has no such ${purpose.missing ?? 'item'} (while ${purpose.what}); it may have been deleted, or the id is wrong.`);
    case 100:
      return new InvalidInput(`Deezer refused ${purpose.what}: too many items at once, or the playlist or library is full.`);
    case 500:
      if (error.message !== null && /already exists/i.test(error.message)) return new DuplicateTrack();
      return new InvalidInput(`Deezer refused ${purpose.what} as an invalid request${detail ? `: ${detail}` : ''}.`);
    case 501:
    case 600:
      return new InvalidInput(`Deezer refused ${purpose.what} as an invalid request${detail ? `: ${detail}` : ''}.`);
    case 901:
      return new Unsupported(`Deezer does not allow ${purpose.what} for this kind of account (family sub-accounts cannot change it).`);
    default:
      return new ProviderError(`Deezer refused ${purpose.what} (${error.type ?? 'error'}${error.code !== null ? ` ${error.code}` : ''})${detail ? `: ${detail}` : ''}.`);
  }
}

/** A non-2xx HTTP answer: only Deezer's gateway sends these. */
export function errorFromStatus(status: number, retryAfter: string | undefined, purpose: RequestPurpose): PluginError {
  if (status === 429) {
    const wait = retryAfter !== undefined && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter.trim()) : QUOTA_RETRY_AFTER_S;
    return new RateLimited(`Deezer's rate limit was reached while ${purpose.what}; retry after ${wait} s.`, wait);
  }
  if (status >= 500) return new ProviderError(`Deezer failed while ${purpose.what} (${status}); this is usually temporary, try again later.`);
  return new ProviderError(`Deezer answered ${status} while ${purpose.what}.`);
}
