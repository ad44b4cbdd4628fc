import { describe, expect, it } from 'vitest';
import { escapeValue, unescapeValue } from './directive-escape.ts';
import { parseExtinf } from './extinf.ts';
import { classifyLocation, playableLocation } from './locations.ts';
import { countCodec, integerCodec } from './values.ts';

describe('directive escaping', () => {
  it('round-trips every line-breaking character and backslash sequences', () => {
    for (const value of ['a\nb', 'a\r\nb', '\\n', '\\\\n', 'x\u2028y\u2029z\u0085\v\f', '\\u2028', 'C:\\Music\\new.mp3', '']) {
      const escaped = escapeValue(value);
      expect(escaped).not.toMatch(/[\n\r\v\f\u0085\u2028\u2029]/);
      expect(unescapeValue(escaped)).toBe(value);
    }
  });

  it('keeps unknown escapes as written', () => {
    expect(unescapeValue('a\\tb\\u12')).toBe('a\\tb\\u12');
  });
});

describe('whole-number directives', () => {
  it('read back every safe integer written, and refuse larger ones by name', () => {
    for (const value of [Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, -1e15, 0]) expect(integerCodec.read(integerCodec.write(value))).toEqual({ value });
    expect(countCodec.read(countCodec.write(Number.MAX_SAFE_INTEGER))).toEqual({ value: Number.MAX_SAFE_INTEGER });
    expect(integerCodec.read('9007199254740992').problem).toContain('larger than 9007199254740991');
    expect(countCodec.read('-1').problem).toBe('is not a count');
    expect(integerCodec.read('12345678901234567').problem).toBe('is not a whole number');
  });
});

describe('#EXTINF', () => {
  it('reads durations, attributes and display text', () => {
    expect(parseExtinf('123,Artist - Title')).toEqual({ duration: 123, lengthUnknown: false, attributes: {}, display: 'Artist - Title', problem: null });
    expect(parseExtinf('12.5 a=b c="d, e",T')).toEqual({ duration: 12.5, lengthUnknown: false, attributes: { a: 'b', c: 'd, e' }, display: 'T', problem: null });
    expect(parseExtinf('-1,')).toMatchObject({ duration: null, lengthUnknown: true, display: '', problem: null });
    expect(parseExtinf('0,Silence')).toMatchObject({ duration: 0, lengthUnknown: false });
    // An unreadable duration says nothing about the length.
    expect(parseExtinf('abc,T')).toMatchObject({ duration: null, lengthUnknown: false });
  });

  it('describes malformed lines and returns what it could read', () => {
    expect(parseExtinf('abc,T')).toMatchObject({ duration: null, display: 'T', problem: expect.stringContaining('not a number') as unknown });
    expect(parseExtinf('10')).toMatchObject({ duration: 10, display: '', problem: expect.stringContaining('comma') as unknown });
    expect(parseExtinf('10 a="b,T')).toMatchObject({ problem: expect.stringContaining('quote') as unknown });
    expect(parseExtinf(',T').problem).toContain('missing');
  });
});

describe('locations', () => {
  it('reads what the SDK leaves to the format as a path', () => {
    expect(classifyLocation('urn:x:y')).toEqual({ kind: 'local', path: 'urn:x:y' });
    expect(classifyLocation('C:song.mp3')).toEqual({ kind: 'local', path: 'C:song.mp3' });
    expect(classifyLocation('https://tidal.com/track/5/')).toEqual({ kind: 'provider', provider: 'tidal', uri: 'tidal:track:5', item: 'track' });
    expect(classifyLocation('intro:demo.mp3')).toEqual({ kind: 'local', path: 'intro:demo.mp3' });
    expect(classifyLocation('deezer:track:3')).toEqual({ kind: 'provider', provider: 'deezer', uri: 'deezer:track:3', item: 'track' });
  });

  it('keeps an unescaped # in a file: URL as part of the file name', () => {
    expect(classifyLocation('file:///C:/Music/Track #1.mp3')).toEqual({ kind: 'local', path: 'C:/Music/Track #1.mp3' });
    expect(classifyLocation('file:///home/me/Mix%20%232/What?.ogg')).toEqual({ kind: 'local', path: '/home/me/Mix #2/What?.ogg' });
  });


  it('picks the playable location', () => {
    expect(playableLocation({ deezer: 'deezer:track:1', yt: 'https://youtu.be/x' }, {}, null)).toBe('https://youtu.be/x');
    expect(playableLocation({}, { location: '#not-a-location' }, null)).toBeNull();
    expect(playableLocation({}, { location: ' padded' }, null)).toBeNull();
    expect(playableLocation({}, { location: 'song.mp3' }, null)).toBe('song.mp3');
  });
});
