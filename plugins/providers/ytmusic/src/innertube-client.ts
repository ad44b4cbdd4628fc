import { ProviderError, providerKit, type ProviderContext } from '@opl/plugin-sdk';
import { record, type JsonRecord } from './json-read.ts';
import { errorForResponse, type RequestPurpose } from './response-errors.ts';
import { sapisidFromCookie, sapisidHashHeader } from './sapisid-hash.ts';

/**
 * The one way this plugin talks to YouTube Music: a POST of JSON to
 * `https://music.youtube.com/youtubei/v1/<endpoint>` with the WEB_REMIX client context, as the web
 * app sends it. The host attaches the credential: an OAuth bearer token (device flow), or the
 * pasted cookie — in which case the request also needs a `SAPISIDHASH` authorization computed from
 * the cookie's SAPISID, the one reason this plugin may see the credential (`credential_access`).
 * Every answer other than 2xx becomes a typed error; a lost answer becomes a `ProviderError` that
 * says whether a write may have been applied; a 2xx that is not a JSON object is a provider failure.
 */

export const MUSIC_ORIGIN = 'https://music.youtube.com';
export const API_BASE = `${MUSIC_ORIGIN}/youtubei/v1/`;
/** The web client's version the requests claim (as recorded in December 2025). */
export const CLIENT_VERSION = '1.20251206.01.00';

export type Endpoint = 'browse' | 'search' | 'player' | 'playlist/create' | 'browse/edit_playlist' | 'playlist/delete' | 'account/account_menu';

export interface InnerTubeCall extends RequestPurpose {
  readonly endpoint: Endpoint;
  readonly body?: JsonRecord;
  /** Extra query parameters (legacy `ctoken` continuations). */
  readonly query?: Record<string, string>;
  /** Writes: a lost answer may mean the change was applied. */
  readonly write?: boolean;
}

export function clientContext(): JsonRecord {
  return { client: { clientName: 'WEB_REMIX', clientVersion: CLIENT_VERSION, hl: 'en', gl: 'US' }, user: {} };
}

/** Headers of the request; with a cookie credential, the SAPISIDHASH that must accompany it. */
export function requestHeaders(ctx: ProviderContext): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-origin': MUSIC_ORIGIN, 'x-goog-authuser': '0' };
  const credential = ctx.credential;
  if (credential && credential.origin === MUSIC_ORIGIN) {
    const sapisid = sapisidFromCookie(credential.access_token);
    // A bearer token has no SAPISID: the host's Authorization header is all it needs.
    if (sapisid) headers['authorization'] = sapisidHashHeader(sapisid, Math.floor(providerKit.nowMs(ctx) / 1000), MUSIC_ORIGIN);
  }
  return headers;
}

export async function innertube(ctx: ProviderContext, call: InnerTubeCall): Promise<JsonRecord> {
  // The sandbox has no URLSearchParams: the query is encoded by hand.
  const query = Object.entries({ ...(call.query ?? {}), prettyPrint: 'false' }).map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  const url = `${API_BASE}${call.endpoint}?${query.join('&')}`;
  const parsed = await providerKit.requestJson(ctx, {
    url,
    init: { method: 'POST', headers: requestHeaders(ctx), body: JSON.stringify({ context: clientContext(), ...(call.body ?? {}) }) },
    unreachable: (error) => providerKit.unreachableError(error, { provider: 'YouTube Music', what: call.what, write: call.write === true, readBack: 'the playlist' }),
    failed: (response) => errorForResponse(response, call, providerKit.nowMs(ctx)),
    unreadable: () => new ProviderError(`YouTube Music sent an unreadable answer while ${call.what}.`),
    emptyIsNull: false,
  });
  const body = record(parsed);
  if (!body) throw new ProviderError(`YouTube Music sent an unexpected answer while ${call.what}.`);
  return body;
}
