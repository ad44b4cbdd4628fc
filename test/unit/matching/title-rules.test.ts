import type { Track } from '@opl/plugin-sdk';
import { describe, expect, it } from 'vitest';
import { decideMatch } from '../../../core/matching/index.ts';
import { track } from './track.ts';

const decide = (source: Partial<Track> & { title: string; artist: string }, ...candidates: (Partial<Track> & { title: string; artist: string })[]) =>
  decideMatch(
    track({ duration_s: 240, ...source }),
    candidates.map((c, i) => track({ id: `c${i}`, duration_s: 240, ...c })),
    { targetProvider: 'tidal' },
  );

describe('a longer title is another song until shown otherwise', () => {
  it.each([
    ['a part 2', 'Gravity, Pt. 2'],
    ['a roman-numeral sequel (loose spelling must not fold "II" away)', 'Gravity II'],
    ['an extra word', 'Gravity Forever'],
  ])('%s is not auto-accepted, and the reason names the extra words', (_label, title) => {
    const d = decide({ title: 'Gravity', artist: 'Northern Lights' }, { title, artist: 'Northern Lights' });
    expect(d.decision).not.toBe('accept');
    expect(d.reason).toMatch(/words the other lacks/u);
  });

  it('one string spelled apart is still the same title', () => {
    expect(decide({ title: 'Hello World', artist: 'Sunny Day' }, { title: 'HelloWorld', artist: 'Sunny Day' }).decision).toBe('accept');
  });

  it('the same recording code (ISRC) outweighs an extra word', () => {
    expect(decide({ title: 'Gravity', artist: 'Northern Lights', isrc: 'QZAAA2400001' }, { title: 'Gravity Forever', artist: 'Northern Lights', isrc: 'QZAAA2400001' }).decision).toBe('accept');
  });
});

describe('versions hidden in credits and short pieces', () => {
  it('"with Orchestra" is an orchestral version, not only a credit', () => {
    const d = decide({ title: 'Cathedral of Noise', artist: 'Static Saints' }, { title: 'Cathedral of Noise (with the City Symphony Orchestra)', artist: 'Static Saints' });
    expect(d.decision).not.toBe('accept');
    expect(d.ranked[0]!.penalties.map((p) => p.signal)).toContain('version_mismatch:version');
  });

  it('"with" a person stays a featured credit', () => {
    expect(decide({ title: 'Honey', artist: 'Delphine Rue, Marco Vetti', artists: ['Delphine Rue', 'Marco Vetti'] }, { title: 'Honey (with Marco Vetti)', artist: 'Delphine Rue' }).decision).toBe('accept');
  });

  it('an interlude or intro is not the song', () => {
    expect(decide({ title: 'Amber', artist: 'Mosi', duration_s: null }, { title: 'Amber (Interlude)', artist: 'Mosi', duration_s: 70 }).decision).not.toBe('accept');
    expect(decide({ title: 'Remind Me (Intro)', artist: 'Eminem', duration_s: 27 }, { title: 'Remind Me (Intro)', artist: 'Eminem', duration_s: 28 }).decision).toBe('accept');
  });

  it('pairs version tags one by one: an extra "Japanese Ver." on top of the same interlude is another version', () => {
    const d = decide({ title: 'Revival (Interlude)', artist: 'Eminem', duration_s: 52 }, { title: 'Revival (Interlude) (Japanese Ver.)', artist: 'Eminem', duration_s: 53 });
    expect(d.decision).not.toBe('accept');
  });
});

describe('scripts the engine cannot fully read ask instead of rejecting', () => {
  it('a katakana loanword title against its English spelling, artist also in katakana: read as loanwords and accepted', () => {
    const d = decide({ title: '東京ナイトライン', artist: 'シティ・ネオン', album: '東京ナイトライン' }, { title: 'Tokyo Night Line', artist: 'City Neon', album: '東京ナイトライン' });
    expect(d.ranked[0]!.breakdown.find((b) => b.signal === 'artist_overlap')!.value).toBe(1);
    expect(d.decision).toBe('accept');
  });

  it('a katakana loanword does not make another Latin artist with the same consonants the same artist', () => {
    // 青空ライン "aozora rain": "Aozora Line" is it, "Azure Rain" is another band whose consonants also run z-r-n.
    const d = decide({ title: '夜明けのメロディー', artist: '青空ライン' }, { title: 'Yoake no Melody', artist: 'Azure Rain' });
    expect(d.decision).not.toBe('accept');
    expect(decide({ title: '夜明けのメロディー', artist: '青空ライン' }, { title: 'Yoake no Melody', artist: 'Aozora Line' }).decision).toBe('accept');
  });

  it('a Hangul artist meets a romanization with other vowels and spacing; a different name does not', () => {
    const d = decide({ title: '봄날의 기억', artist: '한별' }, { title: 'Bomnarui Gieok', artist: 'Han Byul' });
    expect(d.ranked[0]!.breakdown.find((b) => b.signal === 'artist_overlap')!.value).toBe(1);
    expect(d.decision).toBe('accept');
    expect(decide({ title: '봄날의 기억', artist: '한별' }, { title: 'Bomnarui Gieok', artist: 'Han Bora' }).decision).not.toBe('accept');
  });

  it('the same title in Hangul by another, Latin-named artist is not accepted', () => {
    const d = decide({ title: '봄날의 기억', artist: '한별' }, { title: 'Bomnarui Gieok', artist: 'Hugo Marchand' });
    expect(d.decision).not.toBe('accept');
  });

  it('an Arabic-script artist meets its Latin spelling on the consonants (short vowels are not written)', () => {
    const d = decide({ title: 'يا حبيبي', artist: 'ليلى حداد' }, { title: 'Ya Habibi', artist: 'Layla Haddad' });
    expect(d.ranked[0]!.breakdown.find((b) => b.signal === 'artist_overlap')!.value).toBe(1);
    expect(d.decision).toBe('accept');
    expect(decide({ title: 'يا حبيبي', artist: 'ليلى حداد' }, { title: 'Ya Habibi', artist: 'Leila Hamdan' }).decision).not.toBe('accept');
  });

  it('an artist written in kanji meets the romanized name through common family names, in either order', () => {
    const d = decide({ title: 'ひこうき雲の向こう', artist: '高橋ゆい' }, { title: 'Hikoukigumo no Mukou', artist: 'Yui Takahashi' });
    expect(d.ranked[0]!.breakdown.find((b) => b.signal === 'artist_overlap')!.value).toBe(1);
  });
});
