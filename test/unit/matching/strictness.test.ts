import type { Track } from '@opl/plugin-sdk';
import { describe, expect, it } from 'vitest';
import { decideMatch, parseStrictness, STRICTNESS, STRICTNESS_LEVELS, UnknownStrictness, type Strictness } from '../../../core/matching/index.ts';
import { MATCH_STRICTNESS } from '../../../core/storage/entities/values.ts';
import { track } from './track.ts';

const source = track({ id: 's', title: 'Dancing in the Moonlight', artist: 'King Harvest', artists: ['King Harvest'], album: 'Dancing in the Moonlight', duration_s: 181, isrc: 'USAAA7200001', explicit: false });
const cand = (id: string, fields: Partial<Track>): Track => track({ ...source, isrc: null, ...fields, id });
const decide = (strictness: Strictness, ...candidates: Track[]) => decideMatch(source, candidates, { targetProvider: 'deezer', strictness });

describe('strictness names', () => {
  it('the migration engine stores exactly the matcher levels', () => {
    expect([...MATCH_STRICTNESS]).toEqual([...STRICTNESS_LEVELS]);
  });

  it('parses stored values, defaults a missing one, maps the legacy names and refuses the unknown', () => {
    expect(STRICTNESS_LEVELS.map((level) => parseStrictness(level))).toEqual([...STRICTNESS_LEVELS]);
    expect(parseStrictness(undefined)).toBe('same_recording');
    expect(parseStrictness(null)).toBe('same_recording');
    expect(parseStrictness('strict')).toBe('exact_release');
    expect(parseStrictness('balanced')).toBe('same_recording');
    expect(parseStrictness('lenient')).toBe('best_effort');
    expect(() => parseStrictness('loose')).toThrow(UnknownStrictness);
    expect(() => decideMatch(source, [], { targetProvider: 'x', strictness: 'loose' as Strictness })).toThrow(/Unknown match strictness "loose"/u);
  });

  it('orders the accept bars from strict to lenient', () => {
    expect(STRICTNESS.exact_release.acceptAt).toBeGreaterThan(STRICTNESS.same_recording.acceptAt);
    expect(STRICTNESS.same_recording.acceptAt).toBeGreaterThan(STRICTNESS.best_effort.acceptAt);
  });
});

describe('exact_release: the same release', () => {
  it('accepts the same album, length within 3 s and the same ISRC', () => {
    expect(decide('exact_release', cand('same', { isrc: 'USAAA7200001', duration_s: 182 })).decision).toBe('accept');
  });

  it('takes a length of 0 for unknown, as the scorer does (`#EXTINF:0,`, `Length1=0`), not for a length that differs', () => {
    const zero = track({ ...source, duration_s: 0 });
    expect(decideMatch(zero, [cand('same', { isrc: 'USAAA7200001' })], { targetProvider: 'deezer', strictness: 'exact_release' }).decision).toBe('accept');
    expect(decide('exact_release', cand('same', { isrc: 'USAAA7200001', duration_s: 0 })).decision).toBe('accept');
  });

  it.each([
    ['another album (a compilation)', { album: 'Greatest Hits of the 70s' }, /another album|different release|the album is/u],
    ['a different ISRC', { isrc: 'USBBB9900009' }, /recording code/u],
    ['a remaster', { title: 'Dancing in the Moonlight - Remastered 2009' }, /remaster/u],
    ['a length 5 s off', { duration_s: 186 }, /length differs by 5 s/u],
    ['the explicit flag differs', { explicit: true }, /explicit/u],
  ])('sends %s to review, saying why', (_label, fields, reason) => {
    const d = decide('exact_release', cand('c', fields));
    expect(d.decision).toBe('review');
    expect(d.reason).toMatch(reason);
  });
});

describe('same_recording: the same recording on any release', () => {
  it.each([
    ['on a compilation', { album: 'Greatest Hits of the 70s' }],
    ['as a remaster', { title: 'Dancing in the Moonlight - Remastered 2009' }],
    ['with another ISRC', { isrc: 'USBBB9900009' }],
    ['5 s longer', { duration_s: 186 }],
  ])('accepts it %s', (_label, fields) => {
    expect(decide('same_recording', cand('c', fields)).decision).toBe('accept');
  });

  it.each([
    ['live', 'Dancing in the Moonlight - Live'],
    ['remix', 'Dancing in the Moonlight (Club Remix)'],
    ['acoustic', 'Dancing in the Moonlight (Acoustic)'],
  ])('does not accept a %s version', (_label, title) => {
    expect(decide('same_recording', cand('c', { title })).decision).not.toBe('accept');
  });
});

describe('best_effort: a lower bar, never another version or song', () => {
  it('accepts what same_recording only reviews (a weaker but consistent match)', () => {
    // Lengths 19 s apart and a second credited artist: below the same_recording bar, above best_effort's.
    const weaker = cand('w', { duration_s: 200, artist: 'King Harvest, Toploader', artists: ['King Harvest', 'Toploader'] });
    expect(decide('same_recording', weaker).decision).toBe('review');
    expect(decide('best_effort', weaker).decision).toBe('accept');
  });

  it.each([
    ['a live recording', { title: 'Dancing in the Moonlight (Live)' }],
    ['a remix', { title: 'Dancing in the Moonlight (DJ Remix)' }],
    ['a karaoke track', { title: 'Dancing in the Moonlight (Karaoke Version)', artist: 'Karaoke Hits', artists: ['Karaoke Hits'] }],
    ['a cover', { title: 'Dancing in the Moonlight', artist: 'Tribute Band', artists: ['Tribute Band'] }],
    ['an extended mix, even with the same ISRC', { title: 'Dancing in the Moonlight (Extended Mix)', isrc: 'USAAA7200001' }],
    ['another song by the artist', { title: 'A Little Bit of Sunshine', duration_s: 181 }],
  ])('never auto-accepts %s', (_label, fields) => {
    const d = decide('best_effort', cand('c', fields));
    expect(d.decision).not.toBe('accept');
  });

  it('says in words why a different version waits for review', () => {
    const d = decide('best_effort', cand('c', { title: 'Dancing in the Moonlight (Live)' }));
    expect(d.reason).toMatch(/^Please check “Dancing in the Moonlight \(Live\)” by King Harvest \(\d+%\): it looks like a different version: the candidate is a live recording and the source is not\. What agrees and what not: same title, same artists/u);
  });
});
