import { describe, expect, it } from 'vitest';
import { chunkLines } from './chunks.ts';
import { escapeValue, unescapeValue } from './directive-escape.ts';
import { parseExtinf, splitDisplay } from './extinf.ts';
import { classifyLocation, fileStem, playableLocation, webUrlOf } from './locations.ts';

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

describe('#EXTINF', () => {
  it('reads durations, attributes and display text', () => {
    expect(parseExtinf('123,Artist - Title')).toEqual({ duration: 123, attributes: {}, display: 'Artist - Title', problem: null });
    expect(parseExtinf('12.5 a=b c="d, e",T')).toEqual({ duration: 12.5, attributes: { a: 'b', c: 'd, e' }, display: 'T', problem: null });
    expect(parseExtinf('-1,')).toMatchObject({ duration: null, display: '', problem: null });
  });

  it('describes malformed lines and returns what it could read', () => {
    expect(parseExtinf('abc,T')).toMatchObject({ duration: null, display: 'T', problem: expect.stringContaining('not a number') as unknown });
    expect(parseExtinf('10')).toMatchObject({ duration: 10, display: '', problem: expect.stringContaining('comma') as unknown });
    expect(parseExtinf('10 a="b,T')).toMatchObject({ problem: expect.stringContaining('quote') as unknown });
    expect(parseExtinf(',T').problem).toContain('missing');
  });

  it('splits on the first spaced dash only', () => {
    expect(splitDisplay('AC-DC - Back In Black - Live')).toEqual({ artist: 'AC-DC', title: 'Back In Black - Live' });
    expect(splitDisplay('Björk – Jóga')).toEqual({ artist: 'Björk', title: 'Jóga' });
    expect(splitDisplay('Jay-Z')).toEqual({ artist: '', title: 'Jay-Z' });
  });
});

describe('locations', () => {
  it('classifies what a location line names', () => {
    expect(classifyLocation('https://open.spotify.com/track/abc?si=1')).toEqual({ kind: 'provider', provider: 'spotify', uri: 'spotify:track:abc' });
    expect(classifyLocation('https://open.spotify.com/album/abc')).toEqual({ kind: 'remote', url: 'https://open.spotify.com/album/abc' });
    expect(classifyLocation('https://tidal.com/track/5/')).toEqual({ kind: 'provider', provider: 'tidal', uri: 'tidal:track:5' });
    expect(classifyLocation('rtsp://radio.example/live')).toEqual({ kind: 'remote', url: 'rtsp://radio.example/live' });
    expect(classifyLocation('C:\\a.mp3')).toEqual({ kind: 'local', path: 'C:\\a.mp3' });
    expect(classifyLocation('c:/a.mp3')).toEqual({ kind: 'local', path: 'c:/a.mp3' });
    expect(classifyLocation('file://localhost/etc/a%2.mp3')).toEqual({ kind: 'local', path: '/etc/a%2.mp3' });
    expect(classifyLocation('file://nas/share/a.mp3')).toEqual({ kind: 'local', path: '//nas/share/a.mp3' });
    expect(classifyLocation('deezer:track:1')).toEqual({ kind: 'provider', provider: 'deezer', uri: 'deezer:track:1' });
  });

  it('names files by their last segment', () => {
    expect(fileStem('\\\\srv\\x\\A - B.flac')).toBe('A - B');
    expect(fileStem('http://h/x/song.mp3?q=1')).toBe('song');
    expect(fileStem('.hidden')).toBe('.hidden');
  });

  it('picks the playable location', () => {
    expect(webUrlOf('spotify:track:a b')).toBeNull();
    expect(playableLocation({ deezer: 'deezer:track:1', yt: 'https://youtu.be/x' }, {}, null)).toBe('https://youtu.be/x');
    expect(playableLocation({}, { location: '#not-a-location' }, null)).toBeNull();
    expect(playableLocation({}, { location: ' padded' }, null)).toBeNull();
    expect(playableLocation({}, { location: 'song.mp3' }, null)).toBe('song.mp3');
  });
});

describe('chunks', () => {
  it('never splits a surrogate pair and keeps every character', () => {
    const lines = ['ab', '🎵'.repeat(10), 'c'];
    const chunks = [...chunkLines(lines, 5)];
    expect(chunks.join('')).toBe(lines.join(''));
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(5);
      expect(chunk).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
    }
  });
});
