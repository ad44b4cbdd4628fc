import { HTTP_METHODS, type NetworkGrant } from '../manifest.schema.ts';

/**
 * Decides whether a plugin may send one request. Every decision is made on the WHATWG-parsed URL
 * (the same parser undici uses to connect), never on the raw string, so spellings such as
 * `0x7f.1`, `api.example.com@evil.test` or `/v1/..%2f..%2fadmin` are judged by what they really
 * address rather than by how they look.
 */

export type GrantRefusalReason = 'invalid_url' | 'scheme' | 'userinfo' | 'ip_literal' | 'origin' | 'path_encoding' | 'path' | 'method';

export type GrantDecision =
  | { readonly allowed: true; readonly url: URL; readonly grant: NetworkGrant }
  | { readonly allowed: false; readonly reason: GrantRefusalReason; readonly message: string };

export type HttpMethod = (typeof HTTP_METHODS)[number];

const IPV4_DOTTED = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;
// A percent-encoded separator or dot that a server might decode a second time.
const ENCODED_SEPARATOR = /%(?:2f|5c|2e)/i;
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f\\]/;

/** True for hosts the URL parser produced from an IP address (any v4 spelling, or `[v6]`). */
export function isIpLiteralHost(hostname: string): boolean {
  return hostname.startsWith('[') || IPV4_DOTTED.test(hostname);
}

export function isHttpMethod(method: string): method is HttpMethod {
  return (HTTP_METHODS as readonly string[]).includes(method);
}

/**
 * The path as a server sees it after one round of percent-decoding, or null when that decoding
 * could reveal a different path than the parser normalised (encoded `/`, `\` or `.`, malformed
 * escapes, dot segments, control characters).
 */
export function decodedPath(pathname: string): string | null {
  const segments = pathname.split('/');
  const decoded: string[] = [];
  for (const segment of segments) {
    if (ENCODED_SEPARATOR.test(segment)) return null;
    let value: string;
    try {
      value = decodeURIComponent(segment);
    } catch {
      return null;
    }
    if (CONTROL_CHARACTER.test(value) || ENCODED_SEPARATOR.test(value)) return null;
    decoded.push(value);
  }
  // Interior dot segments were already resolved by the parser; one that survives decoding was encoded.
  if (decoded.slice(1).some((segment) => segment === '.' || segment === '..')) return null;
  return decoded.join('/');
}

/** A path prefix matches at a segment boundary: `/v1` covers `/v1` and `/v1/…`, never `/v10`. */
export function pathMatchesPrefix(path: string, prefix: string): boolean {
  if (prefix === '/' || prefix.endsWith('/')) return path.startsWith(prefix);
  return path === prefix || path.startsWith(`${prefix}/`);
}

function refuse(reason: GrantRefusalReason, message: string): GrantDecision {
  return { allowed: false, reason, message };
}

/** Shows a URL in a refusal without any userinfo it carried. */
export function describeUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

export function matchGrant(grants: readonly NetworkGrant[], target: string | URL, method: string): GrantDecision {
  let url: URL;
  try {
    url = typeof target === 'string' ? new URL(target) : new URL(target.href);
  } catch {
    return refuse('invalid_url', 'the request URL is not an absolute http(s) URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return refuse('scheme', `the scheme ${url.protocol} is not allowed`);
  if (url.username !== '' || url.password !== '') return refuse('userinfo', `${describeUrl(url)}: URLs with credentials (user@host) are not allowed`);
  const upperMethod = method.toUpperCase();
  if (!isHttpMethod(upperMethod)) return refuse('method', `the method ${method} is not allowed`);

  const sameOrigin = grants.filter((grant) => new URL(grant.origin).origin === url.origin);
  if (sameOrigin.length === 0) {
    if (isIpLiteralHost(url.hostname)) return refuse('ip_literal', `${describeUrl(url)}: IP address hosts are allowed only when a grant names that address`);
    return refuse('origin', `${describeUrl(url)}: the origin ${url.origin} matches no network grant of this plugin`);
  }

  const path = decodedPath(url.pathname);
  if (path === null) return refuse('path_encoding', `${describeUrl(url)}: the path contains encoded separators, dots or control characters`);
  const samePath = sameOrigin.filter((grant) => {
    const prefix = decodedPath(grant.path_prefix);
    return prefix !== null && pathMatchesPrefix(path, prefix);
  });
  if (samePath.length === 0) return refuse('path', `${describeUrl(url)}: the path is outside the granted prefixes of ${url.origin}`);

  const grant = samePath.find((candidate) => (candidate.methods as readonly string[]).includes(upperMethod));
  if (!grant) return refuse('method', `${describeUrl(url)}: ${upperMethod} is not granted for this path`);
  return { allowed: true, url, grant };
}
