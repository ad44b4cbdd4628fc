import { describe, expect, it } from 'vitest';
import { splitArtistTitle } from '../../../plugin-sdk/src/format-kit/artist-title.ts';
import { playlistNameFromFilename } from '../../../plugin-sdk/src/format-kit/playlist-name.ts';

describe('splitArtistTitle', () => {
  it('splits only on a dash with spaces around it', () => {
    expect(splitArtistTitle('Jay-Z - 99 Problems')).toEqual({ artist: 'Jay-Z', title: '99 Problems' });
    expect(splitArtistTitle('Artist -Title')).toEqual({ artist: '', title: 'Artist -Title' });
  });

  it('splits on the first spaced dash only', () => {
    expect(splitArtistTitle('AC-DC - Back In Black - Live')).toEqual({ artist: 'AC-DC', title: 'Back In Black - Live' });
    expect(splitArtistTitle('Björk – Jóga')).toEqual({ artist: 'Björk', title: 'Jóga' });
    expect(splitArtistTitle('Jay-Z')).toEqual({ artist: '', title: 'Jay-Z' });
  });
});

describe('playlistNameFromFilename', () => {
  it('names the playlist after the file', () => {
    expect(playlistNameFromFilename('/tmp/uploads/My.Mix.txt')).toBe('My.Mix');
    expect(playlistNameFromFilename('.txt')).toBe('.txt');
    expect(playlistNameFromFilename('')).toBe('Imported playlist');
    expect(playlistNameFromFilename(null)).toBe('Imported playlist');
  });

  it('takes the last segment of either slash style, keeps # and ?, drops control characters, bounds the length', () => {
    expect(playlistNameFromFilename('C:\\Users\\me\\Mix #2.m3u')).toBe('Mix #2');
    expect(playlistNameFromFilename('a\u0000b\tc.pls')).toBe('a b c');
    expect(playlistNameFromFilename('x'.repeat(1_500) + '.txt')).toHaveLength(1_000);
  });

  it('uses the given fallback', () => {
    expect(playlistNameFromFilename(null, 'XSPF playlist')).toBe('XSPF playlist');
    expect(playlistNameFromFilename(' .xspf', 'XSPF playlist')).toBe('XSPF playlist');
  });
});
