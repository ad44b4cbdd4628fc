import { formatKit } from '@opl/plugin-sdk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { locationUri } from './location-uri.ts';
import { uriReferenceProblem } from './uri-reference.ts';

/** What a URI written for a path may hold: unreserved characters, escapes, `/` and (a drive's) `:`. */
const URI_CHARACTERS = /^[A-Za-z0-9\-._~%/:]*$/;

describe('locationUri: imported paths as the URIs XSPF <location> holds', () => {
  it.each([
    ['a Windows drive path', 'C:\\Music\\Artist\\Song.mp3', 'file:///C:/Music/Artist/Song.mp3'],
    ['a drive path with forward and mixed slashes', 'd:/Music\\Mixed/a.mp3', 'file:///d:/Music/Mixed/a.mp3'],
    ['a drive root', 'C:\\', 'file:///C:/'],
    ['a drive path with a space, #, % and ?', 'C:\\My Music\\#1 hits 100%?.mp3', 'file:///C:/My%20Music/%231%20hits%20100%25%3F.mp3'],
    ['non-ASCII as UTF-8 escapes', 'C:\\Musik\\Björk\\花 😀.flac', 'file:///C:/Musik/Bj%C3%B6rk/%E8%8A%B1%20%F0%9F%98%80.flac'],
    ['a UNC path', '\\\\server\\share\\a.mp3', 'file://server/share/a.mp3'],
    ['a UNC path written with slashes', '//nas/Music/a b.mp3', 'file://nas/Music/a%20b.mp3'],
    ['a long-path drive path', '\\\\?\\C:\\very\\long\\a.mp3', 'file:///C:/very/long/a.mp3'],
    ['a long-path UNC path', '\\\\?\\UNC\\server\\share\\a.mp3', 'file://server/share/a.mp3'],
    ['a POSIX absolute path', '/home/me/Music/a b.mp3', 'file:///home/me/Music/a%20b.mp3'],
    ['a backslash in a POSIX file name', '/home/me/AC\\DC.mp3', 'file:///home/me/AC%5CDC.mp3'],
    ['a Windows path on the current drive', '\\Music\\a.mp3', 'file:///Music/a.mp3'],
    ['a relative path', 'Music/a.mp3', 'Music/a.mp3'],
    ['a relative Windows path up one folder', '..\\a.mp3', '../a.mp3'],
    ['dot segments, kept as written', '.\\Music\\..\\..\\x y.mp3', './Music/../../x%20y.mp3'],
    ['a drive-relative path (its colon escaped, not a scheme)', 'C:a.mp3', 'C%3Aa.mp3'],
    ['a colon after a space (no scheme)', 'track 1: intro.mp3', 'track%201%3A%20intro.mp3'],
    ['the sub-delimiters and @', "it's (live) @ home! *+,;=$&.mp3", 'it%27s%20%28live%29%20%40%20home%21%20%2A%2B%2C%3B%3D%24%26.mp3'],
  ])('%s', (_name, path, uri) => {
    expect(locationUri(path)).toBe(uri);
  });

  it.each([
    'file:///C:/Music/a%20b.mp3',
    'FILE:///home/me/a.mp3',
    'file://server/share/a.mp3',
    'http://radio.example/stream.mp3?x=1&y=2#t',
    'spotify:track:4uLU6hMCjMI75M1A2tKUQC',
    'urn:isrc:USAAA0000001',
    'file:///C:/M%C3%BAsica/a.mp3',
    'http://[::1]:8000/a.mp3',
  ])('leaves a URI as it is: %s', (uri) => {
    expect(locationUri(uri)).toBe(uri);
  });

  it.each([
    ['https://example.org/a b.mp3', 'https://example.org/a%20b.mp3'],
    ['http://h/100% "live".mp3#t#2', 'http://h/100%25%20%22live%22.mp3#t%232'],
    ['http://h/a%20b{1}.mp3', 'http://h/a%20b%7B1%7D.mp3'],
    // A file URL with a space was written as a path: `#`, `?` and `%` are part of the name.
    ['file:///C:/My Music/#1 100%?.mp3', 'file:///C:/My%20Music/%231%20100%25%3F.mp3'],
    ['file:///home/u/été\\a.mp3', 'file:///home/u/%C3%A9t%C3%A9%5Ca.mp3'],
  ])('escapes what a URI cannot hold in one that has a scheme: %s', (text, uri) => {
    expect(locationUri(text)).toBe(uri);
    expect(uriReferenceProblem(uri)).toBeNull();
  });

  describe('hostile paths', () => {
    it('escapes < > & and quotes: nothing is left for XML to escape', () => {
      expect(locationUri('C:\\a<b>&c"d\'.mp3')).toBe('file:///C:/a%3Cb%3E%26c%22d%27.mp3');
      expect(locationUri('</location><injected/>')).toBe('%3C/location%3E%3Cinjected/%3E');
    });

    it('escapes control characters instead of dropping them', () => {
      expect(locationUri('/a\u0000b\u0007c\td\ne\rf\u007f\u0085.mp3')).toBe('file:///a%00b%07c%09d%0Ae%0Df%7F%C2%85.mp3');
    });

    it('writes a lone surrogate as U+FFFD (it has no UTF-8 form) and keeps a pair as one character', () => {
      expect(locationUri('/a\uD800b\uDC00c\uD83D\uDE00.mp3')).toBe('file:///a%EF%BF%BDb%EF%BF%BDc%F0%9F%98%80.mp3');
    });

    it('keeps .. segments (data, never resolved or opened)', () => {
      expect(locationUri('../../../../etc/passwd')).toBe('../../../../etc/passwd');
      expect(locationUri('C:\\Music\\..\\..\\Windows\\win.ini')).toBe('file:///C:/Music/../../Windows/win.ini');
      expect(locationUri('/home/me/../../etc/passwd')).toBe('file:///home/me/../../etc/passwd');
    });

    // A hang guard, not a speed check: quadratic work on this path would take far beyond the timeout.
    it('handles a very long path without a pathological slowdown', { timeout: 60_000 }, () => {
      const segment = `${'ä'.repeat(200)} x`;
      const path = `C:\\${Array.from({ length: 500 }, () => segment).join('\\')}.mp3`;
      const uri = locationUri(path);
      expect(uri.startsWith('file:///C:/%C3%A4%C3%A4')).toBe(true);
      // 200 ä (6 characters each) and " x" (4) per segment, 500 segments and slashes.
      expect(uri.length).toBe('file:///C:'.length + 500 * (1 + 200 * 6 + 4) + '.mp3'.length);
      expect(formatKit.fileUrlPath(uri)).toBe(path.replaceAll('\\', '/'));
    });

    it('turns an empty string into an empty relative reference, and odd separators into empty segments', () => {
      expect(locationUri('')).toBe('');
      expect(locationUri('\\\\')).toBe('file://');
      expect(locationUri('C:\\Music\\\\a.mp3')).toBe('file:///C:/Music//a.mp3');
    });
  });

  it('writes only URI characters for a path, which the SDK decodes back (as the readers of M3U, PLS and WPL do)', () => {
    for (const path of ['C:\\My Music\\#1 hits 100%?.mp3', 'C:\\Musik\\Björk\\花 😀.flac', '\\\\server\\share\\a b.mp3', '/home/me/Music/a b.mp3', '/x/<&>\u0007.mp3']) {
      const uri = locationUri(path);
      expect(uri).toMatch(URI_CHARACTERS);
      expect(formatKit.classifyLocation(uri).kind).toBe('local');
    }
    expect(formatKit.fileUrlPath(locationUri('C:\\My Music\\#1 hits 100%?.mp3'))).toBe('C:/My Music/#1 hits 100%?.mp3');
    expect(formatKit.fileUrlPath(locationUri('\\\\server\\share\\a b.mp3'))).toBe('//server/share/a b.mp3');
    expect(formatKit.fileUrlPath(locationUri('/home/me/Music/a b.mp3'))).toBe('/home/me/Music/a b.mp3');
  });

  it('percent-decodes back to any file name (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 30 }), fc.string({ unit: fc.constantFrom('%', '#', '?', ':', ' ', '<', '&', '\u0000', '\u00e9', '\u{1F3B5}', 'a', '+', "'", '~'), maxLength: 10 }), (a, b) => {
        const name = `${a}${b}`.replace(/[\\/]/g, '_');
        const uri = locationUri(`/music/${name}`);
        expect(uri).toMatch(URI_CHARACTERS);
        expect(decodeURIComponent(uri.slice('file:///music/'.length))).toBe(name);
      }),
    );
  });
});
