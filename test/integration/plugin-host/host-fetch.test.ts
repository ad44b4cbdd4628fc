import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifestSchema } from '@opl/plugin-sdk/schemas';
import { createHostFetch, createSandbox, HostFetchError, validateResult, type HostFetch } from '@opl/plugin-sdk/sandbox';
import { startEchoServer, type EchoServer } from '../../fakes/plugin-echo/echo-server.ts';

// The sandbox's fetch against a real local server; host names resolve to it without DNS.

let echo: EchoServer;
let fetcher: HostFetch;
const TOKEN = 'tok-host-fetch-0123456789';

function manifestFor(server: EchoServer) {
  return manifestSchema.parse({
    manifest_version: 1,
    id: 'test.host-fetch',
    name: 'Host fetch',
    version: '1.0.0',
    kind: 'provider',
    publisher: { name: 'Tests', key_id: 'test-key' },
    engines: { opl: '*' },
    provider: { name: 'hf', display_name: 'HF', capabilities: [], attributes: { has_isrc: false, official: false }, write_constraints: {}, auth: [{ kind: 'LONG_LIVED_TOKEN' }] },
    network: [
      { origin: server.origin(), path_prefix: '/v1/', methods: ['GET', 'POST'], reason: 'api' },
      { origin: server.origin('cdn.example.com'), path_prefix: '/v1/', methods: ['GET'], reason: 'cdn' },
    ],
    limits: { max_response_bytes: 100_000, request_timeout_ms: 400 },
    files: { 'plugin.js': 'a'.repeat(64) },
  });
}

const credentials = () => [{ origin: echo.origin(), headers: { authorization: `Bearer ${TOKEN}` } }];

async function refusal(promise: Promise<unknown>): Promise<HostFetchError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(HostFetchError);
    return error as HostFetchError;
  }
  throw new Error('expected the request to be refused');
}

beforeAll(async () => {
  echo = await startEchoServer();
  fetcher = createHostFetch({ manifest: manifestFor(echo), hostResolver: { 'api.example.com': '127.0.0.1', 'cdn.example.com': '127.0.0.1', 'evil.test': '127.0.0.1' } });
});

afterAll(async () => {
  await fetcher?.close();
  await echo?.close();
});

describe('host fetch', () => {
  it('attaches credential headers for their origin only, over the plugin’s own', async () => {
    const before = echo.requests.length;
    const response = await fetcher.fetch({ url: `${echo.origin()}/v1/echo`, headers: { authorization: 'Bearer plugin-made', 'x-plugin': 'yes' } }, { credentials: credentials() });
    expect(response.status).toBe(200);
    const [seen] = echo.requests.slice(before);
    expect(seen?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(seen?.headers['x-plugin']).toBe('yes');
    // The echo shows the credential, but the plugin's copy is masked.
    expect(new TextDecoder().decode(response.body)).not.toContain(TOKEN);
    expect(response.headers['x-echo-authorization']).toBe('[REDACTED]');

    const cdnBefore = echo.requests.length;
    await fetcher.fetch({ url: `${echo.origin('cdn.example.com')}/v1/echo` }, { credentials: credentials() });
    expect(echo.requests[cdnBefore]?.headers.authorization).toBeUndefined();
  });

  it('re-checks each redirect hop and drops origin-bound headers when the origin changes', async () => {
    const to = encodeURIComponent(`${echo.origin('cdn.example.com')}/v1/echo`);
    const before = echo.requests.length;
    const response = await fetcher.fetch({ url: `${echo.origin()}/v1/redirect?to=${to}`, headers: { cookie: 'session=plugin', authorization: 'Basic plugin' } }, { credentials: credentials() });
    expect(response.url).toBe(`${echo.origin('cdn.example.com')}/v1/echo`);
    const [first, second] = echo.requests.slice(before);
    expect(first?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(second?.host).toBe(`cdn.example.com:${echo.port}`);
    expect(second?.headers.authorization).toBeUndefined();
    expect(second?.headers.cookie).toBeUndefined();

    const evil = encodeURIComponent(`http://evil.test:${echo.port}/v1/echo`);
    const refused = await refusal(fetcher.fetch({ url: `${echo.origin()}/v1/redirect?to=${evil}` }, { credentials: [] }));
    expect(refused.failure).toBe('refused');
    expect(refused.refusal).toBe('origin');
    expect(echo.requests.some((request) => request.host.startsWith('evil.test'))).toBe(false);
  });

  it('turns a POST into a GET on 303 and checks the new method against the grants', async () => {
    const to = encodeURIComponent(`${echo.origin('cdn.example.com')}/v1/echo`);
    const before = echo.requests.length;
    await fetcher.fetch({ url: `${echo.origin()}/v1/redirect?status=303&to=${to}`, method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } }, { credentials: [] });
    expect(echo.requests.slice(before).map((request) => request.method)).toEqual(['POST', 'GET']);
    // A 307 keeps the POST, which the cdn grant does not allow.
    const kept = await refusal(fetcher.fetch({ url: `${echo.origin()}/v1/redirect?status=307&to=${to}`, method: 'POST', body: 'x' }, { credentials: [] }));
    expect(kept.refusal).toBe('method');
  });

  it('asks the rate limiter before every hop', async () => {
    let permits = 0;
    const to = encodeURIComponent(`${echo.origin()}/v1/echo`);
    await fetcher.fetch({ url: `${echo.origin()}/v1/redirect?to=${to}` }, { credentials: [], beforeRequest: async () => void permits++ });
    expect(permits).toBe(2);
    const denied = await refusal(
      fetcher.fetch(
        { url: `${echo.origin()}/v1/echo` },
        {
          credentials: [],
          beforeRequest: async () => {
            throw new Error('quota exhausted');
          },
        },
      ),
    );
    expect(denied.failure).toBe('rate_limited');
    expect(denied.message).toContain('quota exhausted');
  });

  it('caps response size whether or not the server declares it', async () => {
    expect((await refusal(fetcher.fetch({ url: `${echo.origin()}/v1/big?bytes=200000` }, { credentials: [] }))).failure).toBe('too_large');
    expect((await refusal(fetcher.fetch({ url: `${echo.origin()}/v1/big?bytes=200000&chunked=1` }, { credentials: [] }))).failure).toBe('too_large');
    const fits = await fetcher.fetch({ url: `${echo.origin()}/v1/big?bytes=100000&chunked=1` }, { credentials: [] });
    expect(fits.body.byteLength).toBe(100_000);
  });

  it('times out, stops at redirect loops and honours the call’s abort signal', async () => {
    expect((await refusal(fetcher.fetch({ url: `${echo.origin()}/v1/slow` }, { credentials: [] }))).failure).toBe('timeout');
    expect((await refusal(fetcher.fetch({ url: `${echo.origin()}/v1/redirect-loop` }, { credentials: [] }))).failure).toBe('too_many_redirects');
    const controller = new AbortController();
    const pending = fetcher.fetch({ url: `${echo.origin()}/v1/slow` }, { credentials: [], signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    expect((await refusal(pending)).failure).toBe('aborted');
  });

  it('validates the request a plugin asks for', async () => {
    for (const request of [
      { url: `${echo.origin()}/v1/echo`, method: 'CONNECT' },
      { url: `${echo.origin()}/v1/echo`, headers: { 'bad header': 'x' } },
      { url: `${echo.origin()}/v1/echo`, headers: { 'x-a': 'line\r\nbreak' } },
      { url: `${echo.origin()}/v1/echo`, body: 42 },
      { url: 42 },
      null,
    ]) {
      expect((await refusal(fetcher.fetch(request, { credentials: [] }))).failure).toBe('invalid_request');
    }
  });

  it('ignores host-owned headers a plugin tries to set', async () => {
    const before = echo.requests.length;
    await fetcher.fetch({ url: `${echo.origin()}/v1/echo`, headers: { host: 'evil.test', 'content-length': '99', connection: 'upgrade' } }, { credentials: [] });
    const [seen] = echo.requests.slice(before);
    expect(seen?.host).toBe(`api.example.com:${echo.port}`);
    expect(seen?.headers.connection).not.toBe('upgrade');
  });
});

describe('responses as a sandboxed plugin sees them', () => {
  it('gives text, json and exact bytes for textual and binary bodies', async () => {
    const manifest = manifestFor(echo);
    const code = `export default { mark: 'opl.plugin/v1', kind: 'provider', operations: {
      async testConnection(input, ctx) {
        const json = await ctx.fetch('${echo.origin()}/v1/echo');
        const binary = await ctx.fetch('${echo.origin()}/v1/big?bytes=5');
        const parts = [json.status, json.ok, json.headers['content-type'], json.json().method, json.bytes().length === json.text().length,
          binary.headers['content-type'], binary.text(), binary.bytes().length, binary.url];
        return { ok: true, display_name: parts.join('|') };
      },
    } };`;
    const sandbox = await createSandbox({ manifest, code, limits: { memoryMb: 32, callTimeoutMs: 5_000, cpuTimeMs: 5_000 }, hostFetch: fetcher, log: () => undefined });
    try {
      const expected = `200|true|application/json|GET|true|application/octet-stream|aaaaa|5|${echo.origin()}/v1/big?bytes=5`;
      expect((await sandbox.call('testConnection', {}, {})).display_name).toBe(expected);
      // callJson hands over the unvalidated JSON text for a host that validates on its own side.
      const text = await sandbox.callJson('testConnection', {}, {});
      expect(JSON.parse(text)).toEqual({ ok: true, display_name: expected });
      expect(validateResult('test.host-fetch', 'testConnection', JSON.parse(text))).toEqual({ ok: true, display_name: expected, account_id: null, country: null });
      expect(() => validateResult('test.host-fetch', 'testConnection', { ok: 'yes' })).toThrow(/does not match the testConnection contract/);
    } finally {
      sandbox.dispose();
    }
  });
});
