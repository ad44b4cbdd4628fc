import { describe, expect, it } from 'vitest';
import { chooseTracks, matchingTracks } from '../../../ui/src/components/migrate-page/selection-step/track-filter.ts';

const tracks = [
  { title: 'Halo', artist: 'Beyoncé', album: 'I Am... Sasha Fierce' },
  { title: 'Ace of Spades', artist: 'Motörhead', album: null },
  { title: 'Crazy in Love', artist: 'Beyoncé', album: 'Dangerously in Love' },
  { title: 'One More Time', artist: 'Daft Punk', album: 'Discovery' },
];

describe('finding tracks in a long playlist', () => {
  it('matches every word in title, artist or album, ignoring case and accents', () => {
    expect(matchingTracks(tracks, 'beyonce')).toEqual([0, 2]);
    expect(matchingTracks(tracks, 'LOVE beyoncé')).toEqual([2]);
    expect(matchingTracks(tracks, 'motorhead spades')).toEqual([1]);
    expect(matchingTracks(tracks, 'discovery')).toEqual([3]);
    expect(matchingTracks(tracks, 'nothing like this')).toEqual([]);
  });

  it('a blank query keeps every track', () => {
    expect(matchingTracks(tracks, '   ')).toEqual([0, 1, 2, 3]);
  });

  it('searches 10,000 tracks', () => {
    const many = Array.from({ length: 10_000 }, (_, index) => ({ title: `Song ${index}`, artist: 'Band', album: null }));
    expect(matchingTracks(many, 'song 9999')).toEqual([9999]);
    expect(matchingTracks(many, 'song 4242')).toEqual([4242]);
    expect(matchingTracks(many, '')).toHaveLength(10_000);
  });
});

describe('ticking tracks', () => {
  const all = ['pos:0', 'pos:1', 'pos:2', 'pos:3'];

  it('ticks or unticks several at once and keeps the playlist order', () => {
    expect(chooseTracks(all, new Set(['pos:3']), ['pos:2', 'pos:0'], true)).toEqual(['pos:0', 'pos:2', 'pos:3']);
    expect(chooseTracks(all, new Set(all), ['pos:1', 'pos:2'], false)).toEqual(['pos:0', 'pos:3']);
    expect(chooseTracks(all, new Set(), [], true)).toEqual([]);
  });
});
