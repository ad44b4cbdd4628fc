import { Buffer } from 'node:buffer';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, request, type Dispatcher } from 'undici';
import { z } from 'zod';
import { HTTP_METHODS, type Manifest } from '../manifest.schema.ts';
import { describeUrl, matchGrant, type GrantRefusalReason } from './grant-matcher.ts';
import { createRedactor, secretsOf, type Redactor } from './redactor.ts';

/**
 * The sandbox's only way out. Each hop of a request (redirects are followed here, by hand) is
 * checked against the manifest's grants, waits for the rate limiter, gets the account's
 * credential headers when its origin has one, and is bounded in time and size. What goes back to
 * the plugin is a fully read response with credential values masked, never a live stream.
 */

export const MAX_REDIRECTS = 5;
/** Automatic retries of a request answered 429 (the only status retried without the plugin). */
export const MAX_RATE_LIMIT_RETRIES = 2;
/** A 429 asking to wait longer than this goes back to the plugin (as a RateLimited) instead. */
export const MAX_RETRY_AFTER_S = 30;
const MAX_REQUEST_BODY = 8 * 1024 * 1024;
const MAX_URL_LENGTH = 8_000;
// Header names the host owns: framing, routing and hop-by-hop headers.
const HOST_OWNED_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'proxy-authorization',
  'proxy-connection',
]);
// Plugin-set headers that must not follow a redirect to another origin.
const ORIGIN_BOUND_HEADERS = ['authorization', 'cookie'];
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

const headerName = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/);
// eslint-disable-next-line no-control-regex -- CR, LF and NUL would split or truncate the header
const headerValue = z.string().max(8_192).regex(/^[^\r\n\u0000]*$/);

/** What a plugin may ask for: validated here because it comes out of the sandbox. */
export const pluginFetchRequestSchema = z.object({
  url: z.string().min(1).max(MAX_URL_LENGTH),
  method: z.enum(HTTP_METHODS).default('GET'),
  headers: z.record(headerName, headerValue).default({}),
  body: z.string().max(MAX_REQUEST_BODY).nullable().default(null),
});

export type PluginFetchRequest = z.input<typeof pluginFetchRequestSchema>;

/** A credential the engine hands the sandbox for one call: headers to attach for one origin. */
export interface HostCredential {
  readonly origin: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Query parameters set on the wire URL only (APIs that take the token in the URL). */
  readonly query?: Readonly<Record<string, string>>;
  /** The raw token, shown to the plugin as `ctx.credential` only for `credential_access` origins. */
  readonly token?: string | null;
}

export interface HostFetchResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly url: string;
  readonly body: Uint8Array;
}

export interface HostFetchCall {
  readonly credentials: readonly HostCredential[];
  /**
   * Awaited before every request, each redirect hop and 429 retry included: the rate limiter's
   * permit. `retryAfterS` is set when the previous attempt was answered 429 and asked to wait.
   */
  readonly beforeRequest?: (retryAfterS?: number) => Promise<void>;
  /** Aborts the request when the call ends first. */
  readonly signal?: AbortSignal;
  /** Masks these secrets in the response; defaults to the values of `credentials`. */
  readonly redactor?: Redactor;
}

export type HostFetchFailure = 'refused' | 'invalid_request' | 'rate_limited' | 'timeout' | 'too_large' | 'too_many_redirects' | 'network' | 'aborted';

export class HostFetchError extends Error {
  readonly failure: HostFetchFailure;
  readonly refusal: GrantRefusalReason | null;
  constructor(failure: HostFetchFailure, message: string, refusal: GrantRefusalReason | null = null) {
    super(message);
    this.name = 'HostFetchError';
    this.failure = failure;
    this.refusal = refusal;
  }
}

export interface HostFetch {
  fetch(request: unknown, call: HostFetchCall): Promise<HostFetchResponse>;
  close(): Promise<void>;
}

export interface HostFetchOptions {
  readonly manifest: Pick<Manifest, 'network' | 'limits'>;
  /** undici dispatcher to send with; the caller keeps ownership. */
  readonly dispatcher?: Dispatcher;
  /**
   * Host names answered without DNS (`{"api.example.com": "127.0.0.1"}`), for fakes standing in
   * for real providers. Grants are still checked against the name the plugin used.
   */
  readonly hostResolver?: Readonly<Record<string, string>>;
  /**
   * Real origin → the base URL requests for it are actually sent to (`{"https://api.spotify.com":
   * "http://127.0.0.1:4123"}`): fake providers in tests and demo mode. Grants, credentials and
   * redirects are all decided on the real URL; only the wire address changes.
   */
  readonly originOverrides?: Readonly<Record<string, string>>;
  readonly maxRedirects?: number;
  /** Automatic retries after a 429 with a short enough Retry-After; default MAX_RATE_LIMIT_RETRIES. */
  readonly rateLimitRetries?: number;
}

/** Seconds from a Retry-After header (delta-seconds or an HTTP date); null when absent or unreadable. */
export function retryAfterSeconds(value: string | string[] | undefined, now = Date.now()): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || text.trim() === '') return null;
  if (/^\d+$/.test(text.trim())) return Number(text.trim());
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}

/** Where a request for `url` goes on the wire, given the origin overrides. */
export function wireUrl(url: URL, overrides: Readonly<Record<string, string>> | undefined): URL {
  const base = overrides?.[url.origin];
  if (!base) return url;
  const target = new URL(base);
  const prefix = target.pathname.replace(/\/$/, '');
  target.pathname = prefix + url.pathname;
  target.search = url.search;
  return target;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * An undici Agent that answers the listed host names itself (others go to DNS). The grant check
 * has already run on the name the plugin used, so this only decides where that name connects.
 */
export function createResolvingAgent(table: Readonly<Record<string, string>>): Agent {
  const lookup = (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    const address = table[hostname.toLowerCase()];
    if (address === undefined) {
      dnsLookup(hostname, { all: true }, (error, addresses) => (options.all ? callback(error, addresses) : callback(error, addresses[0]?.address ?? '', addresses[0]?.family)));
      return;
    }
    const family = isIP(address) === 6 ? 6 : 4;
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
  return new Agent({ connect: { lookup } });
}

function withoutHeaders(headers: Record<string, string>, names: Iterable<string>): Record<string, string> {
  const drop = new Set([...names].map((name) => name.toLowerCase()));
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !drop.has(name.toLowerCase())));
}

function responseHeaders(raw: Record<string, string | string[] | undefined>, redactor: Redactor): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    const lower = name.toLowerCase();
    // Cookies a provider sets are session material for the host, not data for the plugin.
    if (value === undefined || lower === 'set-cookie' || lower === '__proto__') continue;
    headers[lower] = redactor.text(Array.isArray(value) ? value.join(', ') : value);
  }
  return headers;
}

async function readCapped(body: Dispatcher.ResponseData['body'], cap: number, url: URL): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    total += chunk.byteLength;
    if (total > cap) {
      body.destroy();
      throw new HostFetchError('too_large', `${describeUrl(url)}: the response is larger than the plugin's limit of ${cap} bytes`);
    }
    chunks.push(chunk);
  }
  const joined = Buffer.concat(chunks, total);
  return new Uint8Array(joined.buffer, joined.byteOffset, joined.byteLength);
}

export function createHostFetch(options: HostFetchOptions): HostFetch {
  const { network, limits } = options.manifest;
  const maxRedirects = options.maxRedirects ?? MAX_REDIRECTS;
  const rateLimitRetries = options.rateLimitRetries ?? MAX_RATE_LIMIT_RETRIES;
  const ownedAgent = !options.dispatcher && options.hostResolver ? createResolvingAgent(options.hostResolver) : null;
  const dispatcher = options.dispatcher ?? ownedAgent ?? undefined;

  async function send(raw: unknown, call: HostFetchCall): Promise<HostFetchResponse> {
    const parsed = pluginFetchRequestSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new HostFetchError('invalid_request', `invalid fetch request: ${issue ? `${issue.path.join('.') || 'request'}: ${issue.message}` : 'malformed'}`);
    }
    const redactor = call.redactor ?? createRedactor(secretsOf(call.credentials));
    const credentialQueryNames = new Set(call.credentials.flatMap((credential) => Object.keys(credential.query ?? {})));
    // Each attempt (redirect hop, 429 retry) gets the full request timeout.
    let timeout = AbortSignal.timeout(limits.request_timeout_ms);
    let signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout;

    let method = parsed.data.method;
    let body = parsed.data.body;
    let pluginHeaders = withoutHeaders(parsed.data.headers, HOST_OWNED_HEADERS);
    let target: string | URL = parsed.data.url;
    let previousOrigin: string | null = null;
    let rateLimitRetriesLeft = rateLimitRetries;
    let retryAfter: number | undefined;

    for (let hop = 0; ; hop++) {
      if (hop > 0 || retryAfter !== undefined) {
        timeout = AbortSignal.timeout(limits.request_timeout_ms);
        signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout;
      }
      const decision = matchGrant(network, target, method);
      if (!decision.allowed) {
        const prefix = hop === 0 ? 'request refused' : `redirect refused (hop ${hop})`;
        throw new HostFetchError('refused', `${prefix}: ${decision.message}`, decision.reason);
      }
      const url = decision.url;
      if (previousOrigin !== null && previousOrigin !== url.origin) pluginHeaders = withoutHeaders(pluginHeaders, ORIGIN_BOUND_HEADERS);
      const credentialHeaders: Record<string, string> = {};
      const credentialQuery: Record<string, string> = {};
      for (const credential of call.credentials) {
        if (credential.origin !== url.origin) continue;
        Object.assign(credentialHeaders, credential.headers);
        Object.assign(credentialQuery, credential.query);
      }
      // The credential goes on the wire URL only; `url` (what the plugin and messages see) stays clean.
      const sent = new URL(url);
      for (const [name, value] of Object.entries(credentialQuery)) sent.searchParams.set(name, value);
      const headers = { ...withoutHeaders(pluginHeaders, Object.keys(credentialHeaders)), ...credentialHeaders };

      if (call.beforeRequest) {
        try {
          await call.beforeRequest(retryAfter);
        } catch (error) {
          throw new HostFetchError('rate_limited', `${describeUrl(url)}: the rate limiter did not grant the request: ${error instanceof Error ? error.message.slice(0, 200) : 'refused'}`);
        }
      }
      if (signal.aborted) throw abortError(timeout, limits.request_timeout_ms, url);

      let response: Dispatcher.ResponseData;
      try {
        response = await request(wireUrl(sent, options.originOverrides), { method, headers, body: body ?? undefined, signal, ...(dispatcher ? { dispatcher } : {}) });
      } catch (error) {
        if (signal.aborted) throw abortError(timeout, limits.request_timeout_ms, url);
        const code = (error as { code?: unknown }).code;
        throw new HostFetchError('network', `${describeUrl(url)}: network error${typeof code === 'string' ? ` (${code})` : ''}`);
      }

      // 429 is the one answer retried here: the provider did not act on the request, so even a
      // write is safe to resend. Waiting goes through the limiter so every process holds back.
      if (response.statusCode === 429 && rateLimitRetriesLeft > 0) {
        const wait = retryAfterSeconds(response.headers['retry-after']) ?? 1;
        if (wait <= MAX_RETRY_AFTER_S) {
          await response.body.dump().catch(() => undefined);
          rateLimitRetriesLeft -= 1;
          retryAfter = wait;
          if (!call.beforeRequest) await sleep(wait * 1000, call.signal ?? null);
          hop -= 1;
          continue;
        }
      }
      retryAfter = undefined;

      const location = response.headers.location;
      if (REDIRECT_STATUSES.has(response.statusCode) && typeof location === 'string') {
        await response.body.dump().catch(() => undefined);
        if (hop >= maxRedirects) throw new HostFetchError('too_many_redirects', `${describeUrl(url)}: more than ${maxRedirects} redirects`);
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          throw new HostFetchError('network', `${describeUrl(url)}: the redirect location is not a URL`);
        }
        // A Location that echoes a URL credential must not carry it on (least of all to another origin).
        for (const name of credentialQueryNames) next.searchParams.delete(name);
        if (response.statusCode === 303 || ((response.statusCode === 301 || response.statusCode === 302) && method === 'POST')) {
          method = 'GET';
          body = null;
          pluginHeaders = withoutHeaders(pluginHeaders, ['content-type']);
        }
        previousOrigin = url.origin;
        target = next;
        continue;
      }

      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > limits.max_response_bytes) {
        response.body.destroy();
        throw new HostFetchError('too_large', `${describeUrl(url)}: the response is larger than the plugin's limit of ${limits.max_response_bytes} bytes`);
      }
      let bytes: Uint8Array;
      try {
        bytes = await readCapped(response.body, limits.max_response_bytes, url);
      } catch (error) {
        if (error instanceof HostFetchError) throw error;
        if (signal.aborted) throw abortError(timeout, limits.request_timeout_ms, url);
        throw new HostFetchError('network', `${describeUrl(url)}: the response body could not be read`);
      }
      return {
        status: response.statusCode,
        headers: responseHeaders(response.headers, redactor),
        url: redactor.text(describeUrl(url) + url.search),
        body: redactor.active ? redactor.bytes(bytes) : bytes,
      };
    }
  }

  return {
    fetch: send,
    async close() {
      await ownedAgent?.close();
    },
  };
}

function sleep(ms: number, signal: AbortSignal | null): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

function abortError(timeout: AbortSignal, timeoutMs: number, url: URL): HostFetchError {
  return timeout.aborted
    ? new HostFetchError('timeout', `${describeUrl(url)}: no complete response within ${timeoutMs} ms`)
    : new HostFetchError('aborted', `${describeUrl(url)}: the request was cancelled because the call ended`);
}
