import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstPartyPlugins } from '../support/first-party-plugins.ts';
import { GATE_OWNER_SECRET, SESSION_GATE_ENV, startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * Shares end to end through HTTP, with the owner-session gate on: an owner shares a playlist of an
 * import record, anyone with the token reads the public snapshot and page without a session, the
 * share link imports back (locally without any request, from another engine through the SSRF-safe
 * fetcher), and revocation or expiry makes every link answer 404.
 */

const TLS_DIR = new URL('../../fixtures/tls/', import.meta.url);
const LISTENER = '127.0.0.2';
const PUBLIC_BASE = SESSION_GATE_ENV.OPL_PUBLIC_BASE_URL;
const REMOTE_TOKEN = 'r'.repeat(43);
const BIG_TOKEN = 'b'.repeat(43);
const BAD_VERSION_TOKEN = 'v'.repeat(43);
const GONE_TOKEN = 'g'.repeat(43);
const AWAY_TOKEN = 'a'.repeat(43);

const remoteBundle = (schemaVersion: number) => ({
  $schema: 'https://registry.opl.test/schemas/export/open-playlist-bundle-v1.json',
  schema_version: schemaVersion,
  source_provider: null,
  warnings: [],
  playlists: [{ name: 'Peer mix', tracks: [{ title: 'Sunday Drive', artist: 'Copper Tide' }, { title: 'Glass Orchard', artist: 'Mira Solberg' }] }],
});

interface Problem {
  status: number;
  code: string;
  detail: string;
  [key: string]: unknown;
}

describe('shares', () => {
  let plugins: Awaited<ReturnType<typeof firstPartyPlugins>>;
  let server: Server;
  let app: TestApp;
  let cookie = '';
  const requests: string[] = [];

  beforeAll(async () => {
    plugins = await firstPartyPlugins();
    const [cert, key] = await Promise.all([readFile(new URL('test-only-registry.cert.pem', TLS_DIR)), readFile(new URL('test-only-registry.key.pem', TLS_DIR))]);
    server = createServer({ cert, key }, (request, response) => {
      const path = request.url ?? '/';
      requests.push(path);
      const json = (status: number, body: unknown) => response.writeHead(status, { 'content-type': 'application/vnd.open-playlist+json' }).end(JSON.stringify(body));
      if (path === `/api/public/shares/${REMOTE_TOKEN}`) json(200, remoteBundle(1));
      else if (path === `/api/public/shares/${BAD_VERSION_TOKEN}`) json(200, remoteBundle(2));
      else if (path === `/api/public/shares/${BIG_TOKEN}`) json(200, { ...remoteBundle(1), padding: 'x'.repeat(300_000) });
      else if (path === `/api/public/shares/${AWAY_TOKEN}`) response.writeHead(302, { location: 'https://registry.opl.test/admin/secrets.json' }).end();
      else response.writeHead(404, { 'content-type': 'application/problem+json' }).end('{"status":404}');
    });
    await new Promise<void>((resolve) => server.listen(0, LISTENER, resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    app = await startTestApp(
      { ...plugins.env, ...SESSION_GATE_ENV, OPL_IMPORT_URL_ALLOWED_HOSTS: 'registry.opl.test', OPL_IMPORT_MAX_BYTES: '200000', OPL_SHARE_MAX_TRACKS: '5' },
      { http: true, worker: false },
      {
        importUrlFetch: {
          resolver: async (host) => (host === 'registry.opl.test' ? [{ address: LISTENER, family: 4 }] : []),
          testOnly: { allowAddress: (address) => address === LISTENER, connectPort: port, ca: cert.toString('utf8') },
        },
      },
    );
    const login = await app.app.http!.inject({ method: 'POST', url: '/api/session', payload: { secret: GATE_OWNER_SECRET } });
    expect(login.statusCode, login.body).toBeLessThan(300);
    const setCookie = login.headers['set-cookie'];
    cookie = (Array.isArray(setCookie) ? setCookie[0]! : setCookie!).split(';')[0]!;
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    await new Promise((resolve) => server?.close(resolve));
    await plugins?.remove();
  });

  const owner = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
    app.app.http!.inject({ method, url, headers: { cookie }, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
  const anonymous = (url: string) => app.app.http!.inject({ method: 'GET', url });

  async function importText(text: string, name: string): Promise<string> {
    const response = await owner('POST', '/api/imports/text-preview', { text, name });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ id: string }>().id;
  }

  async function share(importId: string, extra: Record<string, unknown> = {}) {
    return owner('POST', '/api/shares', { source_provider: 'import', source_account_id: importId, playlist_id: '0', ...extra });
  }

  interface Created {
    id: string;
    token: string;
    url: string;
    json_url: string;
    name: string;
    track_count: number;
    status: string;
  }

  it('shares a playlist of an import as a bounded public snapshot, readable by token without a session', async () => {
    const importId = await importText('Copper Tide - Sunday Drive\nMira Solberg - Glass Orchard\nCopper Tide - Sunday Drive\n', 'Weekend <b>"mix" & more');
    const created = await share(importId);
    expect(created.statusCode, created.body).toBe(201);
    const body = created.json<Created>();
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body).toMatchObject({ name: 'Weekend <b>"mix" & more', track_count: 3, status: 'active', url: `${PUBLIC_BASE}/share/${body.token}`, json_url: `${PUBLIC_BASE}/api/public/shares/${body.token}` });

    const snapshot = await anonymous(`/api/public/shares/${body.token}`);
    expect(snapshot.statusCode, snapshot.body).toBe(200);
    expect(snapshot.headers['content-type']).toMatch(/^application\/vnd\.open-playlist\+json/);
    expect(snapshot.headers['cache-control']).toBe('no-store');
    const bundle = snapshot.json<{ $schema: string; schema_version: number; playlists: Array<Record<string, unknown> & { tracks: Array<Record<string, unknown>> }> }>();
    expect(bundle.schema_version).toBe(1);
    expect(bundle.$schema).toBe(`${PUBLIC_BASE}/schemas/export/open-playlist-bundle-v1.json`);
    expect(bundle.playlists).toHaveLength(1);
    expect(bundle.playlists[0]!.tracks.map((track) => track.title)).toEqual(['Sunday Drive', 'Glass Orchard', 'Sunday Drive']);
    expect(bundle.playlists[0]).toMatchObject({ id: null, owner_id: null, owner_name: null, metadata: {} });
    expect(bundle.playlists[0]!.tracks.every((track) => track.source_item_id === null && track.added_at === null)).toBe(true);

    // The owner's list shows it without its token.
    const list = await owner('GET', '/api/shares');
    expect(list.statusCode).toBe(200);
    const shares = list.json<{ shares: Array<Record<string, unknown>> }>().shares;
    expect(shares[0]).toMatchObject({ id: body.id, status: 'active', track_count: 3 });
    expect(list.body).not.toContain(body.token);
  });

  it('shares each playlist of an import by its collection id, also when ids collide', async () => {
    // An id-less playlist whose index ("0") is another playlist's real id, and that id twice.
    const file = JSON.stringify({
      schema_version: 1,
      source_provider: null,
      warnings: [],
      playlists: [
        { name: 'No Id', tracks: [{ title: 'Sunday Drive', artist: 'Copper Tide' }] },
        { id: '0', name: 'Real Zero', tracks: [{ title: 'Glass Orchard', artist: 'Mira Solberg' }] },
        { id: '0', name: 'Zero Again', tracks: [] },
      ],
    });
    const preview = await app.app.http!.inject({ method: 'POST', url: '/api/imports/preview?filename=collide.json', headers: { cookie, 'content-type': 'application/json' }, payload: file });
    expect(preview.statusCode, preview.body).toBe(201);
    const record = preview.json<{ id: string; collection_ids: string[]; playlists: Array<{ name: string }> }>();
    expect(record.collection_ids).toEqual(['0#2', '0', '0#2#2']);
    for (const [index, playlistId] of record.collection_ids.entries()) {
      const created = await share(record.id, { playlist_id: playlistId });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json<Created>().name).toBe(record.playlists[index]!.name);
    }
  });

  it('serves the public page with every value escaped, no script and a strict CSP', async () => {
    const importId = await importText('<script>alert(1)<\\script> - "Quoted" & <i>tagged<\\i>\n', '<img src=x onerror=alert(2)><script>alert(3)');
    const token = (await share(importId)).json<Created>().token;
    const page = await anonymous(`/share/${token}`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.headers['content-security-policy']).not.toContain('script-src');
    expect(page.body).not.toMatch(/<script/i);
    expect(page.body).toContain('<h1>&lt;img src=x onerror=alert(2)&gt;&lt;script&gt;alert(3)</h1>');
    expect(page.body).toContain('&quot;Quoted&quot; &amp; &lt;i&gt;tagged&lt;\\i&gt;');
    expect(page.body).toContain('&lt;script&gt;alert(1)&lt;\\script&gt;');
    expect(page.body).toContain(`href="/api/public/shares/${token}"`);
  });

  it('imports a share link of this engine from its snapshot, without any network request', async () => {
    const importId = await importText('Copper Tide - Sunday Drive\nMira Solberg - Glass Orchard\n', 'Round trip');
    const { token } = (await share(importId)).json<Created>();
    const before = requests.length;
    for (const link of [`${PUBLIC_BASE}/share/${token}`, `http://localhost:80/share/${token}`]) {
      const preview = await owner('POST', '/api/imports/url-preview', { url: link });
      expect(preview.statusCode, preview.body).toBe(201);
      expect(preview.json()).toMatchObject({ kind: 'url', format: 'json', playlists: [{ name: 'Round trip', track_count: 2 }] });
    }
    expect(requests.length).toBe(before);
  });

  it('imports a share link of another engine by fetching only its public snapshot JSON', async () => {
    const before = requests.length;
    const preview = await owner('POST', '/api/imports/url-preview', { url: `https://registry.opl.test/share/${REMOTE_TOKEN}` });
    expect(preview.statusCode, preview.body).toBe(201);
    expect(preview.json()).toMatchObject({ kind: 'url', format: 'json', playlists: [{ name: 'Peer mix', track_count: 2 }] });
    expect(requests.slice(before)).toEqual([`/api/public/shares/${REMOTE_TOKEN}`]);
  });

  it('refuses hostile or missing remote snapshots, and redirects away from the snapshot path', async () => {
    const cases: Array<[string, number, string | null]> = [
      [BIG_TOKEN, 413, null],
      [BAD_VERSION_TOKEN, 422, null],
      [GONE_TOKEN, 404, null],
      [AWAY_TOKEN, 422, 'path_not_allowed'],
    ];
    for (const [token, status, reason] of cases) {
      const before = requests.length;
      const response = await owner('POST', '/api/imports/url-preview', { url: `https://registry.opl.test/share/${token}` });
      expect(response.statusCode, `${token.slice(0, 1)}: ${response.body}`).toBe(status);
      if (reason) expect(response.json<Problem>().reason).toBe(reason);
      // Only the snapshot path was ever requested; the redirect target was not followed.
      expect(requests.slice(before)).toEqual([`/api/public/shares/${token}`]);
    }
    const malformed = await owner('POST', '/api/imports/url-preview', { url: 'https://registry.opl.test/share/short' });
    expect(malformed.statusCode).toBe(422);
    expect(malformed.json<Problem>().reason).toBe('invalid_share_link');
  });

  it('revoking (by id or by token) makes the snapshot, the page and the link answer 404 at once', async () => {
    const importId = await importText('Copper Tide - Sunday Drive\n', 'Short lived');
    const first = (await share(importId)).json<Created>();
    const second = (await share(importId)).json<Created>();
    expect((await owner('DELETE', `/api/shares/${first.id}`)).statusCode).toBe(204);
    expect((await owner('DELETE', `/api/shares/${second.token}`)).statusCode).toBe(204);
    for (const { token } of [first, second]) {
      const snapshot = await anonymous(`/api/public/shares/${token}`);
      expect(snapshot.statusCode).toBe(404);
      expect(snapshot.json<Problem>().code).toBe('not_found');
      const page = await anonymous(`/share/${token}`);
      expect(page.statusCode).toBe(404);
      expect(page.body).toContain('not available');
      const preview = await owner('POST', '/api/imports/url-preview', { url: `${PUBLIC_BASE}/share/${token}` });
      expect(preview.statusCode).toBe(404);
      expect(preview.json<Problem>().detail).toMatch(/revoked/);
    }
    const statuses = (await owner('GET', '/api/shares')).json<{ shares: Array<{ id: string; status: string }> }>().shares;
    expect(statuses.find((item) => item.id === first.id)?.status).toBe('revoked');
    expect((await owner('DELETE', '/api/shares/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await anonymous(`/api/public/shares/${'z'.repeat(43)}`)).statusCode).toBe(404);
    // Tokens are bearer capabilities: the request log masks them.
    const logs = app.logs.join('');
    expect(logs).toContain('/share/[REDACTED]');
    for (const { token } of [first, second]) expect(logs).not.toContain(token);
  });

  it('an expired share answers like a revoked one', async () => {
    const importId = await importText('Copper Tide - Sunday Drive\n', 'Expiring');
    const created = await share(importId, { expires_in_hours: 1 });
    expect(created.statusCode, created.body).toBe(201);
    const { id, token } = created.json<Created & { expires_at: string }>();
    expect((await anonymous(`/api/public/shares/${token}`)).statusCode).toBe(200);
    await app.app.services.database.orm.em.getConnection().execute(`update share set expires_at = now() - interval '1 minute' where id = ?`, [id]);
    expect((await anonymous(`/api/public/shares/${token}`)).statusCode).toBe(404);
    const statuses = (await owner('GET', '/api/shares')).json<{ shares: Array<{ id: string; status: string }> }>().shares;
    expect(statuses.find((item) => item.id === id)?.status).toBe('expired');
  });

  it('refuses shares over the track cap, of unknown sources, and without a session', async () => {
    const importId = await importText(Array.from({ length: 6 }, (_, index) => `Artist ${index} - Song ${index}`).join('\n'), 'Too long');
    const tooLong = await share(importId);
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.json<Problem>()).toMatchObject({ track_count: 6, max_tracks: 5 });
    expect((await share(importId, { playlist_id: '7' })).statusCode).toBe(404);
    expect((await share('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    const noSession = await app.app.http!.inject({ method: 'POST', url: '/api/shares', payload: { source_provider: 'import', source_account_id: importId, playlist_id: '0' } });
    expect(noSession.statusCode).toBe(401);
    expect((await app.app.http!.inject({ method: 'GET', url: '/api/shares' })).statusCode).toBe(401);
  });
});
