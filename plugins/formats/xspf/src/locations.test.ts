import { formatKit } from '@opl/plugin-sdk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { locationUri } from './location-uri.ts';
import { classifyLocation } from './locations.ts';

/** What the reader keeps for a local location: `metadata.location` and `metadata.local_path`. */
function localOf(location: string): { location: string; path: string; malformed: boolean } {
  const found = classifyLocation(location);
  if (found.kind !== 'local') throw new Error(`${location} is not a local file (${found.kind})`);
  return { location: found.location, path: found.path, malformed: found.malformed };
}

const decoded = (path: string) => ({ location: path, path, malformed: false });

describe('classifyLocation: an XSPF <location> URI read into the path of a local file', () => {
  it.each([
    ['a file: URI with a percent-encoded space (as VLC writes)', 'file:///home/u/Music/a%20b.mp3', '/home/u/Music/a b.mp3'],
    ['UTF-8 escapes', 'file:///home/u/Musique/%C3%A9t%C3%A9%20%F0%9F%8E%B5.flac', '/home/u/Musique/été 🎵.flac'],
    ['escaped #, % and ?', 'file:///home/u/%231%20100%25%3F.mp3', '/home/u/#1 100%?.mp3'],
    ['lower-case escapes and escaped unreserved characters', 'file:///a%2db%7e%c3%bc.mp3', '/a-b~ü.mp3'],
    ['the localhost authority', 'file://localhost/home/u/a%20b.mp3', '/home/u/a b.mp3'],
    ['the localhost authority in capitals, and the scheme too', 'FILE://LOCALHOST/home/u/a.mp3', '/home/u/a.mp3'],
    ['the one-slash form (RFC 8089)', 'file:/home/u/a%20b.mp3', '/home/u/a b.mp3'],
    ['a Windows drive', 'file:///C:/Music/a%20b.mp3', 'C:/Music/a b.mp3'],
    ['a Windows drive on localhost', 'file://localhost/D:/M%C3%BCsik/x.wma', 'D:/Müsik/x.wma'],
    ['a UNC path (server as the authority)', 'file://server/share/a%20b.mp3', '//server/share/a b.mp3'],
    ['a UNC path in the four-slash form', 'file:////server/share/a.mp3', '//server/share/a.mp3'],
    ['a query and a fragment, which are not part of the path', 'file:///home/u/a%20b.mp3?x=1#t=30', '/home/u/a b.mp3'],
    ['a relative reference', 'Music/a%20b.mp3', 'Music/a b.mp3'],
    ['a relative reference up a folder, UTF-8 escapes', '../x/%C3%A9t%C3%A9.flac', '../x/été.flac'],
    ['dot segments, kept (never resolved)', './Music/../../x%20y.mp3', './Music/../../x y.mp3'],
    ['an absolute-path reference', '/home/u/a%20b.mp3', '/home/u/a b.mp3'],
    ['a network-path reference', '//nas/Music/a%20b.mp3', '//nas/Music/a b.mp3'],
    ['a relative reference with a fragment', 'Music/a.mp3#t=10', 'Music/a.mp3'],
    ['an IRI (non-ASCII written as it is)', 'Musique/été%20x.mp3', 'Musique/été x.mp3'],
    ['the escaped colon our writer uses for a drive-relative path', 'C%3Aa.mp3', 'C:a.mp3'],
    ['a plain relative file name', 'a.mp3', 'a.mp3'],
  ])('decodes %s', (_name, location, path) => {
    expect(localOf(location)).toEqual(decoded(path));
  });

  it.each([
    ['a Windows drive path', 'C:\\Music\\a%20b.mp3'],
    ['a drive path with slashes', 'C:/Music/a%20b.mp3'],
    ['a UNC path', '\\\\server\\share\\a%20b.mp3'],
    ['a relative Windows path', '..\\Music\\a%20b.mp3'],
    ['a path written with spaces (no URI reference)', 'My Music/a%20b #1.mp3'],
    ['a path with characters no URI holds', 'Music/{a}|b^`.mp3'],
  ])('keeps %s as written: it is a path, not a URI', (_name, location) => {
    expect(localOf(location)).toEqual({ location, path: location, malformed: false });
  });

  it.each([
    ['a # in a file name', 'file:///home/u/Music/Track #1 - Intro.mp3', '/home/u/Music/Track #1 - Intro.mp3'],
    ['a ? in a file name, on a drive', 'file:///C:/Users/u/Music/Artist - Why? (Live).mp3', 'C:/Users/u/Music/Artist - Why? (Live).mp3'],
    ['both, with escapes too', 'file:///home/u/M%C3%BCsik/C# Minor ?.flac', '/home/u/Müsik/C# Minor ?.flac'],
  ])('keeps %s of a file: URL written unescaped (a space: no URI), as a player reads an M3U line', (_name, location, path) => {
    expect(localOf(location)).toEqual(decoded(path));
  });

  it.each([
    ['a lone non-UTF-8 byte in a file: URI', 'file:///home/u/%E9t%E9.mp3', '/home/u/%E9t%E9.mp3'],
    ['a non-hexadecimal escape in a file: URI', 'file:///home/u/%zz.mp3', '/home/u/%zz.mp3'],
    ['a truncated UTF-8 sequence in a relative reference', 'Music/%C3.mp3', 'Music/%C3.mp3'],
    ['a % that begins no escape', 'Music/100%.mp3', 'Music/100%.mp3'],
    ['a % at the end', 'a%', 'a%'],
    ['an escaped surrogate (not UTF-8)', '%ED%A0%80.mp3', '%ED%A0%80.mp3'],
  ])('keeps %s as written, flagged malformed (no exception)', (_name, location, path) => {
    expect(localOf(location)).toEqual({ location, path, malformed: true });
  });

  it('keeps a URI whose path would hold a control character or line break, or nothing, as written', () => {
    expect(localOf('file:///home/u/a%0Ab.mp3')).toEqual({ location: 'file:///home/u/a%0Ab.mp3', path: '/home/u/a\nb.mp3', malformed: false });
    expect(localOf('Music/a%00b%E2%80%A8.mp3')).toEqual({ location: 'Music/a%00b%E2%80%A8.mp3', path: 'Music/a%00b%E2%80%A8.mp3', malformed: false });
    expect(localOf('file:')).toEqual({ location: 'file:', path: '', malformed: false });
    expect(localOf('#fragment-only')).toEqual({ location: '#fragment-only', path: '#fragment-only', malformed: false });
  });

  it('gives a file: URI the path the SDK gives the M3U, PLS and WPL readers (their local_path)', () => {
    for (const uri of ['file:///home/u/a%20b.mp3', 'file://localhost/C:/x%20y/z.mp3', 'file://server/share/%C3%A9.mp3', 'file:///a.mp3#t=1', 'file:///bad%E9.mp3']) {
      const sdk = formatKit.classifyLocation(uri);
      expect(sdk.kind).toBe('local');
      expect(localOf(uri).path).toBe(sdk.kind === 'local' ? sdk.path : null);
    }
  });

  it('leaves web URLs, provider URIs and other URIs alone', () => {
    expect(classifyLocation('http://radio.example/a%20b.mp3')).toEqual({ kind: 'remote', url: 'http://radio.example/a%20b.mp3' });
    expect(classifyLocation('https://example.org/x?y=%20')).toEqual({ kind: 'remote', url: 'https://example.org/x?y=%20' });
    expect(classifyLocation('urn:isrc:USAAA0000001')).toEqual({ kind: 'other' });
    expect(classifyLocation('spotify:track:4uLU6hMCjMI75M1A2tKUQC')).toEqual({ kind: 'provider', provider: 'spotify', uri: 'spotify:track:4uLU6hMCjMI75M1A2tKUQC', item: 'track' });
    expect(classifyLocation('https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC?si=x')).toEqual({ kind: 'provider', provider: 'spotify', uri: 'spotify:track:4uLU6hMCjMI75M1A2tKUQC', item: 'track' });
    expect(classifyLocation('https://tidal.com/browse/track/77')).toEqual({ kind: 'provider', provider: 'tidal', uri: 'tidal:track:77', item: 'track' });
  });

  it('reads back every path our writer turns into a URI (property)', () => {
    // No control characters (kept as URIs, above) and no lone surrogates (written as U+FFFD); backslashes separate folders in a relative path.
    const unit = fc.oneof(fc.constantFrom('%', '#', '?', ':', ' ', '<', '&', '+', "'", '~', '.', 'é', '\u{1F3B5}', '\u00A0'), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }));
    // eslint-disable-next-line no-control-regex -- control characters are what is left out
    const name = fc.string({ unit, minLength: 1, maxLength: 20 }).filter((text) => !/[\u0000-\u001f\u007f\u0085\u2028\u2029/\\]/.test(text));
    fc.assert(
      fc.property(name, name, (folder, file) => {
        for (const path of [`/home/${folder}/${file}`, `//server/${folder}/${file}`, `C:/${folder}/${file}`, `../${folder}/${file}`, `Music/${folder}/${file}`]) {
          expect(localOf(locationUri(path))).toEqual(decoded(path));
        }
      }),
    );
  });
});
