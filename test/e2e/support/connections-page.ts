import type { Locator, Request, Route } from 'playwright-core';

export const normalise = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();

/** The text a user sees in an element, through shadow roots and slots (textContent stops at a shadow root). */
export async function shownText(locator: Locator): Promise<string> {
  const text = await locator.evaluate((root) => {
    const parts: string[] = [];
    const walk = (node: Node): void => {
      if (node instanceof HTMLSlotElement) {
        node.assignedNodes({ flatten: true }).forEach(walk);
        return;
      }
      if (node.nodeType === Node.TEXT_NODE) {
        parts.push(node.textContent ?? '');
        return;
      }
      if (node instanceof Element) {
        if (node.tagName === 'STYLE' || node.tagName === 'SCRIPT') return;
        const children = node.shadowRoot ? node.shadowRoot.childNodes : node.childNodes;
        children.forEach(walk);
        parts.push(' ');
      }
    };
    walk(root);
    return parts.join('');
  });
  return normalise(text);
}

/** Answers a fetch with a non-2xx status, which Chromium reports on the console; those are expected here. */
export const expectedConsoleNoise = (message: string) => /Failed to load resource: the server responded with a status of (4\d\d|5\d\d)/.test(message);

export type Json = Record<string, unknown>;

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly body: Json | undefined;
}

/** A reply the test queues for the next request to one endpoint: a status and a JSON body. */
export interface Reply {
  readonly status: number;
  readonly body: Json;
}

export const problem = (status: number, code: string, title: string, detail: string, extra: Json = {}): Reply => ({ status, body: { type: `https://opl.example/problems/${code}`, status, code, title, detail, ...extra } });

export function account(overrides: Json = {}): Json {
  return {
    id: 'acct-1',
    provider: 'spotify',
    provider_display_name: 'Spotify',
    plugin_id: 'opl.provider.spotify',
    display_name: 'Ada Lovelace',
    provider_user_id: 'ada-l',
    account_label: 'Work',
    status: 'connected',
    auth_kind: 'OAUTH_PKCE',
    scopes: ['playlist-read-private', 'playlist-modify-private'],
    expires_at: new Date(Date.now() + 45 * 60_000).toISOString(),
    connected_at: '2026-11-20T09:30:00.000Z',
    demo: true,
    ...overrides,
  };
}

export function provider(overrides: Json = {}): Json {
  return {
    name: 'spotify',
    display_name: 'Spotify',
    plugin: { id: 'opl.provider.spotify', version: '1.0.0', signed: true },
    auth_kinds: ['OAUTH_PKCE'],
    capabilities: ['READ_PLAYLISTS', 'READ_TRACKS'],
    official: true,
    stability: 'stable',
    warning: null,
    demo: true,
    connectable: true,
    connect_unavailable_reason: null,
    ...overrides,
  };
}

export const challengeBase = (provider: string, authKind: string) => ({
  state: `state-${provider}-${authKind}`,
  provider,
  auth_kind: authKind,
  expires_at: new Date(Date.now() + 10 * 60_000).toISOString(),
  instructions: null,
  demo: true,
});

/**
 * The engine's connection API as the page sees it, for states the test engine cannot produce on
 * demand: device codes, forms, expired sign-ins, rate limits, hosted refusals. Stateful, records
 * every request, and answers queued replies first.
 */
export class FakeConnectionsApi {
  providers: Json[];
  accounts: Json[];
  readonly requests: RecordedRequest[] = [];
  /** Queued replies by `METHOD /path`, answered in order before the default behaviour. */
  readonly replies = new Map<string, Reply[]>();
  playlists: Json[] = [];
  tracks: Json[] = [];

  constructor(providers: Json[], accounts: Json[]) {
    this.providers = providers;
    this.accounts = accounts;
  }

  queue(key: string, ...replies: Reply[]): void {
    this.replies.set(key, [...(this.replies.get(key) ?? []), ...replies]);
  }

  count(method: string, path: string): number {
    return this.requests.filter((request) => request.method === method && request.path === path).length;
  }

  last(method: string, path: string): RecordedRequest | undefined {
    return this.requests.filter((request) => request.method === method && request.path === path).at(-1);
  }

  readonly handle = async (route: Route): Promise<void> => {
    const request: Request = route.request();
    const url = new URL(request.url());
    let body: Json | undefined;
    try {
      body = request.postDataJSON() as Json | undefined;
    } catch {
      body = undefined;
    }
    this.requests.push({ method: request.method(), path: url.pathname, query: url.searchParams, body });
    const queued = this.replies.get(`${request.method()} ${url.pathname}`)?.shift();
    const reply = queued ?? this.#default(request.method(), url.pathname, url.searchParams, body);
    // Like the engine: an account that finished connecting is listed from then on.
    const connected = reply.body['status'] === 'connected' ? (reply.body['account'] as Json | undefined) : undefined;
    if (connected) this.accounts = [...this.accounts.filter((existing) => existing['id'] !== connected['id']), connected];
    await route.fulfill({
      status: reply.status,
      contentType: reply.status >= 400 ? 'application/problem+json' : 'application/json',
      body: reply.status === 204 ? '' : JSON.stringify(reply.body),
    });
  };

  #default(method: string, path: string, query: URLSearchParams, body: Json | undefined): Reply {
    if (method === 'GET' && path === '/providers') return { status: 200, body: { providers: this.providers } };
    if (method === 'GET' && path === '/api/auth/accounts') return { status: 200, body: { accounts: this.accounts } };
    const accountMatch = /^\/api\/auth\/accounts\/([^/]+)(\/test)?$/.exec(path);
    if (accountMatch) {
      const id = decodeURIComponent(accountMatch[1] ?? '');
      const found = this.accounts.find((candidate) => candidate['id'] === id);
      if (!found) return problem(404, 'not_found', 'Not found', 'No such account.');
      if (accountMatch[2]) {
        return { status: 200, body: { ok: true, status: 'connected', display_name: found['display_name'], checked_at: new Date().toISOString(), problem: null } };
      }
      if (method === 'PATCH') {
        found['account_label'] = body?.['account_label'] ?? null;
        return { status: 200, body: found };
      }
      if (method === 'DELETE') {
        this.accounts = this.accounts.filter((candidate) => candidate !== found);
        return { status: 204, body: {} };
      }
    }
    if (method === 'GET' && path === '/api/playlists') {
      return { status: 200, body: { account_id: query.get('account_id'), provider: 'spotify', cached: query.get('refresh') !== 'true', fetched_at: '2026-11-21T10:15:00.000Z', playlists: this.playlists } };
    }
    const playlistMatch = /^\/api\/playlists\/([^/]+)$/.exec(path);
    if (method === 'GET' && playlistMatch) {
      const found = this.playlists.find((candidate) => candidate['id'] === decodeURIComponent(playlistMatch[1] ?? ''));
      if (!found) return problem(404, 'not_found', 'Not found', 'No such playlist.');
      return { status: 200, body: { account_id: query.get('account_id'), provider: 'spotify', cached: false, fetched_at: '2026-11-21T10:16:00.000Z', playlist: { ...found, tracks: this.tracks } } };
    }
    return problem(500, 'unexpected_in_test', 'The test did not expect this request', `${method} ${path}`);
  }
}
