import type { ServerResponse } from 'node:http';
import { GOOGLE_RPC_STATUS, sendJson } from '../kit/index.ts';

/**
 * Google API error answers: `{error: {code, message, errors: [{message, domain, reason, …}],
 * status}}`. The `reason` is what clients branch on (quotaExceeded, rateLimitExceeded,
 * playlistNotFound, …).
 */

export interface GoogleError {
  readonly status: number;
  readonly reason: string;
  readonly domain: string;
  readonly message: string;
  readonly headers?: Record<string, string>;
  readonly location?: { readonly location: string; readonly locationType: 'parameter' | 'header' };
}


export function sendGoogleError(response: ServerResponse, error: GoogleError): void {
  sendJson(
    response,
    error.status,
    {
      error: {
        code: error.status,
        message: error.message,
        errors: [{ message: error.message, domain: error.domain, reason: error.reason, ...(error.location ?? {}) }],
        status: GOOGLE_RPC_STATUS[error.status] ?? 'UNKNOWN',
      },
    },
    error.headers ?? {},
  );
}

export const errors = {
  quotaExceeded: (): GoogleError => ({
    status: 403,
    domain: 'youtube.quota',
    reason: 'quotaExceeded',
    message: 'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.',
  }),
  rateLimitExceeded: (status: 403 | 429, retryAfterS: number | null): GoogleError => ({
    status,
    domain: 'youtube.quota',
    reason: 'rateLimitExceeded',
    message: 'The request cannot be completed because you have exceeded your rate limit.',
    ...(retryAfterS !== null ? { headers: { 'retry-after': String(retryAfterS) } } : {}),
  }),
  authError: (): GoogleError => ({
    status: 401,
    domain: 'global',
    reason: 'authError',
    message: 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
    location: { location: 'Authorization', locationType: 'header' },
    headers: { 'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"' },
  }),
  insufficientPermissions: (): GoogleError => ({
    status: 403,
    domain: 'global',
    reason: 'insufficientPermissions',
    message: 'Request had insufficient authentication scopes.',
  }),
  backendError: (status: number): GoogleError => ({
    status,
    domain: 'global',
    reason: 'backendError',
    message: status === 503 ? 'The service is currently unavailable.' : 'Backend Error',
  }),
  playlistNotFound: (parameter: string): GoogleError => ({
    status: 404,
    domain: 'youtube.playlist',
    reason: 'playlistNotFound',
    message: `The playlist identified with the request's <code>${parameter}</code> parameter cannot be found.`,
    location: { location: parameter, locationType: 'parameter' },
  }),
  playlistItemNotFound: (): GoogleError => ({
    status: 404,
    domain: 'youtube.playlistItem',
    reason: 'playlistItemNotFound',
    message: "Playlist item not found.",
    location: { location: 'id', locationType: 'parameter' },
  }),
  videoNotFound: (): GoogleError => ({
    status: 404,
    domain: 'youtube.playlistItem',
    reason: 'videoNotFound',
    message: 'Video not found.',
  }),
  forbidden: (reason: string, message: string): GoogleError => ({ status: 403, domain: 'youtube.playlistItem', reason, message }),
  badRequest: (reason: string, message: string, parameter?: string): GoogleError => ({
    status: 400,
    domain: reason === 'invalidPageToken' || reason === 'missingRequiredParameter' ? 'youtube.parameter' : 'youtube.api',
    reason,
    message,
    ...(parameter ? { location: { location: parameter, locationType: 'parameter' as const } } : {}),
  }),
  notFound: (): GoogleError => ({ status: 404, domain: 'global', reason: 'notFound', message: 'Not Found' }),
};
