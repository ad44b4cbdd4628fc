import { describe, expect, it } from 'vitest';
import { checkPublicUrl, decodedPath, normaliseHostName, pathMatchesPrefix, type PublicUrlPolicy } from '../../../core/net/public-url.ts';

const policy: PublicUrlPolicy = {
  allowedHosts: [
    { host: 'lists.example.org', pathPrefixes: ['/playlists', '/shared/'] },
    { host: 'Bücher.Example.', pathPrefixes: ['/'] },
  ],
  maxUrlLength: 200,
};

function accepted(raw: string): string {
  const result = checkPublicUrl(raw, policy);
  if (!result.ok) throw new Error(`${raw} refused: ${result.reason}: ${result.detail}`);
  return result.url.href;
}

function refused(raw: string, custom: PublicUrlPolicy = policy): { reason: string; detail: string } {
  const result = checkPublicUrl(raw, custom);
  if (result.ok) throw new Error(`${raw} accepted as ${result.url.href}`);
  expect(result.code).toBe('url_not_allowed');
  return { reason: result.reason, detail: result.detail };
}

describe('checkPublicUrl accepts', () => {
  it.each([
    ['https://lists.example.org/playlists', 'https://lists.example.org/playlists'],
    ['https://lists.example.org/playlists/42?format=json', 'https://lists.example.org/playlists/42?format=json'],
    ['https://lists.example.org:443/playlists/42', 'https://lists.example.org/playlists/42'],
    ['HTTPS://LISTS.EXAMPLE.ORG/playlists/42', 'https://lists.example.org/playlists/42'],
    ['https://lists.example.org./playlists/42', 'https://lists.example.org/playlists/42'],
    ['  https://lists.example.org/playlists/42#top \n', 'https://lists.example.org/playlists/42'],
    ['https://lists.example.org/shared/abc', 'https://lists.example.org/shared/abc'],
    ['https://lists.example.org/playlists/a%20b', 'https://lists.example.org/playlists/a%20b'],
    ['https://bücher.example/any/path', 'https://xn--bcher-kva.example/any/path'],
    ['https://xn--bcher-kva.example/any/path', 'https://xn--bcher-kva.example/any/path'],
    ['https://BÜCHER.example/x', 'https://xn--bcher-kva.example/x'],
  ])('%s', (raw, href) => {
    expect(accepted(raw)).toBe(href);
  });
});

describe('checkPublicUrl refuses', () => {
  it.each([
    ['http://lists.example.org/playlists', 'unsupported_scheme'],
    ['ws://lists.example.org/playlists', 'unsupported_scheme'],
    ['file:///etc/passwd', 'unsupported_scheme'],
    ['javascript:alert(1)', 'unsupported_scheme'],
    ['data:text/plain,hi', 'unsupported_scheme'],
    ['blob:https://lists.example.org/x', 'unsupported_scheme'],
    ['//lists.example.org/playlists', 'invalid_url'],
    ['lists.example.org/playlists', 'invalid_url'],
    ['', 'invalid_url'],
    ['https://', 'invalid_url'],
    ['https://lists.example.org/play lists', 'invalid_url'],
    ['https://lists.example.org/playlists\t/x', 'invalid_url'],
    ['https://lists.example.org\\playlists', 'invalid_url'],
    ['https://lists.example.org../playlists', 'invalid_url'],
    ['https://user@lists.example.org/playlists', 'credentials_in_url'],
    ['https://user:pw@lists.example.org/playlists', 'credentials_in_url'],
    ['https://:pw@lists.example.org/playlists', 'credentials_in_url'],
    ['https://@lists.example.org/playlists', 'credentials_in_url'],
    ['https://lists.example.org@evil.test/playlists', 'credentials_in_url'],
    ['https://lists.example.org:8443/playlists', 'port_not_allowed'],
    ['https://lists.example.org:80/playlists', 'port_not_allowed'],
    ['https://lists.example.org:0/playlists', 'port_not_allowed'],
    ['https://127.0.0.1/playlists', 'ip_literal_host'],
    ['https://2130706433/playlists', 'ip_literal_host'],
    ['https://017700000001/playlists', 'ip_literal_host'],
    ['https://0177.0.0.1/playlists', 'ip_literal_host'],
    ['https://0x7f.0.0.1/playlists', 'ip_literal_host'],
    ['https://0x7f.1/playlists', 'ip_literal_host'],
    ['https://127.1/playlists', 'ip_literal_host'],
    ['https://10.1/playlists', 'ip_literal_host'],
    ['https://127.0.0.1./playlists', 'ip_literal_host'],
    ['https://８.８.８.８/playlists', 'ip_literal_host'],
    ['https://8.8.8.8/playlists', 'ip_literal_host'],
    ['https://[::1]/playlists', 'ip_literal_host'],
    ['https://[::ffff:127.0.0.1]/playlists', 'ip_literal_host'],
    ['https://[2606:4700::1]/playlists', 'ip_literal_host'],
    ['https://[fe80::1%25eth0]/playlists', 'invalid_url'],
    ['https://evil.test/playlists', 'host_not_allowed'],
    ['https://example.org/playlists', 'host_not_allowed'],
    ['https://www.lists.example.org/playlists', 'host_not_allowed'],
    ['https://lists.example.org.evil.test/playlists', 'host_not_allowed'],
    ['https://xlists.example.org/playlists', 'host_not_allowed'],
    ['https://localhost/playlists', 'host_not_allowed'],
    ['https://lists.example.org/', 'path_not_allowed'],
    ['https://lists.example.org/playlist', 'path_not_allowed'],
    ['https://lists.example.org/playlistsX', 'path_not_allowed'],
    ['https://lists.example.org/shared', 'path_not_allowed'],
    ['https://lists.example.org/playlists/../admin', 'path_not_allowed'],
    ['https://lists.example.org/playlists/%2e%2e/admin', 'path_not_allowed'],
    ['https://lists.example.org/playlists/.%2E/admin', 'path_not_allowed'],
    ['https://lists.example.org/playlists%2fadmin', 'path_encoding'],
    ['https://lists.example.org/playlists/..%2Fadmin', 'path_encoding'],
    ['https://lists.example.org/playlists/..%5cadmin', 'path_encoding'],
    ['https://lists.example.org/playlists/%252e%252e/admin', 'path_encoding'],
    ['https://lists.example.org/playlists/..;/admin', 'path_encoding'],
    ['https://lists.example.org/playlists/%00', 'path_encoding'],
    ['https://lists.example.org/playlists/%E0%A4%A', 'path_encoding'],
    [`https://lists.example.org/playlists/${'a'.repeat(200)}`, 'url_too_long'],
  ])('%s → %s', (raw, reason) => {
    expect(refused(raw).reason).toBe(reason);
  });

  it('checks the length again after normalisation (IDNA can grow a URL)', () => {
    const tight: PublicUrlPolicy = { allowedHosts: [{ host: 'bücher.example', pathPrefixes: ['/'] }], maxUrlLength: 'https://bücher.example/ab'.length };
    expect(refused('https://bücher.example/ab', tight).reason).toBe('url_too_long');
  });

  it('never repeats credentials, the query or the fragment in the detail', () => {
    for (const raw of ['https://alice:hunter2@lists.example.org/playlists', 'https://alice:hunter2@evil.test/x', 'https://lists.example.org/admin?token=hunter2#hunter2']) {
      const { detail } = refused(raw);
      expect(detail).not.toContain('hunter2');
      expect(detail).not.toContain('alice');
    }
  });

  it('refuses everything when no host is allowed', () => {
    expect(refused('https://lists.example.org/playlists', { allowedHosts: [], maxUrlLength: 200 }).reason).toBe('host_not_allowed');
  });
});

describe('helpers', () => {
  it('normalises allowed host names exactly as URLs are parsed', () => {
    expect(normaliseHostName('Lists.Example.Org.')).toBe('lists.example.org');
    expect(normaliseHostName('bücher.example')).toBe('xn--bcher-kva.example');
    expect(normaliseHostName('lists.example.org:8443')).toBeNull();
    expect(normaliseHostName('user@lists.example.org')).toBeNull();
    expect(normaliseHostName('lists.example.org/path')).toBeNull();
    expect(normaliseHostName('a..b')).toBeNull();
  });

  it('matches path prefixes at a segment boundary', () => {
    expect(pathMatchesPrefix('/v1', '/v1')).toBe(true);
    expect(pathMatchesPrefix('/v1/x', '/v1')).toBe(true);
    expect(pathMatchesPrefix('/v10', '/v1')).toBe(false);
    expect(pathMatchesPrefix('/v1/x', '/v1/')).toBe(true);
    expect(pathMatchesPrefix('/v1', '/v1/')).toBe(false);
    expect(pathMatchesPrefix('/anything', '/')).toBe(true);
  });

  it('decodes a path once and refuses what could decode to another path', () => {
    expect(decodedPath('/a/b%20c')).toBe('/a/b c');
    expect(decodedPath('/a/%2f')).toBeNull();
    expect(decodedPath('/a/%5C')).toBeNull();
    expect(decodedPath('/a/%2E%2E')).toBeNull();
    expect(decodedPath('/a/%25')).toBeNull();
    expect(decodedPath('/a/..')).toBeNull();
    expect(decodedPath('/a/%ZZ')).toBeNull();
    expect(decodedPath('relative')).toBeNull();
  });
});
