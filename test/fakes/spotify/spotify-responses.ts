import type { ServerResponse } from 'node:http';
import { redirect, sendHtml, sendJson } from '../fake-provider.ts';
import { API_ORIGIN, type JsonObject } from './spotify-catalog.ts';

/**
 * Answers in the Web API's own shapes: the regular error object `{"error": {"status", "message"}}`,
 * the OAuth endpoints' `{"error", "error_description"}`, and paging objects whose `href`, `next`
 * and `previous` are absolute URLs on the real API origin.
 */

/**
 * What a route decides, before anything is sent: the server can then still drop the connection
 * after a write was applied (the "ambiguous write" failure).
 */
export type Reply =
  | { readonly kind: 'json'; readonly status: number; readonly body: unknown; readonly headers?: Record<string, string> }
  | { readonly kind: 'html'; readonly status: number; readonly html: string }
  | { readonly kind: 'redirect'; readonly location: string };

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return { kind: 'json', status, body, headers };
}

export function html(status: number, text: string): Reply {
  return { kind: 'html', status, html: text };
}

export function redirectTo(location: string): Reply {
  return { kind: 'redirect', location };
}

export function send(response: ServerResponse, reply: Reply): void {
  if (reply.kind === 'json') sendJson(response, reply.status, reply.body, reply.headers);
  else if (reply.kind === 'html') sendHtml(response, reply.status, reply.html);
  else redirect(response, reply.location);
}

export function apiError(status: number, message: string, headers: Record<string, string> = {}, extra: JsonObject = {}): Reply {
  return json(status, { error: { status, message, ...extra } }, headers);
}

export function oauthError(status: number, error: string, description: string): Reply {
  return json(status, { error, error_description: description });
}

/** The messages the real API uses for the common failures. */
export const MESSAGES = {
  noToken: 'No token provided',
  invalidToken: 'Invalid access token',
  expiredToken: 'The access token expired',
  scope: 'Insufficient client scope',
  notFound: 'Resource not found',
  rateLimited: 'API rate limit exceeded',
  quota: 'Your application has exceeded its request quota',
} as const;

export function serverErrorMessage(status: number): string {
  if (status === 502) return 'Bad gateway.';
  if (status === 503) return 'Service unavailable';
  return 'Server error.';
}

/** `{offset, limit}` from a request, or an error message when the API would refuse them. */
export function pageParameters(query: URLSearchParams, defaults: { limit: number; max: number }): { offset: number; limit: number } | string {
  const rawLimit = query.get('limit');
  const rawOffset = query.get('offset');
  const limit = rawLimit === null ? defaults.limit : Number(rawLimit);
  const offset = rawOffset === null ? 0 : Number(rawOffset);
  if (!Number.isInteger(limit) || limit < 1 || limit > defaults.max) return 'Invalid limit';
  if (!Number.isInteger(offset) || offset < 0) return 'Invalid offset';
  return { offset, limit };
}

function pageUrl(path: string, query: URLSearchParams, offset: number, limit: number): string {
  const params = new URLSearchParams(query);
  params.set('offset', String(offset));
  params.set('limit', String(limit));
  return `${API_ORIGIN}${path}?${params.toString()}`;
}

/** A PagingObject over `all`, with absolute `next`/`previous` links that keep the other query parameters. */
export function pagingObject(path: string, query: URLSearchParams, all: readonly unknown[], offset: number, limit: number): JsonObject {
  const items = all.slice(offset, offset + limit);
  return {
    href: pageUrl(path, query, offset, limit),
    items,
    limit,
    next: offset + limit < all.length ? pageUrl(path, query, offset + limit, limit) : null,
    offset,
    previous: offset > 0 ? pageUrl(path, query, Math.max(0, offset - limit), limit) : null,
    total: all.length,
  };
}
