import type { Track } from '@opl/plugin-sdk';
import { describe, expect, it } from 'vitest';
import { hanRenderings } from '../../../core/matching/han-readings.ts';
import { decideMatch } from '../../../core/matching/index.ts';
import { track } from './track.ts';

const decide = (source: Partial<Track> & { title: string; artist: string }, candidate: Partial<Track> & { title: string; artist: string }) =>
  decideMatch(track({ duration_s: 240, ...source }), [track({ id: 'c', duration_s: 241, ...candidate })], { targetProvider: 'deezer' });

describe('kanji and hanzi readings', () => {
  it('renders Japanese titles in romaji, and kana-free titles in pinyin too', () => {
    // Kana stay kana here; normalizeText romanizes them afterwards.
    expect(hanRenderings('世界に一つだけの花')).toEqual(['sekai に hitotsu だけの hana']);
    expect(hanRenderings('月亮代表我的心')).toContain('yue liang dai biao wo de xin');
    expect(hanRenderings('夢')).toEqual(['yume', 'meng']);
    expect(hanRenderings('Plain Latin')).toEqual([]);
  });

  it.each([
    ['a Japanese title with kana and kanji', { title: '夜に駆ける', artist: 'YOASOBI' }, { title: 'Yoru ni Kakeru', artist: 'YOASOBI' }],
    ['a one-kanji title', { title: '桜', artist: 'Kobukuro' }, { title: 'Sakura', artist: 'Kobukuro' }],
    ['a word read with its own sound change', { title: '紅蓮華', artist: 'LiSA' }, { title: 'Gurenge', artist: 'LiSA' }],
    ['a romaji title on the source side', { title: 'Sekai ni Hitotsu Dake no Hana', artist: 'SMAP' }, { title: '世界に一つだけの花', artist: 'SMAP' }],
  ])('accepts %s against its romanization when artist and length agree', (_label, source, candidate) => {
    expect(decide(source, candidate).decision).toBe('accept');
  });

  it('a Chinese title read as pinyin, by an artist written in hanzi against a Latin name: review, because the artist cannot be checked', () => {
    const d = decide({ title: '月亮代表我的心', artist: '邓丽君' }, { title: 'Yue Liang Dai Biao Wo De Xin', artist: 'Teresa Teng' });
    expect(d.decision).toBe('review');
    expect(d.ranked[0]!.breakdown.find((b) => b.signal === 'title_similarity')!.note).toMatch(/reading the kanji\/hanzi as "yue liang dai biao wo de xin"/u);
  });

  it('characters the table does not know leave the title neutral: length and album bring it to review, not to a reject', () => {
    const d = decide({ title: '麒麟児', artist: '某バンド', album: 'Kirinji' }, { title: 'Kirinji', artist: 'Bou Band', album: 'Kirinji' });
    expect(d.decision).toBe('review');
    expect(d.ranked[0]!.breakdown.find((b) => b.signal === 'title_similarity')!.note).toMatch(/cannot read: neutral/u);
  });

  it('a reading that disagrees is a different song, even by the same artist at the same length', () => {
    expect(decide({ title: '夢', artist: 'Aimer' }, { title: 'Hana', artist: 'Aimer' }).decision).toBe('reject');
  });

  it('another song in the same script is not rescued by the readings', () => {
    expect(decide({ title: '春', artist: 'Yorushika' }, { title: 'Natsu', artist: 'Yorushika' }).decision).toBe('reject');
  });
});
