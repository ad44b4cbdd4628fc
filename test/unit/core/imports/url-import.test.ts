import { playlistIdPatternSchema, playlistLinkSchema, type Manifest } from '@opl/plugin-sdk/schemas';
import { describe, expect, it } from 'vitest';
import { classifyImportUrl, playlistIdOf } from '../../../../core/services/imports/url-import.ts';

/** The parts of provider manifests that link classification reads. */
function provider(id: string, name: string, displayName: string, links: unknown[]): Manifest {
  return { id, kind: 'provider', provider: { name, display_name: displayName, playlist_links: links.map((link) => playlistLinkSchema.parse(link)) } } as unknown as Manifest;
}

const MANIFESTS = [
  provider('opl.provider.spotify', 'spotify', 'Spotify', [{ origin: 'https://open.spotify.com', path_prefix: '/playlist/', id_pattern: '^[A-Za-z0-9]{22}$' }]),
  provider('opl.provider.youtube', 'youtube', 'YouTube', [{ origin: 'https://www.youtube.com', path_prefix: '/playlist', id_query_param: 'list', id_pattern: '^[A-Za-z0-9_-]{2,64}$' }]),
  provider('opl.provider.deezer', 'deezer', 'Deezer', [{ origin: 'https://www.deezer.com', path_prefix: '/en/playlist/' }]),
];
const ALLOWED = [{ host: 'lists.example.org', pathPrefixes: ['/'] }];
const LOCAL = { origins: ['https://music.example.test', 'http://127.0.0.1:8765'] };
const TOKEN = 'A'.repeat(43);

describe('classifyImportUrl', () => {
  it.each([
    ['https://open.spotify.com/playlist/37i9dQZF1DXcBWIGoYBM5M?si=abc', 'spotify', '37i9dQZF1DXcBWIGoYBM5M'],
    ['https://open.spotify.com/playlist/37i9dQZF1DXcBWIGoYBM5M/', 'spotify', '37i9dQZF1DXcBWIGoYBM5M'],
    ['https://www.youtube.com/playlist?list=PLx0sYbCqOb8TBPRdmBHs5Iftvv9TPboYG&feature=share', 'youtube', 'PLx0sYbCqOb8TBPRdmBHs5Iftvv9TPboYG'],
    ['https://www.deezer.com/en/playlist/908622995', 'deezer', '908622995'],
  ])('reads the playlist id of %s as the provider declares it', (url, name, playlistId) => {
    expect(classifyImportUrl(url, MANIFESTS, ALLOWED, LOCAL)).toMatchObject({ kind: 'provider_playlist', provider: name, playlistId });
  });

  it.each([
    'https://open.spotify.com/playlist/short',
    'https://open.spotify.com/playlist/37i9dQZF1DXcBWIGoYBM5M-extra',
    'https://www.youtube.com/playlist',
    'https://www.youtube.com/playlist?list=',
    'https://www.youtube.com/playlist?list=a&list=b',
    'https://www.youtube.com/playlist?list=%3Cscript%3E',
    'https://www.deezer.com/en/playlist/',
  ])('refuses %s: it names no playlist of the declared form', (url) => {
    expect(classifyImportUrl(url, MANIFESTS, ALLOWED, LOCAL)).toMatchObject({ kind: 'refused', reason: 'invalid_playlist_link' });
  });

  it('holds provider links to the public URL rules (https, no userinfo, default port)', () => {
    for (const url of ['http://open.spotify.com/playlist/37i9dQZF1DXcBWIGoYBM5M', 'https://u:p@open.spotify.com/playlist/37i9dQZF1DXcBWIGoYBM5M', 'https://open.spotify.com:8443/playlist/37i9dQZF1DXcBWIGoYBM5M']) {
      expect(classifyImportUrl(url, MANIFESTS, ALLOWED, LOCAL).kind).toBe('refused');
    }
  });

  it('recognises share links of this engine on its own origins only, without the network', () => {
    expect(classifyImportUrl(`https://music.example.test/share/${TOKEN}`, MANIFESTS, ALLOWED, LOCAL)).toEqual({ kind: 'local_share', token: TOKEN });
    expect(classifyImportUrl(`http://127.0.0.1:8765/share/${TOKEN}`, MANIFESTS, ALLOWED, LOCAL)).toEqual({ kind: 'local_share', token: TOKEN });
    // Another origin, a short token, userinfo: not a local share.
    expect(classifyImportUrl(`http://127.0.0.1:9999/share/${TOKEN}`, MANIFESTS, ALLOWED, LOCAL).kind).toBe('refused');
    expect(classifyImportUrl('https://music.example.test/share/abc', MANIFESTS, ALLOWED, LOCAL).kind).toBe('refused');
    expect(classifyImportUrl(`https://me@music.example.test/share/${TOKEN}`, MANIFESTS, ALLOWED, LOCAL).kind).toBe('refused');
  });

  it('turns a share link on an allowed host into a fetch of exactly its public snapshot JSON', () => {
    const target = classifyImportUrl(`https://lists.example.org/share/${TOKEN}?utm=x`, MANIFESTS, ALLOWED, LOCAL);
    expect(target).toMatchObject({ kind: 'remote_share', host: 'lists.example.org', token: TOKEN });
    expect(target.kind === 'remote_share' && target.url.href).toBe(`https://lists.example.org/api/public/shares/${TOKEN}`);
    expect(classifyImportUrl('https://lists.example.org/share/not*a*token', MANIFESTS, ALLOWED, LOCAL)).toMatchObject({ kind: 'refused', reason: 'invalid_share_link' });
    expect(classifyImportUrl('https://lists.example.org/lists/mix.json', MANIFESTS, ALLOWED, LOCAL).kind).toBe('remote_json');
    expect(classifyImportUrl(`https://elsewhere.example.org/share/${TOKEN}`, MANIFESTS, ALLOWED, LOCAL)).toMatchObject({ kind: 'refused', reason: 'host_not_allowed' });
  });
});

describe('playlist id patterns in manifests', () => {
  it('accept one bounded character class only, so link parsing stays linear', () => {
    for (const pattern of ['^[A-Za-z0-9]{22}$', '^[0-9a-fA-F-]{36}$', '^[\\w-]{1,64}$']) expect(playlistIdPatternSchema.safeParse(pattern).success, pattern).toBe(true);
    for (const pattern of ['^(a+)+$', '^[a-z]+$', '.*', '^[a-z]{1,5}[0-9]{1,5}$', '[a-z]{1,5}', '^[a-z]{1,5}$|x']) expect(playlistIdPatternSchema.safeParse(pattern).success, pattern).toBe(false);
  });

  it('default to a plain id of letters, digits, "_" and "-"', () => {
    const link = playlistLinkSchema.parse({ origin: 'https://www.deezer.com', path_prefix: '/playlist/' });
    expect(playlistIdOf(new URL('https://www.deezer.com/playlist/9_a-B'), link)).toBe('9_a-B');
    expect(playlistIdOf(new URL('https://www.deezer.com/playlist/9%20a'), link)).toBeNull();
    expect(playlistIdOf(new URL(`https://www.deezer.com/playlist/${'9'.repeat(201)}`), link)).toBeNull();
  });
});
