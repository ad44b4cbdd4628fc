import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGuardedAgent } from '../../../core/net/guarded-agent.ts';
import { safeFetch, SafeFetchError, type HostResolver, type ResolvedAddress, type SafeFetchPolicy } from '../../../core/net/index.ts';
import { PUBLIC_ADDRESS, startLocalListeners, TEST_CA, type LocalListeners } from './local-listeners.ts';

/**
 * The SSRF suite: every URL and DNS situation here must be refused with its stable code, and no
 * connection may reach a forbidden listener. All names resolve through a resolver the test
 * controls; the only way an allowed name reaches a local listener is the test-only escape hatch
 * that treats 127.0.0.2 (the "public" listener) as public.
 */

let listeners: LocalListeners;
const resolverCalls: string[] = [];
// Answers per host name; a function answers differently per call (rebinding).
const dns = new Map<string, readonly string[] | ((call: number) => readonly string[])>();

const testResolver: HostResolver = async (host) => {
  resolverCalls.push(host);
  const entry = dns.get(host);
  if (entry === undefined) throw Object.assign(new Error(`test resolver: ${host} unknown`), { code: 'ENOTFOUND' });
  const calls = resolverCalls.filter((name) => name === host).length;
  const answers = typeof entry === 'function' ? entry(calls) : entry;
  return answers.map((address): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
};

const ALLOWED_HOSTS = ['registry.opl.test', 'internal.opl.test', 'rebind.opl.test', 'mixed.opl.test', 'v6.opl.test', 'empty.opl.test', 'broken.opl.test', 'localhost'];

function policy(overrides: Partial<SafeFetchPolicy> = {}): SafeFetchPolicy {
  return {
    allowedHosts: ALLOWED_HOSTS.map((host) => ({ host, pathPrefixes: ['/playlists'] })),
    maxUrlLength: 2048,
    resolver: testResolver,
    timeoutMs: 3_000,
    maxHeaderBytes: 16 * 1024,
    maxResponseBytes: 64 * 1024,
    accept: 'application/json',
    testOnly: { allowAddress: (address) => address === PUBLIC_ADDRESS, connectPort: listeners.port, ca: TEST_CA },
    ...overrides,
  };
}

async function refusal(url: string, overrides: Partial<SafeFetchPolicy> = {}): Promise<SafeFetchError> {
  const error = await safeFetch(url, policy(overrides)).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error, `${url} must be refused`).toBeInstanceOf(SafeFetchError);
  return error as SafeFetchError;
}

function expectNothingForbiddenReached(): void {
  expect(listeners.forbiddenConnections(), listeners.forbidden.map((listener) => `${listener.name}: ${listener.connections}`).join(', ')).toBe(0);
}

beforeAll(async () => {
  listeners = await startLocalListeners();
});

afterAll(async () => {
  await listeners?.close();
});

beforeEach(() => {
  listeners.reset();
  resolverCalls.length = 0;
  dns.clear();
  dns.set('registry.opl.test', [PUBLIC_ADDRESS]);
  dns.set('internal.opl.test', ['127.0.0.1']);
  dns.set('v6.opl.test', ['::1']);
});

describe('the allowed path (through the test-only escape hatch)', () => {
  it('fetches an allowed URL, with compression disabled and the accept header sent', async () => {
    const response = await safeFetch('https://registry.opl.test/playlists/ok', policy());
    expect(response.status).toBe(200);
    expect(JSON.parse(Buffer.from(response.body).toString('utf8'))).toEqual({ ok: true, encoding: 'identity', accept: 'application/json' });
    expect(response.url.href).toBe('https://registry.opl.test/playlists/ok');
    expect(listeners.publicHttps.requests).toEqual(['/playlists/ok']);
    expectNothingForbiddenReached();
  });

  it('accepts an explicit :443, upper case and a trailing dot, and connects to the normalised name', async () => {
    const response = await safeFetch('https://REGISTRY.opl.test.:443/playlists/ok', policy());
    expect(response.status).toBe(200);
    expect(response.url.href).toBe('https://registry.opl.test/playlists/ok');
    expect(resolverCalls.every((host) => host === 'registry.opl.test')).toBe(true);
  });

  it('follows up to three redirects on allowed hosts', async () => {
    const response = await safeFetch('https://registry.opl.test/playlists/chain/3', policy());
    expect(response.status).toBe(200);
    expect(response.redirects).toBe(3);
    expect(response.url.pathname).toBe('/playlists/chain/0');
  });
});

// URLs refused by the rules before any DNS query or connection.
const URL_CASES: readonly (readonly [label: string, url: string, reason: string])[] = [
  ['plain http', 'http://registry.opl.test/playlists/ok', 'unsupported_scheme'],
  ['ftp', 'ftp://registry.opl.test/playlists/ok', 'unsupported_scheme'],
  ['file', 'file:///etc/passwd', 'unsupported_scheme'],
  ['javascript', 'javascript:fetch("https://registry.opl.test/playlists/ok")', 'unsupported_scheme'],
  ['data', 'data:application/json,{}', 'unsupported_scheme'],
  ['gopher', 'gopher://127.0.0.1:6379/_INFO', 'unsupported_scheme'],
  ['dotted loopback', 'https://127.0.0.1/playlists/ok', 'ip_literal_host'],
  ['decimal loopback', 'https://2130706433/playlists/ok', 'ip_literal_host'],
  ['octal loopback', 'https://0177.0.0.1/playlists/ok', 'ip_literal_host'],
  ['hex short form', 'https://0x7f.1/playlists/ok', 'ip_literal_host'],
  ['single hex number', 'https://0x7f000001/playlists/ok', 'ip_literal_host'],
  ['short dotted form', 'https://127.1/playlists/ok', 'ip_literal_host'],
  ['percent-encoded IPv4', 'https://%31%32%37.0.0.1/playlists/ok', 'ip_literal_host'],
  ['metadata address', 'https://169.254.169.254/latest/meta-data/', 'ip_literal_host'],
  ['IPv6 loopback', 'https://[::1]/playlists/ok', 'ip_literal_host'],
  ['IPv6 long loopback', 'https://[0:0:0:0:0:0:0:1]/playlists/ok', 'ip_literal_host'],
  ['IPv4-mapped IPv6', 'https://[::ffff:127.0.0.1]/playlists/ok', 'ip_literal_host'],
  ['IPv4-mapped IPv6 in hex', 'https://[::ffff:7f00:1]/playlists/ok', 'ip_literal_host'],
  ['IPv6 link-local', 'https://[fe80::1]/playlists/ok', 'ip_literal_host'],
  ['user and password', 'https://user:secret@registry.opl.test/playlists/ok', 'credentials_in_url'],
  ['allowed host as userinfo', 'https://registry.opl.test@127.0.0.1/playlists/ok', 'credentials_in_url'],
  ['empty userinfo', 'https://@registry.opl.test/playlists/ok', 'credentials_in_url'],
  ['userinfo hidden after a fragment', 'https://evil.test#@registry.opl.test/playlists/ok', 'host_not_allowed'],
  ['non-default port', 'https://registry.opl.test:8443/playlists/ok', 'port_not_allowed'],
  ['port 80 on https', 'https://registry.opl.test:80/playlists/ok', 'port_not_allowed'],
  ['host outside the list', 'https://evil.test/playlists/ok', 'host_not_allowed'],
  ['allowed name as a subdomain of another', 'https://registry.opl.test.evil.test/playlists/ok', 'host_not_allowed'],
  ['subdomain of an allowed name', 'https://sub.registry.opl.test/playlists/ok', 'host_not_allowed'],
  ['allowed name as a suffix', 'https://evilregistry.opl.test/playlists/ok', 'host_not_allowed'],
  ['path outside the prefix', 'https://registry.opl.test/admin', 'path_not_allowed'],
  ['prefix without a segment boundary', 'https://registry.opl.test/playlistsX/ok', 'path_not_allowed'],
  ['dot segments resolved by the parser', 'https://registry.opl.test/playlists/../admin', 'path_not_allowed'],
  ['encoded dot segments', 'https://registry.opl.test/playlists/%2e%2e/admin', 'path_not_allowed'],
  ['encoded slash', 'https://registry.opl.test/playlists/..%2fadmin', 'path_encoding'],
  ['encoded backslash', 'https://registry.opl.test/playlists/..%5cadmin', 'path_encoding'],
  ['double-encoded dots', 'https://registry.opl.test/playlists/%252e%252e/admin', 'path_encoding'],
  ['raw backslash', 'https://registry.opl.test\\@evil.test/playlists/ok', 'invalid_url'],
  ['over-long URL', `https://registry.opl.test/playlists/${'a'.repeat(3000)}`, 'url_too_long'],
  ['not a URL', 'registry.opl.test/playlists/ok', 'invalid_url'],
];

describe('URLs refused before any network activity', () => {
  it.each(URL_CASES)('%s: %s', async (_label, url, reason) => {
    const error = await refusal(url);
    expect(error.code).toBe('url_not_allowed');
    expect(error.reason).toBe(reason);
    expect(error.detail).not.toContain('secret');
    expect(resolverCalls).toEqual([]);
    expect(listeners.publicHttps.connections).toBe(0);
    expectNothingForbiddenReached();
  });
});

// Allowed names whose DNS answers are not public.
const DNS_CASES: readonly (readonly [label: string, answers: readonly string[], range: string])[] = [
  ['loopback', ['127.0.0.1'], 'loopback'],
  ['another loopback address', ['127.8.9.10'], 'loopback'],
  ['private 10/8', ['10.0.0.5'], 'private'],
  ['private 172.16/12', ['172.16.4.2'], 'private'],
  ['private 192.168/16', ['192.168.1.1'], 'private'],
  ['cloud metadata', ['169.254.169.254'], 'link_local'],
  ['CGNAT', ['100.64.0.1'], 'shared_cgnat'],
  ['this network', ['0.0.0.0'], 'this_network'],
  ['multicast', ['224.0.0.251'], 'multicast'],
  ['broadcast', ['255.255.255.255'], 'broadcast'],
  ['reserved 240/4', ['240.0.0.1'], 'reserved'],
  ['benchmarking', ['198.18.0.1'], 'benchmarking'],
  ['documentation', ['192.0.2.10'], 'documentation'],
  ['IPv6 loopback', ['::1'], 'loopback'],
  ['IPv6 unspecified', ['::'], 'unspecified'],
  ['IPv4-mapped loopback', ['::ffff:127.0.0.1'], 'loopback'],
  ['IPv4-mapped metadata', ['::ffff:169.254.169.254'], 'link_local'],
  ['NAT64 of a private address', ['64:ff9b::a00:1'], 'private'],
  ['6to4 of a loopback address', ['2002:7f00:1::1'], 'loopback'],
  ['IPv6 link-local', ['fe80::1'], 'link_local'],
  ['IPv6 unique local', ['fd12:3456::1'], 'unique_local'],
  ['IPv6 multicast', ['ff02::1'], 'multicast'],
  ['IPv6 documentation', ['2001:db8::1'], 'documentation'],
  ['Teredo', ['2001:0:4136:e378::1'], 'special_purpose'],
  ['mixed: public first, then private', ['93.184.216.34', '10.0.0.1'], 'private'],
  ['mixed: allowed listener, then loopback', [PUBLIC_ADDRESS, '127.0.0.1'], 'loopback'],
  ['mixed: IPv6 public, IPv6 loopback', ['2606:4700::6810:85e5', '::1'], 'loopback'],
  ['not an address', ['localhost'], 'invalid'],
];

describe('allowed names whose DNS answers are not globally routable', () => {
  it.each(DNS_CASES)('%s: %j', async (_label, answers, range) => {
    dns.set('mixed.opl.test', answers);
    const error = await refusal('https://mixed.opl.test/playlists/ok');
    expect(error.code).toBe('destination_not_public');
    expect(error.reason).toBe(range);
    for (const address of answers) expect(error.detail).not.toContain(address === 'localhost' ? '\u0000' : address);
    expect(listeners.publicHttps.connections).toBe(0);
    expectNothingForbiddenReached();
  });

  it('refuses localhost through the system resolver', async () => {
    const { resolver: _resolver, ...withoutResolver } = policy();
    const error = await safeFetch('https://localhost/playlists/ok', withoutResolver).then(
      () => null,
      (thrown: unknown) => thrown as SafeFetchError,
    );
    expect(error).toBeInstanceOf(SafeFetchError);
    if (!error) return;
    expect(error.code).toBe('destination_not_public');
    expectNothingForbiddenReached();
  });

  it('refuses a name with no answer, or one the resolver cannot resolve', async () => {
    dns.set('empty.opl.test', []);
    expect((await refusal('https://empty.opl.test/playlists/ok')).code).toBe('dns_failed');
    expect((await refusal('https://broken.opl.test/playlists/ok')).code).toBe('dns_failed');
    expectNothingForbiddenReached();
  });
});

describe('DNS rebinding between the check and the connect', () => {
  it('refuses when the name answers the listener first and loopback at connect time', async () => {
    dns.set('rebind.opl.test', (call) => (call === 1 ? [PUBLIC_ADDRESS] : ['127.0.0.1']));
    const error = await refusal('https://rebind.opl.test/playlists/ok');
    expect(error.code).toBe('destination_not_public');
    expect(error.reason).toBe('loopback');
    // One answer for the pre-check, one inside the connect: the second is the one that refused.
    expect(resolverCalls.filter((host) => host === 'rebind.opl.test')).toHaveLength(2);
    expect(listeners.publicHttps.connections).toBe(0);
    expectNothingForbiddenReached();
  });

  it('refuses when a public-looking answer turns into IPv6 loopback at connect time', async () => {
    dns.set('rebind.opl.test', (call) => (call === 1 ? ['93.184.216.34'] : ['::1']));
    const error = await refusal('https://rebind.opl.test/playlists/ok');
    expect(error.code).toBe('destination_not_public');
    expectNothingForbiddenReached();
  });

  it('checks inside the connect even when nothing checked before (the guarded agent alone)', async () => {
    const guarded = createGuardedAgent({ resolver: async () => [{ address: '127.0.0.1', family: 4 }], timeoutMs: 2_000, maxHeaderBytes: 16_384, connectPort: listeners.port, ca: TEST_CA });
    try {
      const error = await request('https://registry.opl.test/playlists/ok', { dispatcher: guarded.agent }).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(Error);
      expect(guarded.refusal()?.code).toBe('destination_not_public');
    } finally {
      await guarded.agent.destroy();
    }
    expectNothingForbiddenReached();
  });
});

describe('redirects', () => {
  const via = (location: string): string => `https://registry.opl.test/playlists/to?location=${encodeURIComponent(location)}`;

  it.each([
    ['an allowed name that resolves to loopback', 'https://internal.opl.test/playlists/ok', 'destination_not_public', 'loopback'],
    ['an allowed name that resolves to IPv6 loopback', 'https://v6.opl.test/playlists/ok', 'destination_not_public', 'loopback'],
    ['a host outside the list', 'https://evil.test/playlists/ok', 'url_not_allowed', 'host_not_allowed'],
    ['a loopback IP literal', 'https://127.0.0.1/playlists/ok', 'url_not_allowed', 'ip_literal_host'],
    ['the metadata address', 'http://169.254.169.254/latest/meta-data/', 'url_not_allowed', 'unsupported_scheme'],
    ['a decimal IP literal', 'https://2130706433/playlists/ok', 'url_not_allowed', 'ip_literal_host'],
    ['plain http on the same host', 'http://registry.opl.test/playlists/ok', 'url_not_allowed', 'unsupported_scheme'],
    ['another port on the same host', 'https://registry.opl.test:8443/playlists/ok', 'url_not_allowed', 'port_not_allowed'],
    ['credentials on the same host', 'https://user:secret@registry.opl.test/playlists/ok', 'url_not_allowed', 'credentials_in_url'],
    ['a path outside the prefix', '/admin', 'url_not_allowed', 'path_not_allowed'],
  ])('refuses a redirect to %s', async (_label, location, code, reason) => {
    const error = await refusal(via(location));
    expect(error.code).toBe(code);
    expect(error.reason).toBe(reason);
    expect(error.detail).not.toContain('secret');
    expect(listeners.publicHttps.requests).toEqual([expect.stringMatching(/^\/playlists\/to\?/)]);
    expectNothingForbiddenReached();
  });

  it('refuses a redirect loop', async () => {
    const error = await refusal('https://registry.opl.test/playlists/loop');
    expect(error.code).toBe('too_many_redirects');
    expect(listeners.publicHttps.requests).toHaveLength(4);
  });

  it('refuses a fourth redirect, and honours a lower cap', async () => {
    expect((await refusal('https://registry.opl.test/playlists/chain/4')).code).toBe('too_many_redirects');
    expect((await refusal('https://registry.opl.test/playlists/chain/2', { maxRedirects: 1 })).code).toBe('too_many_redirects');
  });
});

describe('response caps', () => {
  it('refuses a gzip response', async () => {
    const error = await refusal('https://registry.opl.test/playlists/gzip');
    expect(error.code).toBe('compressed_response');
  });

  it('refuses headers over the header cap', async () => {
    const error = await refusal('https://registry.opl.test/playlists/huge-header');
    expect(error.code).toBe('headers_too_large');
  });

  it('refuses a declared length over the byte cap without reading it', async () => {
    const error = await refusal('https://registry.opl.test/playlists/declared-large');
    expect(error.code).toBe('response_too_large');
  });

  it('stops reading an endless body at the byte cap', async () => {
    const error = await refusal('https://registry.opl.test/playlists/endless');
    expect(error.code).toBe('response_too_large');
    await expect.poll(() => listeners.streamed.closed, { timeout: 5_000 }).toBe(true);
    // The server wrote far less than its 256 MiB before the client hung up.
    expect(listeners.streamed.bytes).toBeLessThan(32 * 1024 * 1024);
  });

  it('times out a server that never answers', async () => {
    // The server never answers: only the fetch's own timeout can end this (the code says it did).
    const error = await refusal('https://registry.opl.test/playlists/silent', { timeoutMs: 300 });
    expect(error.code).toBe('timeout');
  });

  it('times out a body that trickles in forever', async () => {
    const error = await refusal('https://registry.opl.test/playlists/trickle', { timeoutMs: 400 });
    expect(error.code).toBe('timeout');
  });

  it('reports cancellation by the caller as aborted', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const error = await refusal('https://registry.opl.test/playlists/silent', { signal: controller.signal });
    expect(error.code).toBe('aborted');
  });
});
