// core/net: outbound HTTP to user-supplied public URLs (SSRF-safe). A low layer: no services,
// http or app imports, no configuration reads; callers pass the policy.
export { classifyAddress, isPublicAddress, parseIpv4, parseIpv6, type AddressClass, type AddressFamily, type AddressRange } from './ip-address.ts';
export {
  checkPublicUrl,
  decodedPath,
  describeUrl,
  isIpLiteralHostName,
  normaliseHostName,
  pathMatchesPrefix,
  type AllowedHost,
  type PublicUrlCheck,
  type PublicUrlPolicy,
  type UrlRefusalReason,
} from './public-url.ts';
export { resolvePublicAddresses, systemResolver, type HostResolver, type ResolvedAddress } from './guarded-agent.ts';
export { DEFAULT_MAX_REDIRECTS, safeFetch, type SafeFetchPolicy, type SafeFetchResponse, type SafeFetchTestHooks } from './safe-fetch.ts';
export { isSafeFetchError, SAFE_FETCH_CODES, SafeFetchError, type SafeFetchCode, type SafeFetchReason } from './safe-fetch-error.ts';
