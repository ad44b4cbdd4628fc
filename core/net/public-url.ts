/**
 * The rules a user-supplied URL must pass before the engine makes any network request for it:
 * HTTPS, an exactly allowed host and path prefix, no credentials, the default port, a bounded
 * length and a host name rather than an IP address. Every decision is made on the WHATWG-parsed URL
 * (what undici will connect to), never on how the string looks, so `0x7f.1`, `2130706433`,
 * `allowed.test@evil.test` or `/v1/..%2fadmin` are judged by what they address.
 */

export interface AllowedHost {
  /** A host name, compared exactly after IDNA, lower-casing and trailing-dot normalisation. */
  readonly host: string;
  /** Path prefixes matched at a segment boundary: `/v1` covers `/v1` and `/v1/x`, never `/v10`. */
  readonly pathPrefixes: readonly string[];
}

export interface PublicUrlPolicy {
  readonly allowedHosts: readonly AllowedHost[];
  readonly maxUrlLength: number;
}

export type UrlRefusalReason =
  | 'invalid_url'
  | 'url_too_long'
  | 'unsupported_scheme'
  | 'credentials_in_url'
  | 'port_not_allowed'
  | 'ip_literal_host'
  | 'host_not_allowed'
  | 'path_not_allowed'
  | 'path_encoding';

export type PublicUrlCheck =
  | { readonly ok: true; readonly url: URL }
  | { readonly ok: false; readonly code: 'url_not_allowed'; readonly reason: UrlRefusalReason; readonly detail: string };

// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
const CONTROL_OR_SPACE = /[\u0000-\u0020\u007f]/;
const LEADING_SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;
const IPV4_DOTTED = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;
// An encoded `/`, `\` or `.` (or a second round of encoding) that a server might decode again.
const ENCODED_SEPARATOR = /%(?:2f|5c|2e|25)/i;
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
const DECODED_FORBIDDEN = /[\u0000-\u001f\u007f/\\]/;
const ASCII_WHITESPACE = /^[\t\n\f\r ]+|[\t\n\f\r ]+$/g;

/** Shows a URL in a refusal without its userinfo, query or fragment, shortened. */
export function describeUrl(url: URL): string {
  const text = `${url.protocol}//${url.host}${url.pathname}`;
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

function refuse(reason: UrlRefusalReason, detail: string): PublicUrlCheck {
  return { ok: false, code: 'url_not_allowed', reason, detail };
}

/**
 * The host name as compared and connected to: the parser's ASCII (punycode) lower-case form with
 * one trailing dot removed; null for a host that is not a plain DNS name.
 */
export function normaliseHostName(host: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(`https://${host}/`);
  } catch {
    return null;
  }
  if (parsed.username !== '' || parsed.password !== '' || parsed.port !== '' || parsed.pathname !== '/' || parsed.search !== '' || parsed.hash !== '') return null;
  return hostNameOf(parsed.hostname);
}

function hostNameOf(hostname: string): string | null {
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  if (name === '' || name.split('.').some((label) => label === '' || label.length > 63) || name.length > 253) return null;
  return name;
}

/** True for hosts the URL parser produced from an IP address (any IPv4 spelling, or `[v6]`). */
export function isIpLiteralHostName(hostname: string): boolean {
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  return name.startsWith('[') || name.includes(':') || IPV4_DOTTED.test(name);
}

/**
 * The path as a server sees it after one round of percent-decoding, or null when decoding could
 * reveal a different path than the one the parser normalised: encoded `/`, `\`, `.` or `%`,
 * malformed escapes, control characters, or dot segments (also `..;` path-parameter forms).
 */
export function decodedPath(pathname: string): string | null {
  if (!pathname.startsWith('/')) return null;
  const decoded: string[] = [];
  for (const segment of pathname.split('/')) {
    if (ENCODED_SEPARATOR.test(segment)) return null;
    let value: string;
    try {
      value = decodeURIComponent(segment);
    } catch {
      return null;
    }
    if (DECODED_FORBIDDEN.test(value)) return null;
    const bare = value.split(';')[0];
    if (bare === '.' || bare === '..') return null;
    decoded.push(value);
  }
  return decoded.join('/');
}

/** A path prefix matches at a segment boundary: `/v1` covers `/v1` and `/v1/…`, never `/v10`. */
export function pathMatchesPrefix(path: string, prefix: string): boolean {
  if (prefix === '/' || prefix.endsWith('/')) return path.startsWith(prefix);
  return path === prefix || path.startsWith(`${prefix}/`);
}

/** Whether the raw text had `@` in its authority, even an empty `https://@host` userinfo. */
function rawAuthorityHasAt(raw: string): boolean {
  const start = raw.indexOf('//');
  if (start === -1) return raw.includes('@');
  const rest = raw.slice(start + 2);
  const end = rest.search(/[/?#\\]/);
  return (end === -1 ? rest : rest.slice(0, end)).includes('@');
}

export function checkPublicUrl(raw: string, policy: PublicUrlPolicy): PublicUrlCheck {
  if (typeof raw !== 'string') return refuse('invalid_url', 'the URL must be a string');
  const text = raw.replace(ASCII_WHITESPACE, '');
  if (text.length === 0) return refuse('invalid_url', 'the URL is empty');
  if (text.length > policy.maxUrlLength) return refuse('url_too_long', `the URL is longer than ${policy.maxUrlLength} characters`);
  const scheme = LEADING_SCHEME.exec(text)?.[1]?.toLowerCase();
  if (scheme !== undefined && scheme !== 'https') return refuse('unsupported_scheme', `the scheme ${scheme}: is not supported; use an https:// link`);
  if (CONTROL_OR_SPACE.test(text)) return refuse('invalid_url', 'the URL contains spaces or control characters');
  if (text.includes('\\')) return refuse('invalid_url', 'the URL contains a backslash');

  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refuse('invalid_url', 'the text is not an absolute https:// URL');
  }
  if (url.protocol !== 'https:') return refuse('unsupported_scheme', `the scheme ${url.protocol} is not supported; use an https:// link`);
  if (url.username !== '' || url.password !== '' || rawAuthorityHasAt(text)) {
    return refuse('credentials_in_url', `https://${url.host}: links with credentials (user@host) are not allowed`);
  }
  if (url.port !== '') return refuse('port_not_allowed', `${describeUrl(url)}: only the default https port is allowed`);
  if (isIpLiteralHostName(url.hostname)) return refuse('ip_literal_host', `${describeUrl(url)}: IP address hosts are not allowed; use the host name`);

  const host = hostNameOf(url.hostname);
  if (host === null) return refuse('invalid_url', `${describeUrl(url)}: the host name is not valid`);
  const entries = policy.allowedHosts.filter((entry) => normaliseHostName(entry.host) === host);
  if (entries.length === 0) return refuse('host_not_allowed', `${host} is not one of the allowed hosts for imports`);
  url.hostname = host;
  url.hash = '';

  const path = decodedPath(url.pathname);
  if (path === null) return refuse('path_encoding', `${describeUrl(url)}: the path contains encoded separators, dot segments or control characters`);
  const allowed = entries.some((entry) =>
    entry.pathPrefixes.some((prefix) => {
      const decodedPrefix = decodedPath(prefix);
      return decodedPrefix !== null && pathMatchesPrefix(path, decodedPrefix);
    }),
  );
  if (!allowed) return refuse('path_not_allowed', `${describeUrl(url)}: the path is outside the allowed paths of ${host}`);
  if (url.href.length > policy.maxUrlLength) return refuse('url_too_long', `the normalised URL is longer than ${policy.maxUrlLength} characters`);
  return { ok: true, url };
}
