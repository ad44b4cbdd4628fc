import { describe, expect, it } from 'vitest';
import { koreanKey, loanwordKey } from '../../../core/matching/phonetic-keys.ts';
import { normalizeText, titleSimilarity } from '../../../core/matching/text.ts';
import { katakanaWords, romanizeSyllabaries } from '../../../core/matching/transliterate.ts';

describe('Korean romanization variants share one key', () => {
  it.each([
    ['eo / ŏ / u', 'byeol', 'byul'],
    ['McCune–Reischauer vowel marks stripped', 'pyŏl'.normalize('NFKD').replace(/\p{M}/gu, ''), 'byeol'],
    ['ae / e', 'saeroun', 'seroun'],
    ['double consonants', 'ssangdungi', 'sangdungi'],
    ['k/g, t/d, p/b, ch/j', 'gimchi', 'kimji'],
    ['s / sh', 'sinhwa', 'shinhwa'],
    ['r / l', 'bomnarui', 'bomnalui'],
  ])('%s', (_label, a, b) => {
    expect(koreanKey(a)).toBe(koreanKey(b));
  });

  it('keeps different consonants apart', () => {
    expect(koreanKey('hanbyeol')).not.toBe(koreanKey('hanbora'));
    expect(koreanKey('minsu')).not.toBe(koreanKey('minho'));
  });
});

describe('Hangul is romanized by syllable decomposition with the sound changes RR writes', () => {
  it.each([
    ['liaison of a final before a silent initial', '봄날의', 'bomnarui'],
    ['nasalization of k before m', '국물', 'gungmul'],
    ['nasalization of p before n', '입니다', 'imnida'],
    ['ㄴ + ㄹ → ll', '신라', 'silla'],
    ['ㄹ after ng → n', '종로', 'jongno'],
    ['plain syllables', '한별', 'hanbyeol'],
  ])('%s', (_label, hangul, latin) => {
    expect(romanizeSyllabaries(hangul)).toBe(latin);
  });

  it('a Hangul title meets a romanization that spells the vowels and spacing differently', () => {
    const t = titleSimilarity(normalizeText('별빛 아래서'), normalizeText('Byul Bit Araeso'));
    expect(t.sharedContent).toBe(true);
    expect(t.value).toBeGreaterThanOrEqual(0.85);
  });

  it('two Latin titles never meet through the Korean-tolerant key', () => {
    expect(titleSimilarity(normalizeText('Kold Tide'), normalizeText('Gold Tied')).value).toBeLessThan(0.85);
  });
});

describe('katakana loanwords compare with their English spelling by sound', () => {
  it.each([
    ['a final vowel English does not write, l/r', 'ライン', 'line'],
    ['silent gh', 'ナイト', 'night'],
    ['long vowel mark and l/r', 'メロディー', 'melody'],
    ['soft c', 'シティ', 'city'],
    ['v/b and sokuon', 'ラブ', 'love'],
  ])('%s', (_label, kana, english) => {
    expect(loanwordKey(katakanaWords(kana)[0]!)).toBe(loanwordKey(english));
  });

  it('splits hiragana particles from katakana words and treats ・ as a space', () => {
    expect(romanizeSyllabaries('のメロディー').trim()).toBe('no merodii');
    expect(normalizeText('シティ・ネオン').tokens).toEqual(['shiti', 'neon']);
  });

  it('one katakana word meets two English words', () => {
    const t = titleSimilarity(normalizeText('ナイトライン'), normalizeText('Night Line'));
    expect(t.sharedContent).toBe(true);
    expect(t.value).toBeGreaterThanOrEqual(0.85);
  });

  it('a word already matched alone is not joined with its neighbour', () => {
    const t = titleSimilarity(normalizeText('yoake のメロディー'), normalizeText('Yoake no Melody'));
    expect(t.value).toBeGreaterThanOrEqual(0.9);
  });

  it('applies only across scripts: two Latin words with the same consonants stay different', () => {
    expect(titleSimilarity(normalizeText('Rain'), normalizeText('Line')).sharedContent).toBe(false);
  });

  it('a katakana word with other consonants does not meet', () => {
    expect(titleSimilarity(normalizeText('ナイトライン'), normalizeText('Neon Lights')).value).toBeLessThan(0.85);
  });
});
