import { describe, expect, it } from 'vitest';
import type { NetworkGrant } from '../../../plugin-sdk/src/manifest.schema.ts';
import { decodedPath, isIpLiteralHost, matchGrant, pathMatchesPrefix } from '../../../plugin-sdk/src/sandbox/grant-matcher.ts';

const grants: NetworkGrant[] = [
  { origin: 'https://api.example.com', path_prefix: '/v1', methods: ['GET', 'POST'], reason: 'the API' },
  { origin: 'https://api.example.com', path_prefix: '/uploads/', methods: ['PUT'], reason: 'uploads' },
  { origin: 'http://127.0.0.1:8080', path_prefix: '/', methods: ['GET'], reason: 'a local fake' },
  { origin: 'http://[::1]:9090', path_prefix: '/api', methods: ['GET'], reason: 'a local v6 fake' },
];

function reason(url: string, method = 'GET') {
  const decision = matchGrant(grants, url, method);
  return decision.allowed ? 'allowed' : decision.reason;
}

describe('matchGrant', () => {
  it('allows a request whose origin, path and method match a grant', () => {
    expect(reason('https://api.example.com/v1/playlists?limit=5')).toBe('allowed');
    expect(reason('https://api.example.com/v1')).toBe('allowed');
    expect(reason('https://API.Example.COM:443/v1/me')).toBe('allowed');
    expect(reason('https://api.example.com/v1/me', 'post')).toBe('allowed');
    expect(reason('https://api.example.com/uploads/cover.jpg', 'PUT')).toBe('allowed');
  });

  it('refuses look-alike hosts', () => {
    expect(reason('https://api.example.com.evil.test/v1/x')).toBe('origin');
    expect(reason('https://evil.test/v1/x')).toBe('origin');
    expect(reason('https://xapi.example.com/v1/x')).toBe('origin');
    expect(reason('https://api.example.co/v1/x')).toBe('origin');
    expect(reason('https://api.example.com./v1/x')).toBe('origin');
    // Cyrillic "а" in place of the Latin "a" becomes a punycode host.
    expect(reason('https://\u0430pi.example.com/v1/x')).toBe('origin');
  });

  it('refuses userinfo, whichever side of the @ the granted host is on', () => {
    expect(reason('https://api.example.com@evil.test/v1/x')).toBe('userinfo');
    expect(reason('https://user:pass@api.example.com/v1/x')).toBe('userinfo');
    expect(reason('https://api.example.com:443@evil.test/v1/x')).toBe('userinfo');
  });

  it('treats a backslash as a path separator, not as the end of the userinfo', () => {
    const decision = matchGrant(grants, 'https://api.example.com\\@evil.test/v1/x', 'GET');
    expect(decision.allowed).toBe(false);
    if (!decision.allowed) expect(decision.reason).toBe('path');
  });

  it('refuses IP literal hosts in every spelling unless a grant names that address', () => {
    for (const url of [
      'https://127.0.0.1/v1/x',
      'https://0x7f.1/v1/x',
      'https://0x7f000001/v1/x',
      'https://2130706433/v1/x',
      'https://017700000001/v1/x',
      'https://127.1/v1/x',
      'https://[::1]/v1/x',
      'https://[::ffff:127.0.0.1]/v1/x',
      'https://[0:0:0:0:0:0:0:1]/v1/x',
      'http://169.254.169.254/latest/meta-data',
    ]) {
      expect(reason(url), url).toBe('ip_literal');
    }
    expect(reason('http://127.0.0.1:8080/anything')).toBe('allowed');
    expect(reason('http://0x7f.1:8080/anything')).toBe('allowed');
    expect(reason('http://[::1]:9090/api/x')).toBe('allowed');
    expect(reason('http://[0:0::1]:9090/api/x')).toBe('allowed');
    // The granted address on another port is still not granted.
    expect(reason('http://127.0.0.1:8081/anything')).toBe('ip_literal');
  });

  it('refuses a changed port or scheme', () => {
    expect(reason('https://api.example.com:8443/v1/x')).toBe('origin');
    expect(reason('http://api.example.com/v1/x')).toBe('origin');
    expect(reason('ftp://api.example.com/v1/x')).toBe('scheme');
    expect(reason('file:///etc/passwd')).toBe('scheme');
    expect(reason('not a url')).toBe('invalid_url');
    expect(reason('/v1/relative')).toBe('invalid_url');
  });

  it('matches path prefixes only at segment boundaries', () => {
    expect(reason('https://api.example.com/v10/x')).toBe('path');
    expect(reason('https://api.example.com/v1x')).toBe('path');
    expect(reason('https://api.example.com/')).toBe('path');
    expect(reason('https://api.example.com/uploads', 'PUT')).toBe('path');
    expect(reason('https://api.example.com/uploadsx/a', 'PUT')).toBe('path');
  });

  it('judges the normalised path: dot segments cannot climb out of a prefix', () => {
    expect(reason('https://api.example.com/v1/../admin')).toBe('path');
    expect(reason('https://api.example.com/v1/%2e%2e/admin')).toBe('path');
    expect(reason('https://api.example.com/v1/.%2E/admin')).toBe('path');
    expect(reason('https://api.example.com/v1/./playlists')).toBe('allowed');
  });

  it('refuses encoded separators, encoded dots and double encoding', () => {
    expect(reason('https://api.example.com/v1/..%2fadmin')).toBe('path_encoding');
    expect(reason('https://api.example.com/v1/..%2Fadmin')).toBe('path_encoding');
    expect(reason('https://api.example.com/v1/..%5cadmin')).toBe('path_encoding');
    expect(reason('https://api.example.com/v1/%252e%252e/admin')).toBe('path_encoding');
    expect(reason('https://api.example.com/v1/a%00b')).toBe('path_encoding');
    expect(reason('https://api.example.com/v1/%E0%A4%A')).toBe('path_encoding');
    expect(reason('https://api.example.com/%76%31/playlists')).toBe('allowed');
  });

  it('refuses methods the matching grant does not list', () => {
    expect(reason('https://api.example.com/v1/x', 'DELETE')).toBe('method');
    expect(reason('https://api.example.com/v1/x', 'PUT')).toBe('method');
    expect(reason('https://api.example.com/uploads/a', 'GET')).toBe('method');
    expect(reason('https://api.example.com/v1/x', 'CONNECT')).toBe('method');
    expect(reason('https://api.example.com/v1/x', 'TRACE')).toBe('method');
  });

  it('refuses everything when the plugin has no grants', () => {
    const decision = matchGrant([], 'https://api.example.com/v1/x', 'GET');
    expect(decision.allowed).toBe(false);
  });

  it('never repeats userinfo in a refusal message', () => {
    const decision = matchGrant(grants, 'https://user:hunter2@api.example.com/v1/x', 'GET');
    expect(decision.allowed).toBe(false);
    if (!decision.allowed) expect(decision.message).not.toContain('hunter2');
  });
});

describe('grant helpers', () => {
  it('recognises IP literal hosts as the URL parser writes them', () => {
    expect(isIpLiteralHost(new URL('http://0x7f.1/').hostname)).toBe(true);
    expect(isIpLiteralHost(new URL('http://[::1]/').hostname)).toBe(true);
    expect(isIpLiteralHost(new URL('http://1.2.3.4.example/').hostname)).toBe(false);
    expect(isIpLiteralHost('api.example.com')).toBe(false);
  });

  it('decodes paths once and refuses what a second decoding could change', () => {
    expect(decodedPath('/v1/a%20b')).toBe('/v1/a b');
    expect(decodedPath('/v1/%2e%2e')).toBeNull();
    expect(decodedPath('/v1/%25')).toBe('/v1/%');
    expect(decodedPath('/v1/%252f')).toBeNull();
  });

  it('matches prefixes with and without a trailing slash', () => {
    expect(pathMatchesPrefix('/v1', '/v1')).toBe(true);
    expect(pathMatchesPrefix('/v1/a', '/v1')).toBe(true);
    expect(pathMatchesPrefix('/v1a', '/v1')).toBe(false);
    expect(pathMatchesPrefix('/v1', '/v1/')).toBe(false);
    expect(pathMatchesPrefix('/v1/a', '/v1/')).toBe(true);
    expect(pathMatchesPrefix('/anything', '/')).toBe(true);
  });
});
