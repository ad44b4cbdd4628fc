import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { DemoPlaylistEditor } from './kit/demo-edit.ts';
import type { SeedLibrary } from './seed-catalog.ts';

/**
 * What every fake provider server offers. A fake stands in for all of one provider's real origins
 * (API, accounts/login, token) on a single loopback port; the engine's `originOverrides` send a
 * plugin's request for `https://api.provider.com/...` to `http://127.0.0.1:<port>/...` after the
 * grant check ran against the real URL. Paging links and other absolute URLs in responses always
 * use the real origins, exactly as the provider would.
 *
 * The fakes are stateful (a write changes what the next read returns) and follow the provider's
 * published API, including its failures. Tests steer failures with `failNext`.
 *
 * They are also the demo providers (`OPL_DEMO=1`), so this module and the fakes must run in the
 * engine process: plain Node, no test-framework imports.
 */

/** A failure a test asks the fake to produce on matching requests. */
export interface FailureRule {
  /** Upper-case method to match; any when absent. */
  readonly method?: string;
  /** Request path prefix to match (`/v1/playlists`); any when absent. */
  readonly pathPrefix?: string;
  /**
   * - `rate_limit`: 429 with `Retry-After: retryAfterS` (the provider's rate-limit body).
   * - `quota`: the provider's "quota exhausted" answer (Spotify: 429 with reason QUOTA_EXCEEDED).
   * - `server_error`: 500/502/503 (`status`, default 503).
   * - `expired_token`: 401 as for an expired access token (the token itself stays valid).
   * - `ambiguous_write`: the request is applied, then the connection is destroyed before any answer.
   * - `timeout`: never answers (the socket stays open until the server closes).
   */
  readonly kind: 'rate_limit' | 'quota' | 'server_error' | 'expired_token' | 'ambiguous_write' | 'timeout';
  readonly retryAfterS?: number;
  readonly status?: number;
  /** How many matching requests fail; default 1. */
  readonly times?: number;
  /** How many matching requests go through first (the failure hits a later one, e.g. the second of three); default 0. */
  readonly after?: number;
}

export interface RecordedFakeRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Record<string, string>;
  /** Lowercased header names. The `authorization` value is kept so tests can prove who called. */
  readonly headers: Record<string, string>;
  readonly body: string;
  /** The answer's status; 0 when the fake dropped the connection. */
  status: number;
  /** The client closed the connection before the answer was complete (it gave up: a cancel, a timeout). */
  abandoned?: boolean;
}

/** An account a test (or the demo) created directly, with tokens minted without the OAuth dance. */
export interface FakeAccountTokens {
  readonly userId: string;
  readonly displayName: string;
  readonly accessToken: string;
  readonly refreshToken: string;
  /** Seconds until the access token expires. */
  readonly expiresIn: number;
  readonly scopes: readonly string[];
}

export interface FakeProviderServer {
  /** Provider name as in the plugin manifest (`spotify`, `tidal`). */
  readonly provider: string;
  /** `http://127.0.0.1:<port>`. */
  readonly baseUrl: string;
  /** Real origin → `baseUrl`, for every origin this fake stands in for. */
  readonly originOverrides: Readonly<Record<string, string>>;
  /** The OAuth client ids the fake's token endpoint accepts (register more with `registerClient`). */
  registerClient(client: { clientId: string; clientSecret?: string | null; redirectUris?: readonly string[] }): void;
  /**
   * Creates a user owning `library` (playlists, liked tracks, saved albums, followed artists) and
   * mints tokens for it. Playlists of `library.followed` are owned by another user and followed.
   */
  createAccount(options: { displayName?: string; library?: SeedLibrary; scopes?: readonly string[]; expiresIn?: number }): FakeAccountTokens;
  /**
   * When set, the authorize page approves at once as this user (used by browser tests and the
   * demo); otherwise it shows a consent form with an "Agree" button for the most recent account.
   */
  setAuthorizeUser(userId: string | null): void;
  /** Makes the next matching requests fail; rules are consumed in order. */
  failNext(rule: FailureRule): void;
  clearFailures(): void;
  /** Marks an access token as expired: requests with it get the provider's 401. */
  expireAccessToken(accessToken: string): void;
  /** Every request received, oldest first. */
  readonly requests: RecordedFakeRequest[];
  /** Demo fakes only: changes one of the demo listener's playlists (see `kit/demo-edit.ts`). */
  readonly demoEdit?: DemoPlaylistEditor['demoEdit'];
  close(): Promise<void>;
}

/** A failure queue shared by the fakes: finds and consumes the first rule matching a request. */
export class FailureQueue {
  #rules: { rule: FailureRule; left: number; pass: number }[] = [];

  push(rule: FailureRule): void {
    this.#rules.push({ rule, left: rule.times ?? 1, pass: rule.after ?? 0 });
  }

  clear(): void {
    this.#rules = [];
  }

  take(method: string, path: string): FailureRule | null {
    const index = this.#rules.findIndex(({ rule }) => (!rule.method || rule.method === method) && (!rule.pathPrefix || path.startsWith(rule.pathPrefix)));
    if (index < 0) return null;
    const entry = this.#rules[index]!;
    if (entry.pass > 0) {
      entry.pass -= 1;
      return null;
    }
    entry.left -= 1;
    if (entry.left <= 0) this.#rules.splice(index, 1);
    return entry.rule;
  }
}

export interface FakeRequest {
  readonly method: string;
  readonly url: URL;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly record: RecordedFakeRequest;
  readonly raw: IncomingMessage;
}

export type FakeHandler = (request: FakeRequest, response: ServerResponse) => void | Promise<void>;

export interface StartedFakeHttp {
  readonly server: Server;
  readonly baseUrl: string;
  readonly port: number;
  readonly requests: RecordedFakeRequest[];
  close(): Promise<void>;
}

const MAX_FAKE_BODY = 4 * 1024 * 1024;

/** Starts a loopback HTTP server that records requests, reads bodies and hands them to `handler`. */
export async function startFakeHttp(handler: FakeHandler, options: { port?: number; host?: string } = {}): Promise<StartedFakeHttp> {
  const requests: RecordedFakeRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((raw, response) => {
    const chunks: Buffer[] = [];
    let size = 0;
    raw.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > MAX_FAKE_BODY) {
        sendJson(response, 413, { error: 'request body too large' });
        raw.destroy();
        return;
      }
      chunks.push(chunk);
    });
    raw.on('end', () => {
      const url = new URL(raw.url ?? '/', 'http://fake.invalid');
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(raw.headers)) if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
      const record: RecordedFakeRequest = {
        method: raw.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers,
        body: Buffer.concat(chunks).toString('utf8'),
        status: 0,
      };
      requests.push(record);
      response.on('finish', () => {
        record.status = response.statusCode;
      });
      response.on('close', () => {
        if (!response.writableFinished) record.abandoned = true;
      });
      Promise.resolve(handler({ method: record.method, url, path: url.pathname, headers, body: record.body, record, raw }, response)).catch((error: unknown) => {
        if (!response.headersSent) sendJson(response, 500, { error: 'fake server error', detail: error instanceof Error ? error.message : String(error) });
      });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  response.writeHead(status, { ...(text ? { 'content-type': 'application/json; charset=utf-8' } : {}), 'content-length': String(Buffer.byteLength(text)), ...headers });
  response.end(text);
}

export function sendHtml(response: ServerResponse, status: number, html: string): void {
  response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-length': String(Buffer.byteLength(html)) });
  response.end(html);
}

export function redirect(response: ServerResponse, location: string, status = 302): void {
  response.writeHead(status, { location, 'content-length': '0' });
  response.end();
}

/** Drops the connection without an answer: the "ambiguous write" and lost-response cases. */
export function dropConnection(response: ServerResponse): void {
  response.socket?.destroy();
}

/** Opaque random ids and tokens of the given prefix. */
export function randomId(prefix = '', bytes = 16): string {
  return prefix + randomBytes(bytes).toString('base64url');
}

/** base64url(sha256(verifier)): the PKCE S256 challenge. */
export function pkceChallenge(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

export function bearerToken(headers: Record<string, string>): string | null {
  const value = headers['authorization'];
  if (!value) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(value);
  return match ? match[1]! : null;
}

/** Parses an `application/x-www-form-urlencoded` body. */
export function formBody(body: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(body));
}

/** HTML-escapes text for the fakes' consent pages. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);
}
