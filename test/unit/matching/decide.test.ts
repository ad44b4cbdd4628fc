import type { Track } from '@opl/plugin-sdk';
import { describe, expect, it } from 'vitest';
import { decideMatch, durationValue, type MatchOptions } from '../../../core/matching/index.ts';
import { track } from './track.ts';

const opts: MatchOptions = { targetProvider: 'deezer' };
const queen = track({ title: 'Bohemian Rhapsody', artist: 'Queen', artists: ['Queen'], album: 'A Night at the Opera', duration_s: 354 });
const cand = (id: string, fields: Partial<Track> & { title: string; artist: string }): Track => track({ id, ...fields });
const score = (source: Track, candidate: Track, o: MatchOptions = opts): number => decideMatch(source, [candidate], o).ranked[0]!.score;

describe('hard negatives are never auto-accepted', () => {
  it.each([
    ['a remix for the original', 'Bohemian Rhapsody (Freddie Remix)', 'Queen', 356],
    ['a live version for the studio one', 'Bohemian Rhapsody - Live at Wembley 1986', 'Queen', 358],
    ['a karaoke track', 'Bohemian Rhapsody (Karaoke Version)', 'Karaoke Hits Band', 354],
    ['a karaoke track credited to the artist', 'Bohemian Rhapsody (Originally Performed by Queen)', 'Queen', 354],
    ['a cover', 'Bohemian Rhapsody (Queen Cover)', 'Some Band', 354],
    ['a tribute act', 'Bohemian Rhapsody', 'Queen Tribute Players', 354],
    ['the same title by another artist', 'Bohemian Rhapsody', 'The Braids', 354],
    ['a sped-up edit', 'Bohemian Rhapsody (Sped Up)', 'Queen', 290],
    ['a slowed edit', 'Bohemian Rhapsody (Slowed + Reverb)', 'Queen', 400],
    ['an acoustic version', 'Bohemian Rhapsody (Acoustic)', 'Queen', 354],
    ['an instrumental', 'Bohemian Rhapsody - Instrumental', 'Queen', 354],
    ['another song by the artist', 'Killer Queen', 'Queen', 180],
    ['an 8D edit', 'Bohemian Rhapsody (8D Audio)', 'Queen', 354],
    ['an alternate take', 'Bohemian Rhapsody (Take 2)', 'Queen', 354],
    ['a reprise', 'Bohemian Rhapsody (Reprise)', 'Queen', 354],
  ])('%s', (_label, title, artist, duration) => {
    const d = decideMatch(queen, [cand('x', { title, artist, artists: [artist], duration_s: duration })], opts);
    expect(d.decision).not.toBe('accept');
    expect(d.ranked[0]!.reason).toMatch(/\.$/u);
  });

  it('asks when the title only partly matches, even with no duration to contradict it', () => {
    const src = track({ title: 'Love', artist: 'Kendrick Lamar' });
    const d = decideMatch(src, [cand('x', { title: 'Love Me', artist: 'Kendrick Lamar' })], opts);
    expect(d.decision).toBe('review');
    expect(d.reason).toMatch(/partly/u);
  });

  it('rejects karaoke even as the only candidate, and says why', () => {
    const d = decideMatch(queen, [cand('k', { title: 'Bohemian Rhapsody (Karaoke Version)', artist: 'Sing2Music', duration_s: 354 })], opts);
    expect(d.decision).toBe('reject');
    expect(d.ranked[0]!.penalties.map((p) => p.signal)).toContain('version_mismatch:karaoke');
  });

  it('picks the original over a remix, a live version and a karaoke track', () => {
    const d = decideMatch(queen, [
      cand('remix', { title: 'Bohemian Rhapsody (Some Remix)', artist: 'Queen', duration_s: 354 }),
      cand('live', { title: 'Bohemian Rhapsody', artist: 'Queen', album: 'Live at Wembley', duration_s: 360 }),
      cand('karaoke', { title: 'Bohemian Rhapsody (Karaoke)', artist: 'Karaoke Hits', duration_s: 354 }),
      cand('orig', { title: 'Bohemian Rhapsody - Remastered 2011', artist: 'Queen', album: 'A Night at the Opera', duration_s: 355 }),
    ], opts);
    expect(d).toMatchObject({ decision: 'accept', chosen: 'orig' });
    expect(d.ranked.map((r) => r.id)[0]).toBe('orig');
  });

  it('tells two remixes by different remixers apart', () => {
    const src = track({ title: 'Titanium (Alesso Remix)', artist: 'David Guetta', duration_s: 300 });
    expect(decideMatch(src, [cand('x', { title: 'Titanium (Nicky Romero Remix)', artist: 'David Guetta', duration_s: 300 })], opts).decision).not.toBe('accept');
    expect(decideMatch(src, [cand('y', { title: 'Titanium - Alesso Remix', artist: 'David Guetta', duration_s: 301 })], opts).decision).toBe('accept');
  });
});

describe('true matches are accepted', () => {
  it.each<[string, Partial<Track> & { title: string; artist: string }, Partial<Track> & { title: string; artist: string }]>([
    ['a remaster for the original', { title: 'Bohemian Rhapsody', artist: 'Queen', duration_s: 354 }, { title: 'Bohemian Rhapsody - Remastered 2011', artist: 'Queen', duration_s: 355 }],
    ['feat. moved from the title', { title: 'Nowhere Fast (feat. Kehlani)', artist: 'Eminem', duration_s: 264 }, { title: 'Nowhere Fast', artist: 'Eminem, Kehlani', artists: ['Eminem', 'Kehlani'], duration_s: 265 }],
    ['diacritics', { title: 'Déjà Vu', artist: 'Beyoncé', duration_s: 240 }, { title: 'Deja Vu', artist: 'Beyonce', duration_s: 241 }],
    ['& vs and', { title: 'Me & You', artist: 'Simon & Garfunkel', duration_s: 200 }, { title: 'Me and You', artist: 'Simon and Garfunkel', duration_s: 200 }],
    ['leading "The"', { title: 'Wonderwall', artist: 'The Oasis', duration_s: 258 }, { title: 'Wonderwall', artist: 'Oasis', duration_s: 258 }],
    ['kana and romaji', { title: 'さくら', artist: 'いきものがかり', duration_s: 300 }, { title: 'Sakura', artist: 'Ikimonogakari', duration_s: 301 }],
    ['Hangul and its romanization', { title: '봄 바다', artist: '박지민', duration_s: 210 }, { title: 'Bom Bada', artist: 'Park Jimin', duration_s: 210 }],
    ['Cyrillic and Latin', { title: 'Группа крови', artist: 'Кино', duration_s: 286 }, { title: 'Gruppa krovi', artist: 'Kino', duration_s: 287 }],
    ['Greek and Latin', { title: 'Αγάπη μου', artist: 'Σάκης Ρουβάς', duration_s: 200 }, { title: 'Agapi mou', artist: 'Sakis Rouvas', duration_s: 201 }],
    ['Arabic and Latin', { title: 'يا حبيبي', artist: 'فرقة الريح', duration_s: 230 }, { title: 'Ya Habibi', artist: 'Firqat al-Rih', duration_s: 231 }],
    ['full-width forms', { title: 'ＬＯＶＥ　ＳＯＮＧ', artist: 'ＡＢＣ', duration_s: 200 }, { title: 'Love Song', artist: 'ABC', duration_s: 200 }],
  ])('%s', (_label, source, candidate) => {
    const d = decideMatch(track(source), [cand('ok', candidate), cand('other', { title: 'Something Else', artist: 'Nobody', duration_s: 100 })], opts);
    expect(d).toMatchObject({ decision: 'accept', chosen: 'ok' });
  });

  it('a kanji title the reading table cannot read, against its romaji, is review, not a silent miss', () => {
    const d = decideMatch(track({ title: '曖昧さ回避', artist: 'Hitsuji Band', duration_s: 261 }), [cand('r', { title: 'Aimaisa Kaihi', artist: 'Hitsuji Band', duration_s: 261 })], opts);
    expect(d.decision).toBe('review');
  });
});

describe('duration', () => {
  it('is a monotonic curve: flat within ±2 s, strong beyond 20 s', () => {
    let prev = Infinity;
    for (let d = 0; d <= 60; d += 0.5) {
      const v = durationValue(d, 240);
      expect(v).toBeLessThanOrEqual(prev);
      prev = v;
    }
    expect(durationValue(2, 240)).toBe(1);
    expect(durationValue(30, 240)).toBeLessThan(0.3);
    const near = score(queen, cand('a', { title: 'Bohemian Rhapsody', artist: 'Queen', duration_s: 356 }));
    const far = score(queen, cand('b', { title: 'Bohemian Rhapsody', artist: 'Queen', duration_s: 390 }));
    expect(near).toBeGreaterThan(far);
    expect(decideMatch(queen, [cand('b', { title: 'Bohemian Rhapsody', artist: 'Queen', duration_s: 390 })], opts).decision).toBe('review');
  });

  it('is neutral when a duration is missing', () => {
    expect(score(queen, cand('a', { title: 'Bohemian Rhapsody', artist: 'Queen' }))).toBe(1);
  });
});

describe('ISRC', () => {
  it('is a strong positive', () => {
    const src = track({ ...queen, isrc: 'GBUM71029604' });
    const plain = score(queen, cand('a', { title: 'Bohemian Rhapsody (2011 Mix)', artist: 'Queen', duration_s: 362 }));
    const withIsrc = score(src, cand('a', { title: 'Bohemian Rhapsody (2011 Mix)', artist: 'Queen', duration_s: 362, isrc: 'GB-UM7-10-29604' }));
    expect(withIsrc).toBeGreaterThan(plain);
  });

  it('with a wrong title and artist is not blindly accepted', () => {
    const src = track({ ...queen, isrc: 'GBUM71029604' });
    const d = decideMatch(src, [cand('bad', { title: 'Totally Different Song', artist: 'Someone Else', duration_s: 354, isrc: 'GBUM71029604' })], opts);
    expect(d.decision).not.toBe('accept');
    expect(d.ranked[0]!.breakdown.find((b) => b.signal === 'isrc_exact')!.note).toMatch(/suspect/u);
  });
});

describe('video providers', () => {
  const video: MatchOptions = { targetProvider: 'youtube_music', targetIsVideoProvider: true };
  const src = track({ title: 'Despacito', artist: 'Luis Fonsi', duration_s: 228 });
  const v = (id: string, videoType: string, title = 'Despacito', artist = 'Luis Fonsi', duration_s = 229): Track => cand(id, { title, artist, duration_s, provider_metadata: { videoType } });

  it('prefers official audio over a music video and a user upload', () => {
    const d = decideMatch(src, [v('omv', 'MUSIC_VIDEO_TYPE_OMV', 'Despacito (Official Video)', 'Luis Fonsi', 262), v('ugc', 'MUSIC_VIDEO_TYPE_UGC', 'Luis Fonsi - Despacito [HQ]', 'uploader99'), v('atv', 'MUSIC_VIDEO_TYPE_ATV')], video);
    expect(d).toMatchObject({ decision: 'accept', chosen: 'atv' });
    expect(d.ranked.map((r) => r.id)).toEqual(['atv', 'omv', 'ugc']);
  });

  it('accepts an official music video that runs longer when there is no audio track', () => {
    const d = decideMatch(src, [v('omv', 'MUSIC_VIDEO_TYPE_OMV', 'Despacito (Official Music Video)', 'Luis Fonsi', 255), v('ugc', 'MUSIC_VIDEO_TYPE_UGC', 'Luis Fonsi - Despacito [HQ]', 'uploader99')], video);
    expect(d).toMatchObject({ decision: 'accept', chosen: 'omv' });
  });

  it('does not accept a user upload that only names the artist in its title', () => {
    expect(decideMatch(src, [v('ugc', 'MUSIC_VIDEO_TYPE_UGC', 'Luis Fonsi - Despacito [HQ]', 'uploader99')], video).decision).toBe('review');
  });
});

describe('strictness', () => {
  const remaster = cand('r', { title: 'Bohemian Rhapsody - Remastered 2011', artist: 'Queen', album: 'A Night at the Opera', duration_s: 355 });
  it('same_recording accepts a remaster; exact_release does not', () => {
    expect(decideMatch(queen, [remaster], opts).decision).toBe('accept');
    expect(decideMatch(queen, [remaster], { ...opts, strictness: 'exact_release' }).decision).toBe('review');
  });

  it('exact_release weighs explicit flags and albums more', () => {
    const src = track({ ...queen, explicit: true });
    const clean = cand('c', { title: 'Bohemian Rhapsody', artist: 'Queen', album: 'A Night at the Opera', duration_s: 354, explicit: false });
    expect(decideMatch(src, [clean], opts).decision).toBe('accept');
    expect(decideMatch(src, [clean], { ...opts, strictness: 'exact_release' }).decision).toBe('review');
    const otherAlbum = cand('o', { title: 'Bohemian Rhapsody', artist: 'Queen', album: 'Greatest Hits', duration_s: 354 });
    expect(score(queen, otherAlbum, { ...opts, strictness: 'exact_release' })).toBeLessThan(score(queen, otherAlbum));
  });

  it('best_effort is more lenient with versions but never with karaoke', () => {
    const radio = cand('e', { title: 'Bohemian Rhapsody (Radio Edit)', artist: 'Queen', duration_s: 340 });
    expect(score(queen, radio, { ...opts, strictness: 'best_effort' })).toBeGreaterThan(score(queen, radio));
    const karaoke = cand('k', { title: 'Bohemian Rhapsody (Karaoke Version)', artist: 'Queen', duration_s: 354 });
    expect(decideMatch(queen, [karaoke], { ...opts, strictness: 'best_effort' }).decision).not.toBe('accept');
  });
});

describe('decisions', () => {
  it('slightly prefers the original album over a compilation', () => {
    const d = decideMatch(queen, [
      cand('hits', { title: 'Bohemian Rhapsody', artist: 'Queen', album: 'Greatest Hits', duration_s: 354 }),
      cand('orig', { title: 'Bohemian Rhapsody', artist: 'Queen', album: 'A Night at the Opera', duration_s: 354 }),
    ], opts);
    expect(d.chosen).toBe('orig');
    expect(d.ranked[1]!.penalties.some((p) => p.signal === 'compilation') || d.ranked[0]!.breakdown.some((b) => b.signal === 'album_match')).toBe(true);
  });

  it('sends two indistinguishable different-looking candidates to review', () => {
    const d = decideMatch(queen, [
      cand('a', { title: 'Bohemian Rhapsody', artist: 'Queen', duration_s: 354 }),
      cand('b', { title: 'Bohemian Rhapsody (Demo)', artist: 'Queen', duration_s: 354, isrc: null }),
      cand('c', { title: 'Bohemian Rhapsody', artist: 'Queen', duration_s: 364 }),
    ], opts);
    expect(d.decision).toBe('review');
  });

  it('rejects when nothing is plausible, and with no candidates', () => {
    expect(decideMatch(queen, [cand('x', { title: 'Yellow Submarine', artist: 'The Beatles', duration_s: 160 })], opts).decision).toBe('reject');
    expect(decideMatch(queen, [], opts)).toMatchObject({ decision: 'reject', chosen: null, confidence: 0 });
  });

  it('carries a breakdown and a human reason', () => {
    const d = decideMatch(queen, [cand('a', { title: 'Bohemian Rhapsody', artist: 'Queen', duration_s: 355 })], opts);
    const signals = d.ranked[0]!.breakdown.map((b) => b.signal);
    expect(signals).toEqual(expect.arrayContaining(['title_similarity', 'artist_overlap', 'duration']));
    expect(d.reason).toBe("Matched “Bohemian Rhapsody” by Queen (100%): same title, same artists, same length.");
    expect(d.ranked[0]!.reason).toMatch(/same title, same artists/u);
  });

  it('is deterministic whatever the candidate order', () => {
    const cs = [
      cand('a', { title: 'Bohemian Rhapsody', artist: 'Queen', duration_s: 354 }),
      cand('b', { title: 'Bohemian Rhapsody', artist: 'Queen', duration_s: 354 }),
      cand('c', { title: 'Bohemian Rhapsody (Live)', artist: 'Queen', duration_s: 370 }),
    ];
    const one = decideMatch(queen, cs, opts);
    const two = decideMatch(queen, [...cs].reverse(), opts);
    expect(two).toEqual(one);
    expect(decideMatch(queen, cs, opts)).toEqual(one);
    expect(one.ranked.map((r) => r.id)).toEqual(['a', 'b', 'c']);
  });
});
