import { ProviderError, providerKit, type OperationInput, type OperationReturn, type ProviderContext } from '@opl/plugin-sdk';
import { errorForResponse } from './apple-errors.ts';

/**
 * Requests to the Apple Music API through the host's fetch. The host attaches both credentials —
 * the developer token the engine signs (`Authorization`) and the music user token
 * (`Music-User-Token`) — so the plugin never sees either. Every failure becomes a typed error that
 * carries no response body; a lost answer to a write says the write may have been applied.
 */

export const API_BASE = 'https://api.music.apple.com/v1';

const { record } = providerKit;

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
  return providerKit.queryString(params);
}

/** An id from input checked before it becomes a path segment (one no Apple Music id can be is NotFound). */
export function segment(id: string): string {
  return providerKit.pathSegment(id, 'Apple Music');
}

/** Sends one request; resolves with the parsed body of a 2xx answer (null when it had none, as a 204). */
export async function send(ctx: ProviderContext, request: AppleRequest): Promise<unknown> {
  const method = request.method ?? 'GET';
  return providerKit.requestJson(ctx, {
    url: `${API_BASE}${request.path}`,
    init: {
      method,
      headers: { accept: 'application/json', ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
    },
    // The host's message may name the URL; the engine needs only the kind of failure.
    unreachable: () =>
      method === 'GET'
        ? new ProviderError(`Apple Music could not be reached while ${request.what}`)
        : new ProviderError(`The answer from Apple Music was lost while ${request.what}: the change may have been applied and may appear later; read the playlist before retrying`),
    failed: (response) => errorForResponse(response, request.what, ctx.now()),
    unreadable: () => new ProviderError(`Apple Music sent an unreadable answer while ${request.what}`),
  });
}

export interface ResourcePage {
  /** The `data` array as sent (entries unchecked: the mappers read them defensively). */
  readonly data: readonly unknown[];
  /** Apple's relative `next` link; null on the last page. */
  readonly next: string | null;
  readonly total: number | null;
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

/**
 * Apple exposes no account identifier to apps: every connection of one owner is "the" Apple Music
 * library. A token fingerprint would change with every reconnection, which is the only way to
 * renew an expired music user token.
 */
export const ACCOUNT_ID = 'me';

/** The connection check: the account's storefront names the library and its country. */
export async function testConnection(_input: OperationInput<'testConnection'>, ctx: ProviderContext): Promise<OperationReturn<'testConnection'>> {
  const storefront = await currentStorefront(ctx);
  return { ok: true, account_id: ACCOUNT_ID, display_name: storefront.name ? `Apple Music (${storefront.name})` : 'Apple Music', country: storefront.id.toUpperCase() };
}
