import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitArtistTitle, type SplitOptions } from '../../../plugin-sdk/src/format-kit/artist-title.ts';
import { playlistNameFromFilename } from '../../../plugin-sdk/src/format-kit/playlist-name.ts';

const split = (text: string, options?: SplitOptions) => {
  const { artist, title, trackNumber } = splitArtistTitle(text, options);
  return [artist, title, trackNumber];
};

describe('splitArtistTitle', () => {
  it('splits only on a dash with spaces around it', () => {
    expect(splitArtistTitle('Jay-Z - 99 Problems')).toEqual({ artist: 'Jay-Z', title: '99 Problems', trackNumber: null });
    expect(splitArtistTitle('Artist -Title')).toEqual({ artist: '', title: 'Artist -Title', trackNumber: null });
  });

  it('splits on the first spaced dash only', () => {
    expect(splitArtistTitle('AC-DC - Back In Black - Live')).toEqual({ artist: 'AC-DC', title: 'Back In Black - Live', trackNumber: null });
    expect(splitArtistTitle('Björk – Jóga')).toEqual({ artist: 'Björk', title: 'Jóga', trackNumber: null });
    expect(splitArtistTitle('Jay-Z')).toEqual({ artist: '', title: 'Jay-Z', trackNumber: null });
  });

  it('reads list numbers and bullets as numbering, not as the artist', () => {
    expect(split('1. Queen - Bohemian Rhapsody')).toEqual(['Queen', 'Bohemian Rhapsody', 1]);
    expect(split('2) Queen - Under Pressure')).toEqual(['Queen', 'Under Pressure', 2]);
    expect(split('03. Queen - Radio Ga Ga')).toEqual(['Queen', 'Radio Ga Ga', 3]);
    expect(split('  12)  Sigur Rós – Hoppípolla ')).toEqual(['Sigur Rós', 'Hoppípolla', 12]);
    expect(split('4. 1979')).toEqual(['', '1979', 4]);
    expect(split('- Queen - Somebody to Love')).toEqual(['Queen', 'Somebody to Love', null]);
    expect(split('* Queen - Somebody to Love')).toEqual(['Queen', 'Somebody to Love', null]);
    expect(split('• Queen - Somebody to Love')).toEqual(['Queen', 'Somebody to Love', null]);
    expect(split(' - Only Title')).toEqual(['', 'Only Title', null]);
  });

  it('reads a one- or two-digit or zero-padded number before a spaced dash as the track number', () => {
    expect(split('01 - One More Time')).toEqual(['', 'One More Time', 1]);
    expect(split('03 - Daft Punk - Digital Love')).toEqual(['Daft Punk', 'Digital Love', 3]);
    expect(split('7 – Seven Nation Army')).toEqual(['', 'Seven Nation Army', 7]);
    expect(split('12 - Daft Punk - Too Long')).toEqual(['Daft Punk', 'Too Long', 12]);
    expect(split('007 - Theme')).toEqual(['', 'Theme', 7]);
    expect(split('Daft Punk - 02 - Aerodynamic')).toEqual(['Daft Punk', 'Aerodynamic', 2]);
  });

  it('keeps artists that are or start with numbers', () => {
    expect(split('311 - Amber')).toEqual(['311', 'Amber', null]);
    expect(split('311 - Amber - Live')).toEqual(['311', 'Amber - Live', null]);
    expect(split('1975 - Chocolate')).toEqual(['1975', 'Chocolate', null]);
    expect(split('1349 - Atomic Chapel')).toEqual(['1349', 'Atomic Chapel', null]);
    expect(split('50 Cent - In Da Club')).toEqual(['50 Cent', 'In Da Club', null]);
    expect(split('2Pac - Changes')).toEqual(['2Pac', 'Changes', null]);
    expect(split("10cc - I'm Not in Love")).toEqual(['10cc', "I'm Not in Love", null]);
    expect(split('The 1975 - Somebody Else')).toEqual(['The 1975', 'Somebody Else', null]);
    expect(split('3 Doors Down - Kryptonite')).toEqual(['3 Doors Down', 'Kryptonite', null]);
    expect(split('Blink-182 - All the Small Things')).toEqual(['Blink-182', 'All the Small Things', null]);
    expect(split('99 Luftballons')).toEqual(['', '99 Luftballons', null]);
    expect(split('1.5 Degrees - Title')).toEqual(['1.5 Degrees', 'Title', null]);
    expect(split('*NSYNC - Bye Bye Bye')).toEqual(['*NSYNC', 'Bye Bye Bye', null]);
  });

  it('reads the numbering rippers write in file names', () => {
    const file = { fileName: true };
    expect(split('03 - Digital Love', file)).toEqual(['', 'Digital Love', 3]);
    expect(split('04 Harder Better', file)).toEqual(['', 'Harder Better', 4]);
    expect(split('12 Harbour Lights', file)).toEqual(['', 'Harbour Lights', 12]);
    expect(split('01 Daft Punk - One More Time', file)).toEqual(['Daft Punk', 'One More Time', 1]);
    expect(split('07-Jóga', file)).toEqual(['', 'Jóga', 7]);
    expect(split('07.Jóga', file)).toEqual(['', 'Jóga', 7]);
    expect(split('07_Jóga', file)).toEqual(['', 'Jóga', 7]);
    expect(split('50 Cent - In Da Club', file)).toEqual(['50 Cent', 'In Da Club', null]);
    expect(split('10 Years - Wasteland', file)).toEqual(['10 Years', 'Wasteland', null]);
    expect(split('3 Doors Down - Kryptonite', file)).toEqual(['3 Doors Down', 'Kryptonite', null]);
    expect(split('311 - Amber', file)).toEqual(['311', 'Amber', null]);
    expect(split('2046', file)).toEqual(['', '2046', null]);
    expect(split('10-4 Good Buddy', file)).toEqual(['', '10-4 Good Buddy', null]);
    expect(split('Track01', file)).toEqual(['', 'Track01', null]);
    // Outside file names, `NN Title` is text as written.
    expect(split('21 Guns')).toEqual(['', '21 Guns', null]);
  });

  it('splits where the regular expression /\\s+[-–—]\\s+/ would (property), in one pass over long runs of spaces', () => {
    const unit = fc.constantFrom('a', '1', ' ', '\t', '\u00a0', '-', '\u2013', '\u2014', '.', ')', '*');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 16 }), (text) => {
        const trimmed = text.trim();
        const match = /\s+[-\u2013\u2014]\s+/.exec(trimmed);
        const expected = match === null ? { artist: '', title: trimmed } : { artist: trimmed.slice(0, match.index).trim(), title: trimmed.slice(match.index + match[0].length).trim() };
        expect(splitArtistTitle(text, { exact: true })).toEqual({ ...expected, trackNumber: null });
      }),
      { numRuns: 2_000 },
    );
    const spaces = ' '.repeat(1_000_000);
    expect(split(`a${spaces}b`)).toEqual(['', `a${spaces}b`, null]);
    expect(split(`a${spaces}- b`)).toEqual(['a', 'b', null]);
    expect(split(`01${spaces}x`, { fileName: true })).toEqual(['', 'x', 1]);
  });

  it('reads exactly what a writer joined with exact: true', () => {
    for (const text of ['01 - One More Time', '1. Intro', '- Dash', 'Daft Punk - 02 - Aerodynamic']) {
      const plain = text.indexOf(' - ', 1);
      expect(split(text, { exact: true })).toEqual(plain === -1 ? ['', text, null] : [text.slice(0, plain), text.slice(plain + 3), null]);
    }
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
