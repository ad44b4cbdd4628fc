import { runParse, runSerialize } from '@opl/plugin-sdk/testing';
import { describe, expect, it } from 'vitest';
import plugin from './index.ts';
import { uriReferenceProblem } from './uri-reference.ts';

const HEAD = '<playlist version="1" xmlns="http://xspf.org/ns/0/">\n';
const parse = (text: string, filename = 'list.xspf') => runParse(plugin, text, { filename });

async function refusal(text: string, filename = 'list.xspf'): Promise<string> {
  try {
    await parse(text, filename);
  } catch (error) {
    expect((error as { type?: string }).type).toBe('InvalidInput');
    return (error as Error).message;
  }
  throw new Error('expected the file to be refused');
}

describe('uriReferenceProblem: RFC 3986 URI references (relative ones too, as XSPF 1 allows)', () => {
  it.each([
    'http://example.org/a%20b.mp3?x=1&y=2#t',
    'playCount', // a relative rel: legal in XSPF 1 (its errata), if unwise
    '../Music/a.mp3',
    'urn:isrc:USAAA0000001',
    'file:///C:/Música/Björk.flac', // IRI characters: XML Schema's anyURI allows them
    'C:/Music/a.mp3', // scheme "c"
    'http://[2001:db8::1]:8000/live',
    '#fragment',
    '',
  ])('accepts %j', (uri) => {
    expect(uriReferenceProblem(uri)).toBeNull();
  });

  it.each([
    ['http://a/b c.mp3', /a space/],
    ['%%%', /"%" that is not followed by two hexadecimal digits/],
    ['has space', /a space/],
    ['play count', /a space/],
    ['C:\\Music\\A - B.mp3', /"\\"/],
    ['http://a/b#c#d', /second "#"/],
    ['http://a/[x]', /"\[" or "\]" outside an IPv6 host/],
    [':no-scheme', /colon/],
    ['a\u0085b', /U\+0085|"\u0085"/],
    ['tab\there', /line break or tab/],
    ['<b>', /"<"/],
  ])('refuses %j, saying why', (text, reason) => {
    expect(uriReferenceProblem(text)).toMatch(reason);
  });
});

describe('XSPF URI-typed values', () => {
  it.each([
    ['an <extension application>', `${HEAD}<extension application="my app"/><trackList/></playlist>`, /the application of <extension> must be a URI/],
    ['a playlist <license>', `${HEAD}<license>CC BY 4.0</license><trackList/></playlist>`, /<license> must be a URI/],
  ])('refuses the document for %s that is no URI, naming the element and its line', async (_name, document, reason) => {
    const message = await refusal(document);
    expect(message).toMatch(/^not a conforming XSPF document/);
    expect(message).toMatch(reason);
  });

  it.each([
    ['a track <info>', `${HEAD}<trackList>\n<track><title>a</title></track>\n<track><info>%%%</info></track></trackList></playlist>`, 4, /^<info> must be a URI, and "%%%" is not one: it holds a "%".*; it was kept as text$/, { tracks: [{ title: 'a' }, { metadata: { info: '%%%' } }] }],
    ['a track <identifier>', `${HEAD}<trackList>\n<track><identifier>has space</identifier></track></trackList></playlist>`, 3, /^<identifier> must be a URI, and "has space" is not one: it holds a space.*; it was kept as text$/, { tracks: [{ metadata: { identifiers: ['has space'] } }] }],
    ['a <meta rel>', `${HEAD}<trackList><track>\n<meta rel="play count">1</meta></track></trackList></playlist>`, 3, /^the rel of <meta> must be a URI, and "play count".*; it was ignored$/, { tracks: [{ title: '' }] }],
    ['a <link rel>', `${HEAD}\n<link rel="x y">http://a/</link><trackList/></playlist>`, 3, /^the rel of <link> must be a URI.*; it was ignored$/, { tracks: [] }],
    ['a <link> target', `${HEAD}<link rel="http://a/rel">not a uri</link><trackList/></playlist>`, 2, /^<link> must be a URI, and "not a uri".*; it was ignored$/, { tracks: [] }],
    ['a playlist <location>', `${HEAD}<location>C:\\Lists\\a.xspf</location><trackList/></playlist>`, 2, /^<location> must be a URI.*; it was kept as text$/, { metadata: { location: 'C:\\Lists\\a.xspf' } }],
    ['a playlist <identifier>', `${HEAD}<identifier>{id}</identifier><trackList/></playlist>`, 2, /^<identifier> must be a URI, and "\{id\}".*; it was kept as text$/, { metadata: { identifier: '{id}' } }],
    ['an <attribution> entry', `${HEAD}<attribution>\n<location>http://a/b c.xspf</location></attribution><trackList/></playlist>`, 3, /^<location> must be a URI.*; it was ignored$/, { tracks: [] }],
  ])('keeps the playlist and the track for %s that is no URI, with a warning on its line', async (_name, document, line, message, expected) => {
    const result = await parse(document);
    expect(result.playlists).toHaveLength(1);
    expect(result.playlists[0]).toMatchObject(expected);
    expect(result.issues).toEqual([expect.objectContaining({ line, code: 'invalid_value', severity: 'warning', message: expect.stringMatching(message) as unknown })]);
  });

  it('accepts relative URIs wherever XSPF has a URI, rel and application included, with white space around them', async () => {
    const result = await parse(`${HEAD}<info> ../about.html </info><license>licenses/by</license><meta rel="playCount">3</meta><extension application="ext/1"/><trackList><track><title>T</title><identifier>\n  urn:x:1\n</identifier><link rel="seeAlso">../a</link></track></trackList></playlist>`);
    expect(result.issues).toEqual([]);
    expect(result.playlists[0]!.metadata).toEqual({ info: '../about.html', license: 'licenses/by' });
  });

  /*
   * A track's <location> and any <image> are read as written, with a warning, not refused: Clementine and
   * Strawberry write file paths there as they are, and a path is what the reader makes of a location
   * anyway. Refusing would lose every track of such a playlist for no gain.
   */
  it('keeps a track whose <location> or <image> is no URI (a Windows path, a URL with a space), with a warning on its line; its neighbours are untouched', async () => {
    const result = await parse(`${HEAD}<trackList>\n<track><location>http://a/ok.mp3</location><title>Fine</title><creator>A</creator></track>\n<track><location>C:\\Music\\A - B.mp3</location></track>\n<track><location>http://a/b c.mp3</location><image>cover art.jpg</image><title>S</title><creator>C</creator></track>\n</trackList></playlist>`);
    const [fine, windows, spaced] = result.playlists[0]!.tracks;
    expect(fine).toMatchObject({ title: 'Fine', metadata: { location: 'http://a/ok.mp3' } });
    expect(windows).toMatchObject({ title: 'B', artist: 'A', is_local: true, metadata: { location: 'C:\\Music\\A - B.mp3', local_path: 'C:\\Music\\A - B.mp3' } });
    expect(spaced).toMatchObject({ title: 'S', artwork_uri: 'cover art.jpg', metadata: { location: 'http://a/b c.mp3' } });
    expect(result.issues.map(({ line, code, severity, message }) => [line, code, severity, message])).toEqual([
      [4, 'invalid_value', 'warning', 'the location "C:\\Music\\A - B.mp3" is not a URI, as XSPF requires (it holds "\\", which a URI must percent-encode); it was read as written'],
      [5, 'invalid_value', 'warning', 'the location "http://a/b c.mp3" is not a URI, as XSPF requires (it holds a space, which a URI must percent-encode); it was read as written'],
      [5, 'invalid_value', 'warning', 'the image "cover art.jpg" is not a URI, as XSPF requires (it holds a space, which a URI must percent-encode); it was read as written'],
    ]);
  });
});

describe('JSPF URI-typed values', () => {
  it.each([
    ['a track identifier', { track: [{ identifier: ['has space'] }] }, /playlist\.track\[0\]\.identifier\[0\] must be a URI, and "has space"/],
    ['a track info', { track: [{ info: '%%%' }] }, /playlist\.track\[0\]\.info must be a URI/],
    ['a playlist license', { license: 'CC BY', track: [] }, /playlist\.license must be a URI/],
    ['an extension application', { extension: { 'my app': [{}] }, track: [] }, /playlist\.extension's key must be a URI, and "my app"/],
  ])('refuses %s that is no URI', async (_name, playlist, reason) => {
    const message = await refusal(JSON.stringify({ playlist }), 'x.jspf');
    expect(message).toMatch(/^not a conforming JSPF document/);
    expect(message).toMatch(reason);
  });
});

describe('our export stays conforming whatever the model holds', () => {
  it('writes only URIs in URI-typed elements, and reads everything back from the extension', async () => {
    const playlist = {
      name: 'P',
      provider_uris: { spotify: 'not a uri' },
      metadata: { info: 'see the site', license: 'CC BY', location: 'C:\\Lists\\p.xspf' },
      tracks: [{ title: 'T', artist: 'A', provider_uris: { spotify: 'spotify:track:1', other: 'has space' }, metadata: { identifiers: ['urn:x:1', 'free text'], info: '%%', location: 'https://h/a b.mp3' } }],
    };
    const { text } = await runSerialize(plugin, [playlist]);
    expect(text).toContain('<location>https://h/a%20b.mp3</location>');
    expect(text).not.toMatch(/<(identifier|info|license)>[^<]*(not a uri|free text|has space|see the site|CC BY|%%)/);
    expect(text).not.toContain('<location>C:');
    const parsed = await runParse(plugin, text, { filename: 'p.xspf' });
    expect(parsed.issues).toEqual([]);
    expect(parsed.playlists[0]).toMatchObject({ provider_uris: playlist.provider_uris, metadata: playlist.metadata, tracks: [{ provider_uris: playlist.tracks[0]!.provider_uris, metadata: playlist.tracks[0]!.metadata }] });
  });
});
