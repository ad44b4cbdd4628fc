import type { FakeRequest } from '../fake-provider.ts';
import { arrayParam, JsonApiError, JSON_API_MEDIA_TYPE, parseInclude, type ResourceObject } from './json-api.ts';
import { CompoundDocument, RELATIONSHIPS, type ExtraRelationships } from './tidal-resources.ts';
import { payloadHash, type AccessToken, type FakePlaylist, type FakeUser, type TidalState } from './tidal-state.ts';

/**
 * What every handler of the fake TIDAL API works with: the call (state, request, user, token,
 * path parameters), scope and filter checks, request bodies, idempotent mutations and compound
 * documents. Handlers return their answer instead of writing it.
 */

export interface ApiResult {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Record<string, string>;
}

export interface ApiOptions {
  readonly pageSize: number;
}

/** The most entries one mutation of a to-many relationship may carry. */
export const MAX_BATCH = 50;
/** The most entries one move (`PATCH …/relationships/items`) may carry: the description's `maxItems` of that payload. */
export const MAX_MOVE_BATCH = 20;

export interface Call {
  readonly state: TidalState;
  readonly options: ApiOptions;
  readonly request: FakeRequest;
  readonly url: URL;
  readonly user: FakeUser;
  readonly token: AccessToken;
  readonly params: string[];
}

export type Handler = (call: Call) => ApiResult;

export function requireScope(call: Call, scope: string): void {
  if (!call.token.scopes.includes(scope)) throw new JsonApiError(403, { code: 'FORBIDDEN', detail: `The access token lacks the ${scope} scope` });
}

/** Only the filters an endpoint documents are accepted; most collections need at least one. */
export function checkFilters(url: URL, allowed: readonly string[], required: boolean): void {
  const filters = [...new Set([...url.searchParams.keys()].filter((name) => name.startsWith('filter[')))];
  const unknown = filters.filter((name) => !allowed.includes(name));
  if (unknown.length) throw new JsonApiError(400, { code: 'INVALID_FILTER', detail: `Unsupported filter ${unknown[0]}; available filters: ${allowed.join(', ')}`, source: { parameter: unknown[0]! } });
  if (required && filters.length === 0) throw new JsonApiError(400, { code: 'FILTER_REQUIRED', detail: `At least one filter is required: ${allowed.join(', ')}` });
}

export function sortParam(url: URL, allowed: readonly string[], fallback: string): string {
  const values = arrayParam(url, 'sort');
  if (values.length === 0) return fallback;
  if (values.length > 1 || !allowed.includes(values[0]!)) throw new JsonApiError(400, { code: 'INVALID_SORT', detail: `Unsupported sort; available: ${allowed.join(', ')}`, source: { parameter: 'sort' } });
  return values[0]!;
}

export function cursorOf(url: URL): string | null {
  return url.searchParams.get('page[cursor]');
}

export function userIdParam(call: Call, value: string): string {
  if (value === 'me' || value === call.user.id) return call.user.id;
  // Other users' private resources behave as if they did not exist.
  throw new JsonApiError(404, { code: 'NOT_FOUND', detail: 'Resource not found' });
}

export function readBody(call: Call): { data?: unknown; meta?: unknown } {
  const type = (call.request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== JSON_API_MEDIA_TYPE) throw new JsonApiError(415, { code: 'UNSUPPORTED_MEDIA_TYPE', detail: `Expected ${JSON_API_MEDIA_TYPE}` });
  try {
    const parsed = JSON.parse(call.request.body) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed;
  } catch {
    // answered below
  }
  throw new JsonApiError(400, { code: 'INVALID_REQUEST_BODY', detail: 'The request body is not a JSON:API document', source: { pointer: '' } });
}

export interface BatchEntry {
  readonly id: string;
  readonly type: string;
  readonly meta: Record<string, unknown>;
}

/** The `data` array of a to-many mutation: 1 to `max` (50 unless told) identifiers of the allowed types. */
export function batchData(body: { data?: unknown }, types: readonly string[], needsItemId: boolean, max = MAX_BATCH): BatchEntry[] {
  const { data } = body;
  if (!Array.isArray(data) || data.length < 1 || data.length > max) {
    throw new JsonApiError(400, { code: 'INVALID_REQUEST_BODY', detail: `data must hold between 1 and ${max} items`, source: { pointer: '/data' } });
  }
  return data.map((entry: unknown, index) => {
    const value = entry as { id?: unknown; type?: unknown; meta?: unknown } | null;
    const meta = value && typeof value.meta === 'object' && value.meta !== null ? (value.meta as Record<string, unknown>) : {};
    if (!value || typeof value.id !== 'string' || value.id === '' || typeof value.type !== 'string' || !types.includes(value.type)) {
      throw new JsonApiError(400, { code: 'INVALID_REQUEST_BODY', detail: `data[${index}] must be a resource identifier of type ${types.join(' or ')}`, source: { pointer: `/data/${index}` } });
    }
    if (needsItemId && (typeof meta['itemId'] !== 'string' || meta['itemId'] === '')) {
      throw new JsonApiError(400, { code: 'INVALID_REQUEST_BODY', detail: `data[${index}].meta.itemId is required`, source: { pointer: `/data/${index}/meta/itemId` } });
    }
    return { id: value.id, type: value.type, meta };
  });
}

/** Replays a mutation's first answer for a reused key, or runs it and remembers a success. */
export function idempotent(call: Call, run: () => ApiResult): ApiResult {
  const key = call.request.headers['idempotency-key'];
  if (key === undefined) return run();
  if (key.length === 0 || key.length > 128) throw new JsonApiError(400, { code: 'INVALID_IDEMPOTENCY_KEY', detail: 'Idempotency-Key must be 1 to 128 characters', source: { header: 'Idempotency-Key' } });
  const storeKey = `${call.user.id} ${call.request.method} ${call.url.pathname} ${key}`;
  const hash = payloadHash(call.request.body);
  const previous = call.state.idempotent(storeKey);
  if (previous) {
    if (previous.payloadHash !== hash) throw new JsonApiError(422, { code: 'IDEMPOTENT_REQUEST_PAYLOAD_MISMATCH', detail: 'Idempotency key reused with a different payload' });
    return { status: previous.status, body: previous.body };
  }
  const result = run();
  if (result.status < 300) call.state.idempotency.set(storeKey, { payloadHash: hash, status: result.status, body: result.body, at: Date.now() });
  return result;
}

export function visiblePlaylist(call: Call, id: string): FakePlaylist {
  const playlist = call.state.playlists.get(id);
  if (!playlist || (playlist.accessType === 'PRIVATE' && playlist.ownerId !== call.user.id)) throw new JsonApiError(404, { code: 'NOT_FOUND', detail: 'Playlist not found' });
  return playlist;
}

export function ownedPlaylist(call: Call, id: string): FakePlaylist {
  const playlist = visiblePlaylist(call, id);
  if (playlist.ownerId !== call.user.id) throw new JsonApiError(403, { code: 'FORBIDDEN', detail: 'Only the owner may change this playlist' });
  return playlist;
}

export function compound(call: Call, primary: ResourceObject[], rootType: string, extra?: ExtraRelationships): CompoundDocument {
  const nodes = parseInclude(call.url, [rootType], RELATIONSHIPS);
  const document = new CompoundDocument(call.state, call.options.pageSize, primary, extra);
  document.expand(primary, nodes);
  return document;
}

export function withIncluded(body: Record<string, unknown>, document: CompoundDocument): Record<string, unknown> {
  return document.included.length ? { ...body, included: document.included } : body;
}

// --- users ---

