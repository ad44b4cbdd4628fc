import { ProviderError, providerKit, type ProviderContext } from '@opl/plugin-sdk';
import { errorFromBody, errorFromStatus, readErrorBody, type RequestPurpose } from './deezer-errors.ts';

/**
 * The one way this plugin talks to the API. The host adds the account's token (Deezer takes it
 * only as the `access_token` query parameter; the host sets it on the wire URL, so it never passes
 * through here) and grants only the declared paths. Every answer is checked for Deezer's
 * 200-with-error body before it counts as success; a lost answer to a write says the change may
 * have been applied.
 */

export const API_BASE = 'https://api.deezer.com';

type Method = 'GET' | 'POST' | 'DELETE';

export interface DeezerCall extends RequestPurpose {
  readonly method?: Method;
  /** Path on the API origin (`/user/me/playlists`). */
  readonly path: string;
  readonly query?: Readonly<Record<string, string | number | boolean>>;
}

/** The request URL. Built by hand: the sandbox has no `URL` global. */
export function requestUrl(path: string, query: DeezerCall['query'] = {}): string {
  const pairs = Object.entries(query).map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
  return `${API_BASE}${path}${pairs.length > 0 ? `?${pairs.join('&')}` : ''}`;
}

/** Sends one request; returns the parsed answer (JSON `true` for most writes). */
export async function deezerRequest(ctx: ProviderContext, call: DeezerCall): Promise<unknown> {
  const method = call.method ?? 'GET';
  const body = await providerKit.requestJson(ctx, {
    url: requestUrl(call.path, call.query),
    init: { method },
    unreachable: (error) => providerKit.unreachableError(error, { provider: 'Deezer', what: call.what, write: method !== 'GET' }),
    failed: (response) => errorFromStatus(response.status, response.headers['retry-after'], call),
    unreadable: () => new ProviderError(`Deezer sent an unreadable answer while ${call.what}.`),
    // Every answer, a write's included, is JSON (`true`, or the 200-with-error body).
    emptyIsNull: false,
  });
  const error = readErrorBody(body);
  if (error) throw errorFromBody(error, call);
  return body;
}

/** A write whose answer must be `true`: anything else is not a confirmed success. */
export async function deezerWrite(ctx: ProviderContext, call: DeezerCall & { readonly method: 'POST' | 'DELETE' }): Promise<void> {
  const answer = await deezerRequest(ctx, call);
  if (answer !== true) throw new ProviderError(`Deezer did not confirm ${call.what}; read the playlist or library to see whether it was applied.`);
}
