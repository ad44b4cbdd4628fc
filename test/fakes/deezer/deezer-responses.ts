import type { ServerResponse } from 'node:http';
import { redirect, sendHtml, sendJson } from '../fake-provider.ts';

/**
 * Answers in Deezer's own shapes. The API reports nearly every failure as HTTP 200 with
 * `{"error": {"type", "message", "code"}}` (the published error codes below); only the gateway
 * answers real 5xx. Paged lists are `{"data", "total", "prev"?, "next"?}` with absolute links on
 * the real API origin that repeat the request's query (the access token included, as Deezer does).
 */

export type Reply =
  | { readonly kind: 'json'; readonly status: number; readonly body: unknown; readonly headers?: Record<string, string> }
  | { readonly kind: 'text'; readonly status: number; readonly text: string }
  | { readonly kind: 'html'; readonly status: number; readonly html: string }
  | { readonly kind: 'redirect'; readonly location: string };

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Reply {
  return { kind: 'json', status, body, headers };
}

export function text(value: string, status = 200): Reply {
  return { kind: 'text', status, text: value };
}

export function html(status: number, value: string): Reply {
  return { kind: 'html', status, html: value };
}

export function redirectTo(location: string): Reply {
  return { kind: 'redirect', location };
}

export function send(response: ServerResponse, reply: Reply): void {
  if (reply.kind === 'json') sendJson(response, reply.status, reply.body, reply.headers);
  else if (reply.kind === 'html') sendHtml(response, reply.status, reply.html);
  else if (reply.kind === 'redirect') redirect(response, reply.location);
  else {
    response.writeHead(reply.status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(Buffer.byteLength(reply.text)) });
    response.end(reply.text);
  }
}

/** Deezer's published error codes, with the type and message each comes with. */
export const DEEZER_ERRORS = {
  quota: { type: 'Exception', message: 'Quota limit exceeded', code: 4 },
  itemsLimit: { type: 'Exception', message: 'Items limit exceeded', code: 100 },
  permission: { type: 'OAuthException', message: 'Permission denied', code: 200 },
  noToken: { type: 'OAuthException', message: 'An active access token must be used to query information about the current user', code: 200 },
  invalidToken: { type: 'OAuthException', message: 'Invalid OAuth access token.', code: 300 },
  parameter: { type: 'ParameterException', message: 'Wrong parameter', code: 500 },
  alreadyInPlaylist: { type: 'ParameterException', message: 'This song already exists in this playlist', code: 500 },
  missingParameter: { type: 'MissingParameterException', message: 'Missing parameters', code: 501 },
  invalidQuery: { type: 'InvalidQueryException', message: 'Invalid query', code: 600 },
  busy: { type: 'Exception', message: 'Service busy', code: 700 },
  noData: { type: 'DataException', message: 'no data', code: 800 },
} as const;

export type DeezerErrorName = keyof typeof DEEZER_ERRORS;

export function deezerError(name: DeezerErrorName, message?: string): Reply {
  const error = DEEZER_ERRORS[name];
  return json({ error: { type: error.type, message: message ?? error.message, code: error.code } });
}

/** A page of `all` at `index`/`limit`, with Deezer's absolute `prev`/`next` links. */
export function page(all: readonly unknown[], url: URL, apiOrigin: string, defaultLimit = 25): Reply {
  const index = Math.max(0, Number.parseInt(url.searchParams.get('index') ?? '0', 10) || 0);
  const rawLimit = Number.parseInt(url.searchParams.get('limit') ?? String(defaultLimit), 10);
  const limit = Number.isFinite(rawLimit) && rawLimit > 0 ? Math.min(rawLimit, 2_000) : defaultLimit;
  const data = all.slice(index, index + limit);
  const link = (at: number) => {
    const next = new URL(url.pathname + url.search, apiOrigin);
    next.searchParams.set('index', String(at));
    next.searchParams.set('limit', String(limit));
    return next.toString();
  };
  const body: Record<string, unknown> = { data, total: all.length };
  if (index > 0) body['prev'] = link(Math.max(0, index - limit));
  if (index + limit < all.length) body['next'] = link(index + limit);
  return json(body);
}
