import { ProviderError, type ProviderContext } from '@opl/plugin-sdk';
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

function nowMs(ctx: ProviderContext): number {
  const parsed = Date.parse(ctx.now());
  return Number.isNaN(parsed) ? 0 : parsed;
}

/** Sends one request and returns the parsed JSON answer (null for an empty 2xx body). */
export async function spotifyRequest(ctx: ProviderContext, call: SpotifyCall): Promise<unknown> {
  const method = call.method ?? 'GET';
  const init = call.body === undefined ? { method } : { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(call.body) };
  let response;
  try {
    response = await ctx.fetch(`${API_BASE}${call.path}`, init);
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'the request failed';
    if (method === 'GET') throw new ProviderError(`Could not reach Spotify while ${call.what}: ${reason}`);
    // The request may have reached Spotify and been applied; only a read can tell.
    throw new ProviderError(`The answer from Spotify was lost while ${call.what}: ${reason}. The change may or may not have been applied; read the playlist or library before retrying.`);
  }
  if (response.status < 200 || response.status >= 300) {
    throw errorForResponse({ status: response.status, headers: response.headers, bodyText: response.text() }, call, nowMs(ctx));
  }
  const bodyText = response.text();
  if (bodyText.trim() === '') return null;
  try {
    return JSON.parse(bodyText) as unknown;
  } catch {
    throw new ProviderError(`Spotify sent an unreadable answer while ${call.what}.`);
  }
}
