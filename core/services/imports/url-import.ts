import type { Manifest } from '@opl/plugin-sdk';
import { checkPublicUrl, isSafeFetchError, safeFetch, type SafeFetchPolicy, type SafeFetchResponse } from '../../net/index.ts';

/**
 * Which kind of public link a URL import is, decided before any network request: a share link of
 * this engine (read from the database, no network), a share link of another engine on an allowed
 * host (only its public share snapshot JSON is fetched), a provider's playlist link (read only
 * through that provider's API, with a connected account), or remote Open Playlist JSON on an
 * allowed host. Anything else is refused without touching the network.
 */

export const MAX_IMPORT_URL_LENGTH = 2_048;
const FETCH_TIMEOUT_MS = 15_000;
const MAX_HEADER_BYTES = 16 * 1024;

/** A share token as this engine mints them (base64url); other instances are held to the same form. */
export const SHARE_TOKEN = /^[A-Za-z0-9_-]{32,128}$/;
const SHARE_PATH = /^\/share\/([^/]+)\/?$/;
/** Any playlist id a link may carry when its provider declares no pattern. */
const DEFAULT_ID_PATTERN = '^[A-Za-z0-9_-]{1,200}$';

export type UrlImportTarget =
  | { kind: 'provider_playlist'; provider: string; displayName: string; pluginId: string; playlistId: string }
  | { kind: 'local_share'; token: string }
  | { kind: 'remote_share'; url: URL; host: string; token: string }
  | { kind: 'remote_json'; url: URL }
  | { kind: 'refused'; reason: string; detail: string };

type PlaylistLink = NonNullable<Manifest['provider']>['playlist_links'][number];

function linkMatches(url: URL, link: PlaylistLink): boolean {
  if (url.origin !== link.origin) return false;
  const prefix = link.path_prefix;
  return url.pathname === prefix || url.pathname.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`);
}

/** The playlist id a declared link carries, or null when it carries none of the declared form. */
export function playlistIdOf(url: URL, link: PlaylistLink): string | null {
  let raw: string | null;
  if (link.id_query_param) {
    const values = url.searchParams.getAll(link.id_query_param);
    raw = values.length === 1 ? values[0]! : null;
  } else {
    const rest = url.pathname.slice(link.path_prefix.length).replace(/^\//, '');
    raw = rest.split('/')[0] ?? null;
  }
  if (raw === null || raw === '' || raw.length > 200) return null;
  // The pattern is one bounded character class (the manifest schema allows no other shape).
  return new RegExp(link.id_pattern ?? DEFAULT_ID_PATTERN).test(raw) ? raw : null;
}

/** Origins under which this engine itself serves `/share/{token}` (its public base URL, the request's own origin). */
export interface LocalShareOrigins {
  readonly origins: readonly string[];
}

function localShareToken(raw: string, local: LocalShareOrigins): string | null {
  if (raw.length > MAX_IMPORT_URL_LENGTH || local.origins.length === 0) return null;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  if (url.username !== '' || url.password !== '' || !local.origins.includes(url.origin)) return null;
  const token = SHARE_PATH.exec(url.pathname)?.[1];
  return token !== undefined && SHARE_TOKEN.test(token) ? token : null;
}

export function classifyImportUrl(raw: string, manifests: readonly Manifest[], allowedHosts: SafeFetchPolicy['allowedHosts'], local: LocalShareOrigins = { origins: [] }): UrlImportTarget {
  const localToken = localShareToken(raw, local);
  if (localToken !== null) return { kind: 'local_share', token: localToken };
  // Provider links are recognised with the same strict rules (https, no userinfo, default port, no IP literal).
  const providerHosts = manifests.flatMap((manifest) => manifest.provider?.playlist_links.map((link) => ({ host: new URL(link.origin).hostname, pathPrefixes: [link.path_prefix] })) ?? []);
  const asProvider = checkPublicUrl(raw, { allowedHosts: providerHosts, maxUrlLength: MAX_IMPORT_URL_LENGTH });
  if (asProvider.ok) {
    for (const manifest of manifests) {
      const provider = manifest.provider;
      const link = provider?.playlist_links.find((candidate) => linkMatches(asProvider.url, candidate));
      if (!provider || !link) continue;
      const playlistId = playlistIdOf(asProvider.url, link);
      if (playlistId === null) {
        return { kind: 'refused', reason: 'invalid_playlist_link', detail: `this ${provider.display_name} link names no playlist the engine recognises; copy the playlist's share link from ${provider.display_name} again.` };
      }
      return { kind: 'provider_playlist', provider: provider.name, displayName: provider.display_name, pluginId: manifest.id, playlistId };
    }
  }
  const asRemote = checkPublicUrl(raw, { allowedHosts, maxUrlLength: MAX_IMPORT_URL_LENGTH });
  if (asRemote.ok) {
    const token = SHARE_PATH.exec(asRemote.url.pathname)?.[1];
    if (token !== undefined) {
      if (!SHARE_TOKEN.test(token)) return { kind: 'refused', reason: 'invalid_share_link', detail: 'the share link does not hold a valid share token.' };
      const host = asRemote.url.hostname.replace(/\.$/, '');
      return { kind: 'remote_share', url: new URL(`https://${host}/api/public/shares/${token}`), host, token };
    }
    return { kind: 'remote_json', url: asRemote.url };
  }
  if (asRemote.reason === 'host_not_allowed' && allowedHosts.length === 0 && providerHosts.length === 0) {
    return { kind: 'refused', reason: 'host_not_allowed', detail: 'URL imports accept share links of this engine, provider playlist links and remote Open Playlist JSON from configured hosts, but no provider plugin declares links and OPL_IMPORT_URL_ALLOWED_HOSTS is empty.' };
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
