import { InvalidInput, NotFound, ProviderError, type ProviderContext } from '@opl/plugin-sdk';
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
  readonly method?: 'GET' | 'POST' | 'DELETE';
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
  let response;
  try {
    response = await ctx.fetch(`${API_BASE}${request.path}`, {
      method: request.method ?? 'GET',
      headers,
      ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
    });
  } catch {
    // The host's message may name the URL; the engine needs only the kind of failure. A write
    // whose answer was lost lands here too: it may have been applied (the caller reconciles).
    throw new ProviderError(`TIDAL could not be reached while ${request.what}, or its answer was lost`);
  }
  let body: unknown = null;
  const raw = response.text();
  if (raw.trim() !== '') {
    try {
      body = JSON.parse(raw) as unknown;
    } catch {
      if (response.ok) throw new ProviderError(`TIDAL sent an unreadable answer while ${request.what}`);
    }
  }
  if (!response.ok) throw errorForResponse({ status: response.status, headers: response.headers, body }, request.what, ctx.now());
  return body;
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

/** What a TIDAL id is made of (letters, digits and `. - _ ~`); `.` and `..` alone are path steps, not ids. */
const ID = /^(?!\.{1,2}$)[A-Za-z0-9._~-]{1,200}$/;

/**
 * An id taken from input, checked before it becomes a path segment: one no TIDAL id can be
 * (`../../x`, `a/b`, `%2F`) names nothing, so it is NotFound here. Encoded, it would reach the
 * host's fetch as an encoded separator, which the host refuses as a request the plugin may not
 * make — and that refusal would read as TIDAL failing, not as a wrong id.
 */
export function segment(id: string): string {
  if (!ID.test(id)) throw new NotFound(`No TIDAL item has the id ${JSON.stringify(id.slice(0, 80))}: TIDAL ids are letters, digits, dots and dashes.`);
  return id;
}
