import { NotFound, ProviderError, type ProviderContext } from '@opl/plugin-sdk';
import { errorForResponse } from './apple-errors.ts';

/**
 * Requests to the Apple Music API through the host's fetch. The host attaches both credentials —
 * the developer token the engine signs (`Authorization`) and the music user token
 * (`Music-User-Token`) — so the plugin never sees either. Every failure becomes a typed error that
 * carries no response body; a lost answer to a write says the write may have been applied.
 */

export const API_BASE = 'https://api.music.apple.com/v1';

export interface AppleRequest {
  readonly method?: 'GET' | 'POST';
  /** Path under `/v1`, with its query string. */
  readonly path: string;
  readonly body?: unknown;
  /** What the request is for, in words ("reading playlist tracks"), for error messages. */
  readonly what: string;
}

/** `?name=value&…` with Apple's bracketed names (`filter[isrc]`) kept readable and values encoded. */
export function query(params: Readonly<Record<string, string | number | null | undefined>>): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(params)) {
    if (value === null || value === undefined || value === '') continue;
    parts.push(`${name}=${encodeURIComponent(String(value))}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

/** What a Apple Music id is made of (letters, digits and `. - _ ~`); `.` and `..` alone are path steps, not ids. */
const ID = /^(?!\.{1,2}$)[A-Za-z0-9._~-]{1,200}$/;

/**
 * An id taken from input, checked before it becomes a path segment: one no Apple Music id can be
 * (`../../x`, `a/b`, `%2F`) names nothing, so it is NotFound here. Encoded, it would reach the
 * host's fetch as an encoded separator, which the host refuses as a request the plugin may not
 * make — and that refusal would read as Apple Music failing, not as a wrong id.
 */
export function segment(id: string): string {
  if (!ID.test(id)) throw new NotFound(`No Apple Music item has the id ${JSON.stringify(id.slice(0, 80))}: Apple Music ids are letters, digits, dots and dashes.`);
  return id;
}

/** Sends one request; resolves with the parsed body of a 2xx answer (null when it had none, as a 204). */
export async function send(ctx: ProviderContext, request: AppleRequest): Promise<unknown> {
  const method = request.method ?? 'GET';
  let response;
  try {
    response = await ctx.fetch(`${API_BASE}${request.path}`, {
      method,
      headers: { accept: 'application/json', ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
    });
  } catch {
    // The host's message may name the URL; the engine needs only the kind of failure.
    if (method === 'GET') throw new ProviderError(`Apple Music could not be reached while ${request.what}`);
    throw new ProviderError(`The answer from Apple Music was lost while ${request.what}: the change may have been applied and may appear later; read the playlist before retrying`);
  }
  let body: unknown = null;
  const raw = response.text();
  if (raw.trim() !== '') {
    try {
      body = JSON.parse(raw) as unknown;
    } catch {
      if (response.ok) throw new ProviderError(`Apple Music sent an unreadable answer while ${request.what}`);
    }
  }
  if (!response.ok) throw errorForResponse({ status: response.status, headers: response.headers, body }, request.what, ctx.now());
  return body;
}

export interface ResourcePage {
  /** The `data` array as sent (entries unchecked: the mappers read them defensively). */
  readonly data: readonly unknown[];
  /** Apple's relative `next` link; null on the last page. */
  readonly next: string | null;
  readonly total: number | null;
}

function record(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** Reads a `{data, next, meta.total}` document; a body without `data` is a malformed answer. */
export function readPage(body: unknown, what: string): ResourcePage {
  const object = record(body);
  if (!object || !Array.isArray(object['data'])) throw new ProviderError(`Apple Music sent an answer without data while ${what}`);
  const total = record(object['meta'])?.['total'];
  return {
    data: object['data'] as unknown[],
    next: typeof object['next'] === 'string' && object['next'] !== '' ? object['next'] : null,
    total: typeof total === 'number' && Number.isInteger(total) && total >= 0 ? total : null,
  };
}

export async function getPage(ctx: ProviderContext, path: string, what: string): Promise<ResourcePage> {
  return readPage(await send(ctx, { path, what }), what);
}

/** The account's storefront (`us`, `gb`, …): the catalog every lookup and search must use. */
export async function currentStorefront(ctx: ProviderContext): Promise<{ id: string; name: string | null }> {
  const page = await getPage(ctx, '/me/storefront', 'reading the account storefront');
  const first = record(page.data[0]);
  const id = first?.['id'];
  if (typeof id !== 'string' || !/^[a-z]{2}$/.test(id)) throw new ProviderError('Apple Music sent no storefront while reading the account storefront');
  const name = record(first!['attributes'])?.['name'];
  return { id, name: typeof name === 'string' ? name : null };
}
