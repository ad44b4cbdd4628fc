import { InvalidInput, ProviderError, providerKit, RateLimited, type OperationInput, type OperationReturn, type ProviderContext } from '@opl/plugin-sdk';
import { errorForResponse } from './youtube-errors.ts';

/**
 * Requests to the YouTube Data API through the host's fetch. The host attaches the bearer token
 * (the plugin never sees it) and prices every request against the declared quota; this layer
 * turns every failure into a typed adapter error that carries no response body. A request the
 * engine refused because the day's quota is used up comes back as that typed quota error,
 * unchanged, so the engine can wait for the reset instead of retrying.
 */

export const API_BASE = 'https://www.googleapis.com/youtube/v3';

export const { queryString: query } = providerKit;

export interface YoutubeRequest {
  readonly method?: 'GET' | 'POST' | 'DELETE';
  /** Resource path with its query (`/playlists?part=snippet&mine=true`). */
  readonly path: string;
  readonly body?: unknown;
  /** What the request is for, in words, for error messages. */
  readonly what: string;
}

function quotaBucketOf(path: string): string {
  return path.startsWith('/search') ? 'search' : 'default';
}

/** Sends one request; resolves with the parsed body of a 2xx answer (null when it had none). */
export async function send(ctx: ProviderContext, request: YoutubeRequest): Promise<unknown> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  return providerKit.requestJson(ctx, {
    url: `${API_BASE}${request.path}`,
    init: { method: request.method ?? 'GET', headers, ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}) },
    // Refused before sending because the day's quota is spent: the typed error passes through.
    // Otherwise the host's message may name the URL; the engine needs only the kind of failure.
    // A write whose answer was lost lands here too: it may have been applied (the caller reconciles).
    unreachable: (error) =>
      RateLimited.fromQuotaRefusal(error, ctx.now()) ?? new ProviderError(`YouTube could not be reached while ${request.what}, or its answer was lost`),
    failed: (response) => errorForResponse(response, request.what, ctx.now(), quotaBucketOf(request.path)),
    unreadable: () => new ProviderError(`YouTube sent an unreadable answer while ${request.what}`),
  });
}

/** A list answer: items plus the next page token. */
export interface ListAnswer<T> {
  /** The answer's items, unchecked beyond being objects: mappers read every field defensively. */
  readonly items: readonly T[];
  readonly nextPageToken: string | null;
  readonly totalResults: number | null;
}

export async function list<T extends object = Record<string, unknown>>(ctx: ProviderContext, path: string, what: string): Promise<ListAnswer<T>> {
  const body = (await send(ctx, { path, what })) as { items?: unknown; nextPageToken?: unknown; pageInfo?: { totalResults?: unknown } } | null;
  if (!body || !Array.isArray(body.items)) throw new ProviderError(`YouTube sent an answer without items while ${what}`);
  const items = body.items.filter((item: unknown): item is T => typeof item === 'object' && item !== null);
  const total = body.pageInfo?.totalResults;
  return { items, nextPageToken: typeof body.nextPageToken === 'string' && body.nextPageToken !== '' ? body.nextPageToken : null, totalResults: typeof total === 'number' ? total : null };
}

/** The engine's cursor over YouTube's page tokens. */
export function encodeCursor(pageToken: string | null): string | null {
  return pageToken === null ? null : `y1.${pageToken}`;
}

export function decodeCursor(cursor: string | null): string | null {
  if (cursor === null) return null;
  const match = /^y1\.([A-Za-z0-9_-]{1,500})$/.exec(cursor);
  if (!match) throw new InvalidInput('the paging cursor was not issued by the YouTube plugin');
  return match[1]!;
}

/** YouTube's page size: 1–50 per request. */
export function pageSize(limit: number): number {
  return providerKit.clampPageSize(limit, 50);
}

/** The connected account's channel. */
export async function myChannel(ctx: ProviderContext): Promise<{ id: string; title: string | null; country: string | null }> {
  const answer = await list(ctx, `/channels${query({ part: 'snippet', mine: true })}`, 'reading the connected channel');
  const channel = answer.items[0] as { id?: unknown; snippet?: { title?: unknown; country?: unknown } } | undefined;
  if (typeof channel?.id !== 'string') throw new ProviderError('YouTube sent no channel for the connected account (it may have no YouTube channel yet)');
  const title = channel.snippet?.title;
  const country = channel.snippet?.country;
  return { id: channel.id, title: typeof title === 'string' ? title : null, country: typeof country === 'string' ? country : null };
}

/** The connection check: the connected account's channel. */
export async function testConnection(_input: OperationInput<'testConnection'>, ctx: ProviderContext): Promise<OperationReturn<'testConnection'>> {
  const channel = await myChannel(ctx);
  return { ok: true, account_id: channel.id, display_name: channel.title, country: channel.country };
}
