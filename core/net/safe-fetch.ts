import { Buffer } from 'node:buffer';
import { request, type Dispatcher } from 'undici';
import { createGuardedAgent, resolvePublicAddresses, systemResolver, type HostResolver } from './guarded-agent.ts';
import { checkPublicUrl, describeUrl, type PublicUrlPolicy } from './public-url.ts';
import { SafeFetchError } from './safe-fetch-error.ts';

/**
 * Fetches a user-supplied public URL without letting it reach the engine's own network: the URL
 * rules run before anything is sent, every DNS answer is checked inside the connect, redirects are
 * followed by hand with each hop re-checked, and time, header bytes and body bytes are capped.
 * Compression is refused rather than decoded, so the byte cap is the cap on what is parsed.
 */

export const DEFAULT_MAX_REDIRECTS = 3;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * Hooks for tests, which have no public host to fetch from. Production wiring never sets them.
 */
export interface SafeFetchTestHooks {
  /**
   * TEST ONLY escape hatch: addresses for which this returns true are treated as public, so a test
   * resolver can point an allowed name at a local listener (use an address like 127.0.0.2 that no
   * forbidden listener shares). Every other rule still applies.
   */
  readonly allowAddress?: (address: string) => boolean;
  /** TEST ONLY: the TCP port to connect to, because a local listener cannot bind 443. URLs keep the default port. */
  readonly connectPort?: number;
  /** Extra trusted CA certificates (PEM), e.g. the test-only certificate. */
  readonly ca?: string | readonly string[];
}

export interface SafeFetchPolicy extends PublicUrlPolicy {
  /** Resolves host names; defaults to the system resolver. Every answer must be public. */
  readonly resolver?: HostResolver;
  /** Redirects followed at most; default 3. */
  readonly maxRedirects?: number;
  /** The whole fetch, every hop and the body included. */
  readonly timeoutMs: number;
  readonly maxHeaderBytes: number;
  readonly maxResponseBytes: number;
  /** The `accept` request header. */
  readonly accept: string;
  /** Cancels the fetch (the caller's request ended). */
  readonly signal?: AbortSignal;
  readonly testOnly?: SafeFetchTestHooks;
}

export interface SafeFetchResponse {
  readonly status: number;
  /** The URL that answered, after redirects. */
  readonly url: URL;
  /** Lower-case names; repeated headers joined with `, `; `set-cookie` dropped. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
  readonly redirects: number;
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(raw)) {
    const lower = name.toLowerCase();
    if (value === undefined || lower === 'set-cookie') continue;
    headers[lower] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function isCompressed(headers: Record<string, string | string[] | undefined>): boolean {
  const value = headers['content-encoding'];
  const codings = (Array.isArray(value) ? value.join(',') : (value ?? ''))
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '');
  return codings.some((coding) => coding !== 'identity');
}

async function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) throw signal.reason;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

/** Drops a body unread; undici reports the destroy as an error that nobody else listens to. */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}

async function readCapped(body: Dispatcher.ResponseData['body'], cap: number, url: URL): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    total += chunk.byteLength;
    if (total > cap) {
      discard(body);
      throw new SafeFetchError('response_too_large', `${describeUrl(url)}: the response is larger than ${cap} bytes`);
    }
    chunks.push(chunk);
  }
  const joined = Buffer.concat(chunks, total);
  return new Uint8Array(joined.buffer, joined.byteOffset, joined.byteLength);
}

export async function safeFetch(target: string, policy: SafeFetchPolicy): Promise<SafeFetchResponse> {
  const first = checkPublicUrl(target, policy);
  if (!first.ok) throw new SafeFetchError('url_not_allowed', first.detail, first.reason);

  const resolver = policy.resolver ?? systemResolver;
  const maxRedirects = policy.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const hooks = policy.testOnly ?? {};
  const timeout = AbortSignal.timeout(policy.timeoutMs);
  const signal = policy.signal ? AbortSignal.any([policy.signal, timeout]) : timeout;
  const guarded = createGuardedAgent({
    resolver,
    timeoutMs: policy.timeoutMs,
    maxHeaderBytes: policy.maxHeaderBytes,
    allowAddress: hooks.allowAddress,
    connectPort: hooks.connectPort,
    ca: hooks.ca,
  });

  const failure = (error: unknown, url: URL): SafeFetchError => {
    const refusal = guarded.refusal();
    if (refusal) return refusal;
    if (error instanceof SafeFetchError) return error;
    if (timeout.aborted) return new SafeFetchError('timeout', `${describeUrl(url)}: no complete response within ${policy.timeoutMs} ms`);
    if (signal.aborted) return new SafeFetchError('aborted', `${describeUrl(url)}: the fetch was cancelled`);
    const code = (error as { code?: unknown } | null)?.code;
    if (code === 'UND_ERR_HEADERS_OVERFLOW') return new SafeFetchError('headers_too_large', `${describeUrl(url)}: the response headers are larger than ${policy.maxHeaderBytes} bytes`);
    if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
      return new SafeFetchError('timeout', `${describeUrl(url)}: no complete response within ${policy.timeoutMs} ms`);
    }
    // Only the error code: messages of connect errors carry the addresses a name resolved to.
    return new SafeFetchError('network_error', `${describeUrl(url)}: the host could not be reached${typeof code === 'string' && /^[A-Z_]{1,40}$/.test(code) ? ` (${code})` : ''}`);
  };

  try {
    let url = first.url;
    for (let hop = 0; ; hop++) {
      let response: Dispatcher.ResponseData;
      try {
        // Fails fast with a clear answer; the check inside the connect is the one that counts.
        await raceAbort(resolvePublicAddresses(url.hostname, resolver, hooks.allowAddress), signal);
        response = await request(url, {
          method: 'GET',
          headers: { accept: policy.accept, 'accept-encoding': 'identity', 'user-agent': 'open-playlist-engine' },
          signal,
          dispatcher: guarded.agent,
        });
      } catch (error) {
        throw failure(error, url);
      }

      const location = response.headers.location;
      if (REDIRECT_STATUSES.has(response.statusCode) && location !== undefined) {
        await response.body.dump().catch(() => undefined);
        if (hop >= maxRedirects) throw new SafeFetchError('too_many_redirects', `${describeUrl(first.url)}: more than ${maxRedirects} redirects`);
        if (typeof location !== 'string') throw new SafeFetchError('invalid_redirect', `${describeUrl(url)}: the redirect has more than one location`);
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          throw new SafeFetchError('invalid_redirect', `${describeUrl(url)}: the redirect location is not a URL`);
        }
        const checked = checkPublicUrl(next.href, policy);
        if (!checked.ok) throw new SafeFetchError('url_not_allowed', `redirect ${hop + 1} refused: ${checked.detail}`, checked.reason);
        url = checked.url;
        continue;
      }

      if (isCompressed(response.headers)) {
        discard(response.body);
        throw new SafeFetchError('compressed_response', `${describeUrl(url)}: the server sent a compressed response although compression was not accepted`);
      }
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > policy.maxResponseBytes) {
        discard(response.body);
        throw new SafeFetchError('response_too_large', `${describeUrl(url)}: the response is larger than ${policy.maxResponseBytes} bytes`);
      }
      let body: Uint8Array;
      try {
        body = await readCapped(response.body, policy.maxResponseBytes, url);
      } catch (error) {
        throw failure(error, url);
      }
      return { status: response.statusCode, url, headers: flattenHeaders(response.headers), body, redirects: hop };
    }
  } finally {
    await guarded.agent.destroy().catch(() => undefined);
  }
}
