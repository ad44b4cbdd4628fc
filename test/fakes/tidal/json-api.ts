import type { ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';

/**
 * The JSON:API wire shapes the fake TIDAL API answers with: documents, resource identifiers,
 * error objects, cursor links and `include` path parsing, following the published description
 * (`application/vnd.api+json`, cursor pagination with `links.next` and `links.meta.nextCursor`,
 * include paths validated and bounded in depth and size).
 */

export const JSON_API_MEDIA_TYPE = 'application/vnd.api+json';

export interface ResourceIdentifier {
  readonly id: string;
  readonly type: string;
  readonly meta?: Record<string, unknown>;
}

export interface RelationshipObject {
  data: ResourceIdentifier[] | ResourceIdentifier | null;
  links: Links;
}

export interface ResourceObject {
  readonly id: string;
  readonly type: string;
  readonly attributes: Record<string, unknown>;
  relationships?: Record<string, RelationshipObject>;
}

export interface Links {
  self: string;
  next?: string;
  meta?: { nextCursor: string };
}

export interface ErrorObject {
  readonly status: string;
  readonly code?: string;
  readonly detail?: string;
  readonly source?: { pointer?: string; parameter?: string; header?: string };
}

/** Thrown by handlers to answer with a JSON:API error document. */
export class JsonApiError extends Error {
  readonly status: number;
  readonly errors: ErrorObject[];
  readonly headers: Record<string, string>;
  constructor(status: number, error: Omit<ErrorObject, 'status'>, headers: Record<string, string> = {}) {
    super(error.detail ?? `status ${status}`);
    this.status = status;
    this.errors = [{ status: String(status), ...error }];
    this.headers = headers;
  }
}

export function sendJsonApi(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  response.writeHead(status, { 'content-type': JSON_API_MEDIA_TYPE, 'content-length': String(Buffer.byteLength(text)), ...headers });
  response.end(text);
}

export function sendJsonApiError(response: ServerResponse, error: JsonApiError): void {
  // Every error object carries an occurrence id, as the provider's error objects do.
  sendJsonApi(response, error.status, { errors: error.errors.map((entry) => ({ id: randomUUID(), ...entry })) }, error.headers);
}

/** Opaque page cursors: the offset into the collection, base64url-wrapped so clients cannot do arithmetic on them. */
export function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset, v: 1 })).toString('base64url');
}

export function decodeCursor(cursor: string | null): number {
  if (cursor === null) return 0;
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { o?: unknown };
    if (typeof value.o === 'number' && Number.isInteger(value.o) && value.o >= 0) return value.o;
  } catch {
    // fall through to the 400 below
  }
  throw new JsonApiError(400, { code: 'INVALID_CURSOR', detail: 'page[cursor] is not a cursor this server issued', source: { parameter: 'page[cursor]' } });
}

/** One page of `items` starting at the request's cursor, plus the links the provider returns with it. */
export function paginate<T>(items: readonly T[], cursor: string | null, pageSize: number, self: URL): { page: T[]; links: Links } {
  const offset = decodeCursor(cursor);
  const page = items.slice(offset, offset + pageSize);
  const selfPath = relativeLink(self, null);
  const links: Links = { self: selfPath };
  if (offset + pageSize < items.length) {
    const nextCursor = encodeCursor(offset + pageSize);
    links.next = relativeLink(self, nextCursor);
    links.meta = { nextCursor };
  }
  return { page, links };
}

/** Links are relative to the API base (`/v2`), as in the provider's examples. */
export function relativeLink(url: URL, cursor: string | null): string {
  const params = [...url.searchParams.entries()].filter(([name]) => name !== 'page[cursor]');
  if (cursor !== null) params.push(['page[cursor]', cursor]);
  // Bracketed parameter names stay readable (`page[cursor]=…`), as in the provider's own links.
  const name = (text: string) => encodeURIComponent(text).replace(/%5B/g, '[').replace(/%5D/g, ']');
  const query = params.map(([key, value]) => `${name(key)}=${encodeURIComponent(value)}`).join('&');
  const path = url.pathname.replace(/^\/v2/, '');
  return query ? `${path}?${query}` : path;
}

/** Array query parameters: repeated (`filter[id]=a&filter[id]=b`) and/or comma-separated. */
export function arrayParam(url: URL, name: string): string[] {
  return url.searchParams
    .getAll(name)
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter((value) => value !== '');
}

/** One segment of an include path: `albums`, or `tracks:albums` (a type qualifier scoping the member). */
export interface IncludeSegment {
  readonly qualifier: string | null;
  readonly member: string;
}

export interface IncludeNode {
  readonly segment: IncludeSegment;
  readonly children: IncludeNode[];
}

export const MAX_INCLUDE_DEPTH = 3;
export const MAX_INCLUDE_RESOURCES = 10;

/** Which relationships each resource type has and the types they point to: include validation and resolution. */
export type RelationshipGraph = Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;

/**
 * Parses and validates `include` against the types reachable from `rootTypes`: unknown members,
 * paths deeper than 3 levels and trees naming more than 10 resources are refused with 400.
 */
export function parseInclude(url: URL, rootTypes: readonly string[], graph: RelationshipGraph): IncludeNode[] {
  const paths = arrayParam(url, 'include');
  const roots: IncludeNode[] = [];
  let named = 0;
  for (const path of paths) {
    const segments = path.split('.').map((text): IncludeSegment => {
      const colon = text.indexOf(':');
      return colon < 0 ? { qualifier: null, member: text } : { qualifier: text.slice(0, colon), member: text.slice(colon + 1) };
    });
    if (segments.length > MAX_INCLUDE_DEPTH) {
      throw new JsonApiError(400, { code: 'INCLUDE_TOO_DEEP', detail: `include path "${path}" is deeper than the limit of ${MAX_INCLUDE_DEPTH}`, source: { parameter: 'include' } });
    }
    let types = rootTypes;
    let level = roots;
    for (const segment of segments) {
      const candidates = segment.qualifier ? types.filter((type) => type === segment.qualifier) : types;
      const targets = candidates.flatMap((type) => graph[type]?.[segment.member] ?? []);
      if (targets.length === 0) {
        throw new JsonApiError(400, { code: 'INVALID_INCLUDE', detail: `include path "${path}" cannot be resolved`, source: { parameter: 'include' } });
      }
      let node = level.find((entry) => entry.segment.member === segment.member && entry.segment.qualifier === segment.qualifier);
      if (!node) {
        node = { segment, children: [] };
        level.push(node);
        named += 1;
      }
      level = node.children;
      types = [...new Set(targets)];
    }
  }
  if (named > MAX_INCLUDE_RESOURCES) {
    throw new JsonApiError(400, { code: 'INCLUDE_TOO_LARGE', detail: `include names more than ${MAX_INCLUDE_RESOURCES} resources`, source: { parameter: 'include' } });
  }
  return roots;
}

/** ISO-8601 duration of whole seconds, as the provider writes it (`PT3M25S`, `PT1H2M`). */
export function isoDuration(totalSeconds: number): string {
  const seconds = Math.round(totalSeconds);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  const parts = `${hours ? `${hours}H` : ''}${minutes ? `${minutes}M` : ''}${rest || (!hours && !minutes) ? `${rest}S` : ''}`;
  return `PT${parts}`;
}
