import type { Manifest } from '@opl/plugin-sdk';
import { checkPublicUrl, isSafeFetchError, safeFetch, type SafeFetchPolicy, type SafeFetchResponse } from '../../net/index.ts';

/**
 * Which kind of public link a URL import is, decided before any network request: a provider's
 * playlist link (read only through that provider's API, with a connected account), or remote Open
 * Playlist JSON on an allowed host. Anything else is refused without touching the network.
 */

export const MAX_IMPORT_URL_LENGTH = 2_048;
const FETCH_TIMEOUT_MS = 15_000;
const MAX_HEADER_BYTES = 16 * 1024;

export type UrlImportTarget =
  | { kind: 'provider_playlist'; provider: string; displayName: string; pluginId: string }
  | { kind: 'remote_json'; url: URL }
  | { kind: 'refused'; reason: string; detail: string };

/** A provider plugin's declared playlist link (exact origin, path prefix at a segment boundary). */
function providerFor(url: URL, manifests: readonly Manifest[]): Manifest | undefined {
  return manifests.find((manifest) =>
    manifest.provider?.playlist_links.some((link) => {
      if (url.origin !== link.origin) return false;
      const prefix = link.path_prefix;
      return url.pathname === prefix || url.pathname.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`);
    }),
  );
}

export function classifyImportUrl(raw: string, manifests: readonly Manifest[], allowedHosts: SafeFetchPolicy['allowedHosts']): UrlImportTarget {
  // Provider links are recognised with the same strict rules (https, no userinfo, default port, no IP literal).
  const providerHosts = manifests.flatMap((manifest) => manifest.provider?.playlist_links.map((link) => ({ host: new URL(link.origin).hostname, pathPrefixes: [link.path_prefix] })) ?? []);
  const asProvider = checkPublicUrl(raw, { allowedHosts: providerHosts, maxUrlLength: MAX_IMPORT_URL_LENGTH });
  if (asProvider.ok) {
    const provider = providerFor(asProvider.url, manifests);
    if (provider?.provider) return { kind: 'provider_playlist', provider: provider.provider.name, displayName: provider.provider.display_name, pluginId: provider.id };
  }
  const asRemote = checkPublicUrl(raw, { allowedHosts, maxUrlLength: MAX_IMPORT_URL_LENGTH });
  if (asRemote.ok) return { kind: 'remote_json', url: asRemote.url };
  if (asRemote.reason === 'host_not_allowed' && allowedHosts.length === 0 && providerHosts.length === 0) {
    return { kind: 'refused', reason: 'host_not_allowed', detail: 'URL imports accept provider playlist links and remote Open Playlist JSON from configured hosts, but no provider plugin declares links and OPL_IMPORT_URL_ALLOWED_HOSTS is empty.' };
  }
  return { kind: 'refused', reason: asRemote.reason, detail: asRemote.detail };
}

/** Fetches remote Open Playlist JSON with the SSRF-safe fetcher; the caller maps its errors. */
export async function fetchRemoteJson(
  url: URL,
  options: { allowedHosts: SafeFetchPolicy['allowedHosts']; maxBytes: number; overrides?: Partial<SafeFetchPolicy> },
): Promise<SafeFetchResponse> {
  return safeFetch(url.href, {
    allowedHosts: options.allowedHosts,
    maxUrlLength: MAX_IMPORT_URL_LENGTH,
    timeoutMs: FETCH_TIMEOUT_MS,
    maxHeaderBytes: MAX_HEADER_BYTES,
    maxResponseBytes: options.maxBytes,
    accept: 'application/vnd.open-playlist+json, application/json;q=0.9',
    ...options.overrides,
  });
}

export { isSafeFetchError };
