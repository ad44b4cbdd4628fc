import { describe, expect, it } from 'vitest';
import { normalizeText, titleSimilarity } from '../../../core/matching/index.ts';

const tokens = (s: string): string[] => normalizeText(s).tokens;
const sim = (a: string, b: string): number => titleSimilarity(normalizeText(a), normalizeText(b)).value;

describe('normalizeText', () => {
  it('folds case, diacritics and punctuation', () => {
    expect(tokens('Beyoncé – Déjà Vu!')).toEqual(['beyonce', 'deja', 'vu']);
    expect(tokens("Don't Stop Me Now")).toEqual(['dont', 'stop', 'me', 'now']);
  });

  it('treats & and + as "and"', () => {
    expect(tokens('Simon & Garfunkel')).toEqual(['simon', 'and', 'garfunkel']);
    expect(tokens('Florence + the Machine')).toEqual(['florence', 'and', 'the', 'machine']);
  });

  it('folds full-width forms', () => {
    expect(tokens('ＦＵＬＬ　ＷＩＤＴＨ')).toEqual(['full', 'width']);
  });

  it('romanizes kana, including voiced marks, small tsu and small ya/yu/yo', () => {
    expect(tokens('さくら')).toEqual(['sakura']);
    expect(tokens('がっこう')).toEqual(['gakkou']);
    expect(tokens('きょう')).toEqual(['kyou']);
    expect(tokens('ヨルシカ')).toEqual(['yorushika']);
    expect(tokens('ｻｸﾗ')).toEqual(['sakura']);
  });

  it('romanizes Hangul syllables', () => {
    expect(tokens('사랑')).toEqual(['sarang']);
    expect(tokens('하늘')).toEqual(['haneul']);
  });

  it('transliterates Cyrillic, Greek, Arabic and Hebrew', () => {
    expect(tokens('Группа крови')).toEqual(['gruppa', 'krovi']);
    expect(tokens('Звёзды')).toEqual(['zvyozdy']);
    expect(tokens('Αγάπη μου')).toEqual(['agapi', 'mou']);
    expect(tokens('حبيبي')).toEqual(['hbyby']);
    expect(tokens('الريح')).toEqual(['al', 'ryh']);
    expect(tokens('שלום')).toEqual(['shlvm']);
  });
});

describe('titleSimilarity', () => {
  it('matches romanized and native spellings', () => {
    expect(sim('とうきょう', 'Tokyo')).toBeGreaterThanOrEqual(0.9);
    expect(sim('Группа крови', 'Gruppa krovi')).toBe(1);
    expect(sim('Звёзды над рекой', 'Zvyozdy nad rekoy')).toBeGreaterThanOrEqual(0.9);
    expect(sim('Αγάπη μου', 'Agapi mou')).toBeGreaterThanOrEqual(0.9);
    expect(sim('حبيبي', 'Habibi')).toBeGreaterThanOrEqual(0.8);
    expect(sim('사랑해', 'Saranghae')).toBe(1);
  });

  it('needs a shared content word: stop words alone do not count', () => {
    const r = titleSimilarity(normalizeText('Love of My Life'), normalizeText('Life of the Party'));
    expect(r.sharedContent).toBe(true);
    const none = titleSimilarity(normalizeText('The Way You Are'), normalizeText('You and the Night'));
    expect(none.sharedContent).toBe(false);
    expect(none.value).toBe(0);
  });

  it('requires titles made only of stop words to be equal', () => {
    expect(sim('You & I', 'You and I')).toBe(1);
    expect(sim('You & I', 'Me and You')).toBe(0);
  });

  it('ignores spacing and a typo in a long word', () => {
    expect(sim('Mr. Brightside', 'Mr Brightside')).toBe(1);
    expect(sim('Hey Jude', 'HeyJude')).toBe(1);
    expect(sim('Bohemian Rhapsody', 'Bohemian Rapsody')).toBeGreaterThanOrEqual(0.8);
  });
});
