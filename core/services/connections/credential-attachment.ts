import type { AuthMethod, Manifest } from '@opl/plugin-sdk';
import type { SandboxCallContext } from '@opl/plugin-sdk/sandbox';

/**
 * Which origins get a connected account's credential, and as which headers. Pure, so the contract
 * suite and the connection service agree on exactly where a token may travel: only origins the
 * manifest grants, never the OAuth endpoints (the token endpoint must not receive an access
 * token), and only the declared header.
 */

type HostCredentials = NonNullable<SandboxCallContext['credentials']>;

/** The origins of an auth method's OAuth/device endpoints. */
function authEndpointOrigins(method: AuthMethod): Set<string> {
  const urls = [method.oauth?.authorization_url, method.oauth?.token_url, method.oauth?.revocation_url, method.device?.device_authorization_url, method.device?.token_url];
  return new Set(urls.filter((url): url is string => typeof url === 'string').map((url) => new URL(url).origin));
}

export function credentialOrigins(manifest: Pick<Manifest, 'network'>, method: AuthMethod): string[] {
  const granted = [...new Set(manifest.network.map((grant) => grant.origin))];
  if (method.credential_origins.length > 0) return method.credential_origins.filter((origin) => granted.includes(origin));
  const excluded = authEndpointOrigins(method);
  return granted.filter((origin) => !excluded.has(origin));
}

/** A bearer-style secret (OAuth access token, long-lived token, music user token, …). */
export interface TokenSecret {
  readonly kind: 'token';
  readonly access_token: string;
  /** Extra headers that come with the token (e.g. Apple's developer JWT as `authorization`). */
  readonly extra_headers?: Readonly<Record<string, string>>;
}

/** Pasted request headers (HEADER_PASTE): header name → value. */
export interface HeaderSecret {
  readonly kind: 'headers';
  readonly headers: Readonly<Record<string, string>>;
}

export type CredentialSecret = TokenSecret | HeaderSecret;

/** The call context's `credentials`: one entry per origin that may see the secret. */
export function credentialAttachments(manifest: Pick<Manifest, 'network' | 'credential_access'>, method: AuthMethod, secret: CredentialSecret): HostCredentials {
  // Token-in-URL APIs (`credential_query_param`) get the token as a query parameter instead of the header.
  const queryParam = secret.kind === 'token' ? method.credential_query_param : null;
  const headers: Record<string, string> =
    secret.kind === 'headers'
      ? { ...secret.headers }
      : queryParam !== null
        ? { ...secret.extra_headers }
        : { ...secret.extra_headers, [method.credential_header.name.toLowerCase()]: `${method.credential_header.prefix}${secret.access_token}` };
  const query = secret.kind === 'token' && queryParam !== null ? { [queryParam]: secret.access_token } : null;
  const shownTo = new Set(manifest.credential_access?.origins ?? []);
  // Header-signing schemes (YouTube Music's SAPISIDHASH is computed from the pasted cookie) need the
  // secret itself; it is still shown only to the manifest's `credential_access` origins.
  const token = secret.kind === 'token' ? secret.access_token : (secret.headers['cookie'] ?? null);
  return credentialOrigins(manifest, method).map((origin) => ({ origin, headers, ...(query ? { query } : {}), token: shownTo.has(origin) ? token : null }));
}
