import { formatKit } from '@opl/plugin-sdk';

/**
 * Track locations and identifiers, read with the SDK's `formatKit.classifyLocation` (a location is
 * data: it is never opened or fetched). Writing uses `formatKit.webUrlOf`: a Spotify or TIDAL track
 * URI becomes its web URL (SPEC "Export formats", rule 1) and the URI itself an `<identifier>`;
 * an imported file path becomes a `file:` or relative URI (location-uri.ts).
 * In XSPF a location is a URI: remote URLs and other URIs (`urn:…`, `tag:…`) are `other`; `file:`
 * URLs, drive-letter, UNC and colon-free relative paths are local files.
 */

export type Classified =
  | { readonly kind: 'provider'; readonly provider: string; readonly uri: string }
  | { readonly kind: 'local' }
  | { readonly kind: 'other' };

export function classifyLocation(location: string): Classified {
  const found = formatKit.classifyLocation(location);
  if (found.kind === 'provider') return found;
  return found.kind === 'local' ? { kind: 'local' } : { kind: 'other' };
}
