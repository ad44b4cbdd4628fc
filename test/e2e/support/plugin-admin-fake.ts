import type { Request, Route } from 'playwright-core';

// ---------------------------------------------------------------------------------------------
// Interactions the test engine cannot produce on demand (hosted mode, quarantine, allow-list
// answers, auth failures) come from a fake of the plugin admin routes served through page.route.

export interface Grant {
  origin: string;
  path_prefix: string;
  methods: string[];
  reason: string;
}
export interface Loaded {
  id: string;
  name: string;
  version: string;
  kind: 'provider' | 'format';
  publisher: { name: string; key_id: string };
  signed: boolean;
  capabilities: string[];
  network: Grant[];
}
export interface Refused {
  id: string;
  version: string | null;
  reason: string;
  detail: string;
}
export interface Entry {
  id: string;
  plugin_id: string;
  key_id: string;
  version_range: string;
  added_by: string;
  created_at: string;
}
export interface Overview {
  mode: 'self_host' | 'hosted';
  allow_unsigned: boolean;
  registry: { source: 'directory' | 'https'; location: string };
  loaded: Loaded[];
  refused: Refused[];
  allow_list: Entry[];
}

export const TUNES: Loaded = {
  id: 'com.example.tunes',
  name: 'Example Tunes',
  version: '1.4.0',
  kind: 'provider',
  publisher: { name: 'Example Ltd', key_id: 'example-2025' },
  signed: true,
  capabilities: ['read_playlists', 'write_playlists', 'search'],
  network: [
    { origin: 'https://api.tunes.example', path_prefix: '/v1/', methods: ['GET', 'POST'], reason: 'Reads and writes playlists through the Tunes Web API.' },
    { origin: 'https://accounts.tunes.example', path_prefix: '/api/token', methods: ['POST'], reason: 'Refreshes the access token.' },
  ],
};

export const SCRATCH: Loaded = {
  id: 'dev.local.scratch-format',
  name: 'Scratch Format',
  version: '0.0.1',
  kind: 'format',
  publisher: { name: 'Local developer', key_id: 'none' },
  signed: false,
  capabilities: [],
  network: [],
};

export const FLAKY_LOADED: Loaded = {
  id: 'com.example.flaky',
  name: 'Flaky Radio',
  version: '3.1.0',
  kind: 'provider',
  publisher: { name: 'Example Ltd', key_id: 'example-2025' },
  signed: true,
  capabilities: ['read_playlists'],
  network: [{ origin: 'https://radio.example', path_prefix: '/', methods: ['GET'], reason: 'Station playlists.' }],
};

export const hostedOverview = (): Overview => ({
  mode: 'hosted',
  allow_unsigned: true,
  registry: { source: 'https', location: 'https://registry.example/opl/' },
  loaded: [structuredClone(TUNES), structuredClone(SCRATCH)],
  refused: [
    { id: 'com.example.broken', version: '0.9.0', reason: 'modified_file', detail: 'plugin.js does not match the sha256 in the manifest.' },
    { id: 'com.example.newcomer', version: '2.0.1', reason: 'not_allow_listed', detail: 'com.example.newcomer@2.0.1 is not on the allow-list.' },
    { id: 'com.example.flaky', version: '3.1.0', reason: 'quarantined', detail: 'Exceeded its CPU limit 3 times in 10 minutes.' },
    { id: 'com.example.mystery', version: null, reason: 'unreadable', detail: 'manifest.json is not valid JSON.' },
  ],
  allow_list: [
    { id: 'entry-1', plugin_id: 'com.example.tunes', key_id: 'example-2025', version_range: '^1.0.0', added_by: 'owner:local', created_at: '2025-01-02T03:04:05.000Z' },
  ],
});

export const problem = (status: number, code: string, title: string, detail: string) => ({
  status,
  contentType: 'application/problem+json',
  body: JSON.stringify({ type: 'about:blank', title, status, detail, code }),
});

export type Reply = { status: number; contentType?: string; body?: string };
export type Override = (request: Request) => Reply | 'abort' | undefined;

/** A stateful stand-in for the plugin admin routes, recording what the page asked for. */
export class FakePluginAdmin {
  state: Overview;
  readonly requests: { method: string; path: string; body: unknown; authorization: string | undefined }[] = [];
  /** Answers the next matching request differently (errors, delays); consumed once it answers. */
  overrides: Override[] = [];
  #nextId = 2;

  constructor(state: Overview) {
    this.state = state;
  }

  readonly handle = async (route: Route): Promise<void> => {
    const request = route.request();
    const path = new URL(request.url()).pathname;
    const body: unknown = request.postData() ? request.postDataJSON() : undefined;
    this.requests.push({ method: request.method(), path, body, authorization: (await request.allHeaders())['authorization'] });
    for (const [index, override] of this.overrides.entries()) {
      const reply = override(request);
      if (reply === undefined) continue;
      this.overrides.splice(index, 1);
      if (reply === 'abort') return route.abort('connectionrefused');
      return route.fulfill(reply);
    }
    return route.fulfill(this.#answer(request.method(), path, body));
  };

  #json(status: number, value: unknown): Reply {
    return { status, contentType: 'application/json', body: JSON.stringify(value) };
  }

  #answer(method: string, path: string, body: unknown): Reply {
    if (method === 'GET' && path === '/api/admin/plugins') return this.#json(200, this.state);
    if (method === 'POST' && path === '/api/admin/plugins/reload') return this.#json(200, this.state);
    if (method === 'POST' && path === '/api/admin/plugins/allow-list') {
      const input = body as { plugin_id: string; key_id: string; version_range: string };
      const entry: Entry = { id: `entry-${this.#nextId++}`, ...input, added_by: 'admin-token', created_at: '2025-02-03T04:05:06.000Z' };
      this.state.allow_list.push(entry);
      return this.#json(201, entry);
    }
    const removal = /^\/api\/admin\/plugins\/allow-list\/([^/]+)$/.exec(path);
    if (method === 'DELETE' && removal?.[1]) {
      const before = this.state.allow_list.length;
      this.state.allow_list = this.state.allow_list.filter((entry) => entry.id !== decodeURIComponent(removal[1]!));
      return this.state.allow_list.length < before ? { status: 204 } : problem(404, 'not_found', 'Not found', 'There is no allow-list entry with this id.');
    }
    const release = /^\/api\/admin\/plugins\/([^/]+)\/release$/.exec(path);
    if (method === 'POST' && release?.[1]) {
      const id = decodeURIComponent(release[1]);
      const refused = this.state.refused.find((plugin) => plugin.id === id && plugin.reason === 'quarantined');
      if (!refused) return problem(404, 'not_found', 'Not found', `${id} is not quarantined.`);
      this.state.refused = this.state.refused.filter((plugin) => plugin !== refused);
      this.state.loaded.push(structuredClone(FLAKY_LOADED));
      return this.#json(200, this.state);
    }
    return problem(404, 'not_found', 'Not found', `No fake for ${method} ${path}.`);
  }
}
