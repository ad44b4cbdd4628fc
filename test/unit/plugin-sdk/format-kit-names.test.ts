import { describe, expect, it } from 'vitest';
import { splitArtistTitle } from '../../../plugin-sdk/src/format-kit/artist-title.ts';
import { playlistNameFromFilename } from '../../../plugin-sdk/src/format-kit/playlist-name.ts';

describe('splitArtistTitle', () => {
  it('splits only on a dash with spaces around it', () => {
    expect(splitArtistTitle('Jay-Z - 99 Problems')).toEqual({ artist: 'Jay-Z', title: '99 Problems' });
    expect(splitArtistTitle('Artist -Title')).toEqual({ artist: '', title: 'Artist -Title' });
  });
});

describe('playlistNameFromFilename', () => {
  it('names the playlist after the file', () => {
    expect(playlistNameFromFilename('/tmp/uploads/My.Mix.txt')).toBe('My.Mix');
    expect(playlistNameFromFilename('.txt')).toBe('.txt');
    expect(playlistNameFromFilename('')).toBe('Imported playlist');
    expect(playlistNameFromFilename(null)).toBe('Imported playlist');
  });
});
