import type { ServerResponse } from 'node:http';
import { GOOGLE_RPC_STATUS, sendHtml, sendJson } from '../kit/index.ts';

/** What a route answers; `index.ts` sends it (or drops the connection after applying a write). */
export type Reply =
  | { readonly kind: 'json'; readonly status: number; readonly body: unknown; readonly headers?: Record<string, string> }
  | { readonly kind: 'html'; readonly status: number; readonly html: string };

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return { kind: 'json', status, body, headers };
}

export function html(status: number, page: string): Reply {
  return { kind: 'html', status, html: page };
}

export function send(response: ServerResponse, reply: Reply): void {
  if (reply.kind === 'html') sendHtml(response, reply.status, reply.html);
  else sendJson(response, reply.status, reply.body, reply.headers ?? {});
}

/** The `responseContext` every InnerTube answer starts with (tracking only). */
export function responseContext(): unknown {
  return { serviceTrackingParams: [{ service: 'CSI', params: [{ key: 'c', value: 'WEB_REMIX' }] }] };
}

const GOOGLE_STATUS: Record<number, string> = { ...GOOGLE_RPC_STATUS, 502: 'UNAVAILABLE', 504: 'DEADLINE_EXCEEDED' };

export const MESSAGES = {
  invalidArgument: 'Request contains an invalid argument.',
  unauthenticated: 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
  insufficientScope: 'Request had insufficient authentication scopes.',
  permissionDenied: 'The caller does not have permission',
  notFound: 'Requested entity was not found.',
  rateLimited: 'Resource has been exhausted (e.g. check quota).',
  quota: 'Quota exceeded for quota metric \'Requests\' and limit \'Requests per day\'.',
  unavailable: 'The service is currently unavailable.',
  internal: 'Internal error encountered.',
} as const;

/** Google's JSON error envelope: `{error: {code, message, errors[], status}}`. */
export function googleError(status: number, message: string, headers: Record<string, string> = {}, reason?: string): Reply {
  return json(status, { error: { code: status, message, errors: [{ message, domain: 'global', reason: reason ?? (GOOGLE_STATUS[status] ?? 'UNKNOWN').toLowerCase() }], status: GOOGLE_STATUS[status] ?? 'UNKNOWN' } }, headers);
}

/** The OAuth endpoints' error shape: `{error, error_description}`. */
export function oauthError(status: number, error: string, description: string): Reply {
  return json(status, { error, error_description: description });
}
