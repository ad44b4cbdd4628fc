import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Reuses a caller's `X-Request-Id` when it is a harmless token, else makes a fresh one. */
export function requestIdFor(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

const SENSITIVE_QUERY_KEYS = /^(code|state|token|access_token|refresh_token|id_token|secret|password|key|api_key|apikey|signature|sig|session)$/i;

/** Share tokens travel in paths (`/share/{token}`, `/api/public/shares/{token}`, revocation by token): they are bearer capabilities. */
const SHARE_TOKEN_PATH = /^(\/share\/|\/api\/public\/shares\/|\/api\/shares\/)(?![0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?:[/?]|$))[^/?]+/i;

/** A URL for the logs: the path as is but for share tokens, sensitive query values masked (OAuth callbacks carry codes). */
export function loggableUrl(rawUrl: string): string {
  const url = rawUrl.replace(SHARE_TOKEN_PATH, '$1[REDACTED]');
  const question = url.indexOf('?');
  if (question === -1) return url;
  const params = new URLSearchParams(url.slice(question + 1));
  const masked = [...params.entries()].map(([key, value]) => `${encodeURIComponent(key)}=${SENSITIVE_QUERY_KEYS.test(key) ? '[REDACTED]' : encodeURIComponent(value)}`);
  return `${url.slice(0, question)}?${masked.join('&')}`;
}
