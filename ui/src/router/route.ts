import { AREA_IDS, DEFAULT_AREA, type AreaId } from './areas.ts';

/** Hash routing: `#/migrate`. The server only ever serves `/`, so no fallback route is needed. */

export type Route =
  | { readonly kind: 'area'; readonly area: AreaId }
  /** A share's page for its recipient (`#/copy/{token}`): copy the shared playlist into your own account. */
  | { readonly kind: 'share-copy'; readonly token: string }
  | { readonly kind: 'not-found'; readonly path: string };

export interface ResolvedRoute {
  readonly route: Route;
  /** The hash the address bar should show; differs from the input when it was normalised. */
  readonly canonicalHash: string;
}

export function hrefFor(area: AreaId): string {
  return `#/${area}`;
}

function isAreaId(value: string): value is AreaId {
  return (AREA_IDS as readonly string[]).includes(value);
}

/**
 * Reads a `location.hash`. An empty hash goes to the default area; `#migrate`, `#/Migrate/` and
 * `#/migrate?x=1` all mean Migrate; anything else is "not found" and keeps its path for the message.
 */
export function resolveHash(hash: string): ResolvedRoute {
  const raw = hash.replace(/^#/, '');
  let path = raw.split(/[?#]/, 1)[0] ?? '';
  try {
    path = decodeURIComponent(path);
  } catch {
    // A malformed escape is simply an unknown path.
  }
  const copy = /^\/*copy\/([A-Za-z0-9_-]{1,200})\/*$/.exec(path);
  if (copy) return { route: { kind: 'share-copy', token: copy[1]! }, canonicalHash: `#/copy/${copy[1]!}` };
  const segment = path.replace(/^\/+/, '').replace(/\/+$/, '').toLowerCase();
  if (segment === '') return { route: { kind: 'area', area: DEFAULT_AREA }, canonicalHash: hrefFor(DEFAULT_AREA) };
  if (isAreaId(segment)) return { route: { kind: 'area', area: segment }, canonicalHash: hrefFor(segment) };
  return { route: { kind: 'not-found', path: `/${path.replace(/^\/+/, '')}` }, canonicalHash: `#${raw}` };
}

export function sameRoute(a: Route, b: Route): boolean {
  if (a.kind === 'area' && b.kind === 'area') return a.area === b.area;
  if (a.kind === 'not-found' && b.kind === 'not-found') return a.path === b.path;
  if (a.kind === 'share-copy' && b.kind === 'share-copy') return a.token === b.token;
  return false;
}
