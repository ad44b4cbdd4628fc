import { request } from 'undici';
import { wireUrl } from '@opl/plugin-sdk/sandbox';
import { z } from 'zod';

/**
 * The engine's requests to OAuth endpoints (token, device authorization, revocation): form posts
 * with a timeout, a response cap and no redirects. Endpoint URLs come from signed manifests;
 * `originOverrides` points them at fake providers in tests and demo mode. Errors carry the
 * provider's OAuth error code and a short description, never a token or a raw body.
 */

const TIMEOUT_MS = 15_000;
const MAX_RESPONSE_BYTES = 64 * 1024;

export const tokenResponseSchema = z
  .object({
    access_token: z.string().min(1).max(16_384),
    token_type: z.string().max(50).optional(),
    expires_in: z.coerce.number().int().nonnegative().max(10 * 365 * 86_400).optional(),
    /** Deezer's name for `expires_in`. */
    expires: z.coerce.number().int().nonnegative().max(10 * 365 * 86_400).optional(),
    refresh_token: z.string().min(1).max(16_384).optional(),
    scope: z.string().max(4_000).optional(),
  })
  // 0 means "does not expire" (Deezer's offline_access tokens), which is the same as no lifetime.
  .transform(({ expires, expires_in, ...rest }) => {
    const lifetime = expires_in ?? expires;
    return { ...rest, ...(lifetime ? { expires_in: lifetime } : {}) };
  });
export type TokenResponse = z.output<typeof tokenResponseSchema>;

export const deviceAuthorizationSchema = z.object({
  device_code: z.string().min(1).max(4_000),
  user_code: z.string().min(1).max(100),
  verification_uri: z.string().url().max(2_000).optional(),
  verification_url: z.string().url().max(2_000).optional(),
  verification_uri_complete: z.string().url().max(2_000).optional(),
  expires_in: z.coerce.number().int().positive().max(86_400),
  interval: z.coerce.number().int().positive().max(300).optional(),
});

/** An OAuth endpoint answered with an error (RFC 6749 §5.2), or not at all. */
export class OAuthEndpointError extends Error {
  /** `invalid_grant`, `authorization_pending`, `slow_down`, `access_denied`, `expired_token`, … or `unreachable`/`bad_response`. */
  readonly oauthError: string;
  readonly status: number;
  constructor(oauthError: string, status: number, description: string) {
    super(description);
    this.name = 'OAuthEndpointError';
    this.oauthError = oauthError;
    this.status = status;
  }
}

export interface OAuthHttpOptions {
  readonly originOverrides?: Readonly<Record<string, string>>;
}

const safeText = (value: unknown, max = 200) => (typeof value === 'string' ? value.replace(/[^\x20-\x7e]/g, ' ').slice(0, max) : '');

/**
 * Sends `form` to an OAuth endpoint: as an `application/x-www-form-urlencoded` POST (the standard),
 * or with `asQuery` as the query of a GET (providers such as Deezer that take the code exchange
 * that way). Either way the answer must be JSON; errors name only the endpoint's origin.
 */
export async function postForm(url: string, form: Record<string, string>, options: OAuthHttpOptions & { basicAuth?: { user: string; password: string }; asQuery?: boolean } = {}): Promise<unknown> {
  const target = new URL(url);
  const headers: Record<string, string> = options.asQuery ? { accept: 'application/json' } : { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  if (options.basicAuth) headers['authorization'] = `Basic ${Buffer.from(`${encodeURIComponent(options.basicAuth.user)}:${encodeURIComponent(options.basicAuth.password)}`).toString('base64')}`;
  const wire = new URL(wireUrl(target, options.originOverrides));
  if (options.asQuery) for (const [name, value] of Object.entries(form)) wire.searchParams.set(name, value);
  let response;
  try {
    response = await request(wire, options.asQuery ? { method: 'GET', headers, signal: AbortSignal.timeout(TIMEOUT_MS) } : { method: 'POST', headers, body: new URLSearchParams(form).toString(), signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new OAuthEndpointError('unreachable', 0, `${target.origin} did not answer${typeof code === 'string' ? ` (${code})` : ''}`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > MAX_RESPONSE_BYTES) {
      response.body.destroy();
      throw new OAuthEndpointError('bad_response', response.statusCode, `${target.origin} answered with more than ${MAX_RESPONSE_BYTES} bytes`);
    }
    chunks.push(chunk);
  }
  let json: unknown;
  try {
    json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    json = null;
  }
  if (response.statusCode >= 200 && response.statusCode < 300) {
    if (json === null) throw new OAuthEndpointError('bad_response', response.statusCode, `${target.origin} answered with something other than JSON`);
    return json;
  }
  const body = (json ?? {}) as Record<string, unknown>;
  const oauthError = safeText(body['error'], 60) || (response.statusCode === 429 ? 'rate_limited' : response.statusCode >= 500 ? 'server_error' : 'invalid_request');
  const description = safeText(body['error_description']) || `HTTP ${response.statusCode}`;
  throw new OAuthEndpointError(oauthError, response.statusCode, `${target.origin}: ${oauthError}: ${description}`);
}

export function parseTokenResponse(json: unknown, origin: string): TokenResponse {
  const parsed = tokenResponseSchema.safeParse(json);
  if (!parsed.success) throw new OAuthEndpointError('bad_response', 200, `${origin} answered without a usable access token`);
  if (parsed.data.token_type && parsed.data.token_type.toLowerCase() !== 'bearer') throw new OAuthEndpointError('bad_response', 200, `${origin} issued a ${safeText(parsed.data.token_type, 20)} token; only bearer tokens are supported`);
  return parsed.data;
}
