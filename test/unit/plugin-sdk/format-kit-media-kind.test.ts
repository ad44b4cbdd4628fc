import { describe, expect, it } from 'vitest';
import { ordinalNumber, yearNumber } from '../../../plugin-sdk/src/format-kit/field-values.ts';
import { unsupportedKind } from '../../../plugin-sdk/src/format-kit/media-kind.ts';

describe('unsupportedKind (a track table Kind column)', () => {
  it('takes every audio file kind for a song', () => {
    for (const kind of ['', 'MPEG audio file', 'AAC audio file', 'Apple Music AAC audio file', 'Matched AAC audio file', 'Purchased AAC audio file', 'Apple Lossless audio file', 'WAV audio file', 'MPEG-Audiodatei']) {
      expect(unsupportedKind(kind)).toBeNull();
    }
  });

  it('names podcasts, audiobooks, videos, streams and documents, in English and German', () => {
    expect(['Podcast', 'Audible Enhanced Audiobook', 'Hörbuch', 'Gekaufte MPEG-4-Videodatei', 'QuickTime-Film', 'Internet audio stream', 'PDF-Dokument'].map((kind) => unsupportedKind(kind)?.mediaType)).toEqual([
      'episode',
      'unknown',
      'unknown',
      'video',
      'video',
      'unknown',
      'unknown',
    ]);
  });
});

describe('track and disc numbers, years', () => {
  it('reads 3 and 3/12, empty for 0, and says what a bad value is', () => {
    expect([ordinalNumber('3', 'track number'), ordinalNumber(' 3 / 12 ', 'track number'), ordinalNumber('0', 'disc number')]).toEqual([{ value: 3 }, { value: 3 }, { value: null }]);
    expect(ordinalNumber('A1', 'track number').problem).toBe('track number "A1" is not a number such as 3 or 3/12');
    expect([yearNumber('1997', 'year'), yearNumber('0', 'year'), yearNumber('', 'year')]).toEqual([{ value: 1997 }, { value: null }, { value: null }]);
    expect(yearNumber('97', 'year').problem).toContain('four-digit year');
  });
});
