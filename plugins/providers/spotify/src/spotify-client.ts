import { ProviderError, providerKit, type ProviderContext } from '@opl/plugin-sdk';
import { errorForResponse, type RequestPurpose } from './response-errors.ts';

/**
 * The one way this plugin talks to the Web API. The host attaches the account's token and grants
 * only the declared paths; here every answer other than 2xx becomes a typed error, a lost answer
 * becomes a `ProviderError` that says whether a write may have been applied, and a 2xx body that
 * is not JSON is a provider failure rather than an empty result.
 */

export const API_BASE = 'https://api.spotify.com/v1';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface SpotifyCall extends RequestPurpose {
  readonly method?: Method;
  /** Path under `/v1` (`/me/playlists`) with its query. */
  readonly path: string;
  readonly body?: unknown;
}

/** Sends one request and returns the parsed JSON answer (null for an empty 2xx body). */
export async function spotifyRequest(ctx: ProviderContext, call: SpotifyCall): Promise<unknown> {
  const method = call.method ?? 'GET';
  return providerKit.requestJson(ctx, {
    url: `${API_BASE}${call.path}`,
    init: call.body === undefined ? { method } : { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(call.body) },
    // A write may have reached Spotify and been applied; only a read can tell.
    unreachable: (error) => providerKit.unreachableError(error, { provider: 'Spotify', what: call.what, write: method !== 'GET' }),
    failed: (response) => errorForResponse(response, call, providerKit.nowMs(ctx)),
    unreadable: () => new ProviderError(`Spotify sent an unreadable answer while ${call.what}.`),
  });
}
