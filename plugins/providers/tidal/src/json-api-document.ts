/**
 * Reading TIDAL's JSON:API documents defensively: the answer crosses a trust boundary, so every
 * field is checked before use, and unknown types or missing relationships degrade to nulls instead
 * of exceptions. `included` is indexed once per document; relationships resolve through it.
 */

export interface Identifier {
  readonly id: string;
  readonly type: string;
  readonly meta: Readonly<Record<string, unknown>>;
}

export interface Resource {
  readonly id: string;
  readonly type: string;
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly relationships: Readonly<Record<string, unknown>>;
}

export interface Document {
  /** Primary data as a list (a single resource becomes a list of one). */
  readonly data: readonly unknown[];
  readonly included: ReadonlyMap<string, Resource>;
  /** `links.meta.nextCursor` (or the cursor in `links.next`); null on the last page. */
  readonly nextCursor: string | null;
}

function record(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

export function asIdentifier(value: unknown): Identifier | null {
  const object = record(value);
  if (!object || typeof object['id'] !== 'string' || typeof object['type'] !== 'string') return null;
  return { id: object['id'], type: object['type'], meta: record(object['meta']) ?? {} };
}

export function asResource(value: unknown): Resource | null {
  const identifier = asIdentifier(value);
  if (!identifier) return null;
  const object = record(value)!;
  return { id: identifier.id, type: identifier.type, attributes: record(object['attributes']) ?? {}, relationships: record(object['relationships']) ?? {} };
}

function cursorFromNext(next: unknown): string | null {
  if (typeof next !== 'string') return null;
  const match = /[?&]page(?:%5B|\[)cursor(?:%5D|\])=([^&#]+)/i.exec(next);
  return match ? decodeURIComponent(match[1]!) : null;
}

/** Null when `body` is not a JSON:API document at all (a malformed answer). */
export function readDocument(body: unknown): Document | null {
  const object = record(body);
  if (!object || !('data' in object)) return null;
  const data = Array.isArray(object['data']) ? (object['data'] as unknown[]) : object['data'] === null ? [] : [object['data']];
  const included = new Map<string, Resource>();
  if (Array.isArray(object['included'])) {
    for (const entry of object['included']) {
      const resource = asResource(entry);
      if (resource) included.set(`${resource.type}:${resource.id}`, resource);
    }
  }
  const links = record(object['links']);
  const meta = record(links?.['meta']);
  const nextCursor = typeof meta?.['nextCursor'] === 'string' && meta['nextCursor'] !== '' ? meta['nextCursor'] : cursorFromNext(links?.['next']);
  return { data, included, nextCursor };
}

/** The primary resources of `type`, in document order (other types and malformed entries are left out). */
export function primary(document: Document, type: string): Resource[] {
  return document.data.map(asResource).filter((resource): resource is Resource => resource !== null && resource.type === type);
}

/** The identifiers of `resource`'s relationship `name` (empty when absent). */
export function relationshipIdentifiers(resource: Resource, name: string): Identifier[] {
  const data = record(resource.relationships[name])?.['data'];
  const list = Array.isArray(data) ? data : data ? [data] : [];
  return list.map(asIdentifier).filter((entry): entry is Identifier => entry !== null);
}

/** The included resources `resource`'s relationship `name` points to, in relationship order. */
export function related(document: Document, resource: Resource, name: string): Resource[] {
  return relationshipIdentifiers(resource, name)
    .map((identifier) => document.included.get(`${identifier.type}:${identifier.id}`))
    .filter((entry): entry is Resource => entry !== undefined);
}

export function lookup(document: Document, identifier: Identifier): Resource | null {
  return document.included.get(`${identifier.type}:${identifier.id}`) ?? null;
}

export function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}
