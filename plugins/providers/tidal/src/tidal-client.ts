import { InvalidInput, ProviderError, providerKit, type OperationInput, type OperationReturn, type ProviderContext } from '@opl/plugin-sdk';
import { readDocument, type Document } from './json-api-document.ts';
import { decodePageCursor, type PageCursor } from './page-cursor.ts';
import { errorForResponse } from './tidal-errors.ts';

/**
 * Requests to TIDAL's API through the host's fetch. The host attaches the bearer token (the plugin
 * never sees it); this layer adds the JSON:API media type and `Idempotency-Key`, and turns every
 * failure — a refused request, a lost connection, an error status, a malformed answer — into a
 * typed adapter error that carries no response body.
 */

export const API_BASE = 'https://openapi.tidal.com/v2';
const MEDIA_TYPE = 'application/vnd.api+json';

/** A list sent as the parameter repeated (`filter[id]=1&filter[id]=2`), the form of TIDAL's exploded array filters. */
export interface Repeated {
  readonly each: readonly string[];
}

export type QueryValue = string | readonly string[] | Repeated | null | undefined;

/** `?name=value&…` with JSON:API's bracketed names kept readable and values encoded; a plain list is comma-joined. */
export function query(params: Readonly<Record<string, QueryValue>>): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(params)) {
    if (value === null || value === undefined) continue;
    if (typeof value !== 'string' && 'each' in value) {
      for (const each of value.each) if (each !== '') parts.push(`${name}=${encodeURIComponent(each)}`);
      continue;
    }
    const joined = typeof value === 'string' ? value : value.join(',');
    if (joined === '') continue;
    parts.push(`${name}=${encodeURIComponent(joined)}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

export interface TidalRequest {
  readonly method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Path under `/v2`, with its query string. */
  readonly path: string;
  readonly body?: unknown;
  readonly idempotencyKey?: string;
  /** What the request is for, in words ("reading playlist items"), for error messages. */
  readonly what: string;
}

/** Sends one request; resolves with the parsed body of a 2xx answer (null when it had none). */
export async function send(ctx: ProviderContext, request: TidalRequest): Promise<unknown> {
  const headers: Record<string, string> = { accept: MEDIA_TYPE };
  if (request.body !== undefined) headers['content-type'] = MEDIA_TYPE;
  if (request.idempotencyKey) headers['idempotency-key'] = request.idempotencyKey;
  return providerKit.requestJson(ctx, {
    url: `${API_BASE}${request.path}`,
    init: { method: request.method ?? 'GET', headers, ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}) },
    // The host's message may name the URL; the engine needs only the kind of failure. A write
    // whose answer was lost lands here too: it may have been applied (the caller reconciles).
    unreachable: () => new ProviderError(`TIDAL could not be reached while ${request.what}, or its answer was lost`),
    failed: (response) => errorForResponse(response, request.what, ctx.now()),
    unreadable: () => new ProviderError(`TIDAL sent an unreadable answer while ${request.what}`),
  });
}

/** A GET whose answer must be a JSON:API document. */
export async function getDocument(ctx: ProviderContext, path: string, what: string): Promise<Document> {
  const document = readDocument(await send(ctx, { path, what }));
  if (!document) throw new ProviderError(`TIDAL sent an answer without data while ${what}`);
  return document;
}

export function pageCursor(text: string | null): PageCursor {
  const cursor = decodePageCursor(text);
  if (!cursor) throw new InvalidInput('the paging cursor was not issued by the TIDAL plugin');
  return cursor;
}

/** The connected account's TIDAL user. */
export async function currentUser(ctx: ProviderContext): Promise<{ id: string; username: string | null; country: string | null }> {
  const document = await getDocument(ctx, '/users/me', 'reading the connected account');
  const user = document.data[0] as { id?: unknown; attributes?: { username?: unknown; country?: unknown } } | undefined;
  if (typeof user?.id !== 'string') throw new ProviderError('TIDAL sent no user while reading the connected account');
  const username = user.attributes?.username;
  const country = user.attributes?.country;
  return { id: user.id, username: typeof username === 'string' ? username : null, country: typeof country === 'string' ? country : null };
}

/** The connection check: the connected account's TIDAL user. */
export async function testConnection(_input: OperationInput<'testConnection'>, ctx: ProviderContext): Promise<OperationReturn<'testConnection'>> {
  const user = await currentUser(ctx);
  return { ok: true, account_id: user.id, display_name: user.username, country: user.country };
}

/** An id from input checked before it becomes a path segment (one no TIDAL id can be is NotFound). */
export function segment(id: string): string {
  return providerKit.pathSegment(id, 'TIDAL');
}
