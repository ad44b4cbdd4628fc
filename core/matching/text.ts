import { koreanKey, loanwordKey } from './phonetic-keys.ts';
import { ABJAD_RE, NON_LATIN_RE, UNSPACED_RE, katakanaWords, romanizeAlphabets, romanizeSyllabaries } from './transliterate.ts';

/** Words that carry no identity on their own: a title match needs at least one other shared word. */
export const STOP_WORDS = new Set([
  'a', 'an', 'the', 'and', 'or', 'of', 'in', 'on', 'at', 'to', 'for', 'by', 'with', 'from', 'is', 'it', 'its',
  'i', 'im', 'me', 'my', 'you', 'your', 'we', 'our', 'he', 'she', 'his', 'her', 'they', 'be', 'am', 'are',
  'this', 'that', 'so', 'no', 'not', 'do', 'up', 'oh', 'de', 'la', 'le', 'les', 'el', 'los', 'las', 'y', 'e',
  'et', 'un', 'une', 'des', 'du', 'en', 'und', 'der', 'die', 'das', 'ein', 'il', 'lo', 'di', 'da', 'o', 'os',
  'ni', 'wa', 'ga', 'wo', 'na', 'mo', 'to', 'al', 'ya',
]);

export interface TextForm {
  /** Lower-case Latin tokens after romanization and punctuation folding. */
  tokens: string[];
  /** The original was in a script written without vowels (compare consonant skeletons). */
  abjad: boolean;
  /** The original was in a script written without spaces (compare as one string too). */
  unspaced: boolean;
  /** The original contained any non-Latin script. */
  nonLatin: boolean;
  /** Other Latin readings of the same text (names written in kanji/hanzi). */
  readings?: TextForm[];
  /** The original contained Hangul: its romanization compares through `koreanKey`. */
  hangul?: boolean;
  /** Tokens romanized from katakana: possibly loanwords, compared through `loanwordKey`. */
  loanwords?: string[];
}

/**
 * Case, Unicode compatibility forms (full-width), diacritics, romanization, `&`/`+` → "and",
 * apostrophes joined, other punctuation → space.
 */
export function normalizeText(raw: string): TextForm {
  // ё and й lose their marks below; keep the sounds Latin renderings write for them.
  const nfkc = raw.normalize('NFKC').replace(/[ёЁ]/gu, 'yo').replace(/[йЙ]/gu, 'y');
  const syllabic = romanizeSyllabaries(nfkc);
  const stripped = syllabic
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßæœøłđ]/gu, (c) => ({ ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd' })[c] ?? c);
  const latin = romanizeAlphabets(stripped)
    .replace(/['’‘`´ʼ]/gu, '')
    .replace(/\s*[&+]\s*/gu, ' and ')
    .replace(/([\p{L}])\.(?=[\p{L}]\.)/gu, '$1')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
  // Ideographs carry a word each: keep them as single-character tokens.
  const spaced = latin.replace(/[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/gu, ' $& ');
  return {
    tokens: spaced.split(/\s+/u).filter(Boolean),
    abjad: ABJAD_RE.test(nfkc),
    unspaced: UNSPACED_RE.test(nfkc),
    nonLatin: NON_LATIN_RE.test(nfkc),
    hangul: HANGUL_RE.test(nfkc),
    loanwords: katakanaWords(nfkc),
  };
}

const HANGUL_RE = /[\uac00-\ud7a3]/u;

/** Which sound-based keys a comparison of two forms may use. */
interface KeyContext {
  hangul: boolean;
  loanA: ReadonlySet<string>;
  loanB: ReadonlySet<string>;
}

const keyContext = (a: TextForm, b: TextForm): KeyContext => ({
  // Only across scripts: two Latin spellings must not meet through a Korean-tolerant key.
  hangul: (a.hangul ?? false) !== (b.hangul ?? false),
  loanA: new Set(a.hangul === b.hangul && a.nonLatin === b.nonLatin ? [] : (a.loanwords ?? [])),
  loanB: new Set(a.hangul === b.hangul && a.nonLatin === b.nonLatin ? [] : (b.loanwords ?? [])),
});

/** A key of at least this many letters is specific enough to stand for a word. */
const MIN_KEY = 2;

/** Sound-key agreement of two tokens (0 when none applies): Korean romanization variants 0.9, katakana loanwords 0.85. */
function keySimilarity(a: string, b: string, keys: KeyContext | undefined): number {
  if (!keys) return 0;
  if (keys.hangul) {
    const ka = koreanKey(a);
    if (ka.length >= MIN_KEY && ka === koreanKey(b)) return 0.9;
  }
  if (keys.loanA.has(a) || keys.loanB.has(b)) {
    const ka = loanwordKey(a);
    if (ka.length >= MIN_KEY && ka === loanwordKey(b)) return 0.85;
  }
  return 0;
}

/**
 * One word in Hangul or katakana is often two or three in Latin (ナイトライン / "Night Line",
 * 봄날의 / "Bom Narui"): joins runs of up to three tokens of `b` whose sound key equals that of a
 * token of `a`, so the greedy pairing sees them as one word.
 */
function joinSpans(a: TextForm, b: TextForm, keys: KeyContext, loanOfA: ReadonlySet<string>): TextForm {
  const wanted = a.tokens.flatMap((t) => {
    const out: ((s: string) => boolean)[] = [];
    if (keys.hangul && a.hangul) {
      const k = koreanKey(t);
      if (k.length >= 3) out.push((s) => koreanKey(s) === k);
    }
    if (loanOfA.has(t)) {
      const k = loanwordKey(t);
      if (k.length >= 3) out.push((s) => loanwordKey(s) === k);
    }
    // A word that already has a one-token counterpart needs no joining ("no" + "melody" must not become "nomelody").
    return out.filter((w) => !b.tokens.some(w));
  });
  if (wanted.length === 0) return b;
  const tokens: string[] = [];
  let joined = false;
  for (let i = 0; i < b.tokens.length; i++) {
    let taken = 1;
    for (const len of [3, 2]) {
      const span = b.tokens.slice(i, i + len);
      if (span.length === len && wanted.some((w) => w(span.join('')))) {
        taken = len;
        break;
      }
    }
    tokens.push(b.tokens.slice(i, i + taken).join(''));
    if (taken > 1) joined = true;
    i += taken - 1;
  }
  return joined ? { ...b, tokens } : b;
}

/** Folds spelling variants that romanization and transliteration produce (ō/ou/oo, kh/h, y/i, doubled letters). */
export function looseKey(token: string): string {
  return token
    .replace(/ou|oh(?![aeiou])/gu, 'o')
    .replace(/kh/gu, 'h')
    .replace(/ph/gu, 'f')
    .replace(/[yj]/gu, 'i')
    .replace(/w/gu, 'v')
    .replace(/q|c(?!h)/gu, 'k')
    .replace(/x/gu, 'ks')
    .replace(/(.)\1+/gu, '$1');
}

/** Consonant skeleton for abjad comparisons: vowels, semivowels and h-digraph marks dropped. */
export function skeleton(token: string): string {
  // A final ta marbuta is "-a" or "-at" in Latin: drop a trailing t after the vowels are gone.
  return looseKey(token).replace(/[aeiouv]/gu, '').replace(/(.)\1+/gu, '$1').replace(/(.{2,})t$/u, '$1');
}

export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j]!;
      prev[j] = Math.min(prev[j]! + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length]!;
}

/** How alike two tokens are: exact 1, loose spelling 0.95, abjad skeleton 0.85, one typo in a long word 0.8. */
export function tokenSimilarity(a: string, b: string, abjad: boolean, keys?: KeyContext): number {
  if (a === b) return 1;
  const la = looseKey(a);
  const lb = looseKey(b);
  if (la === lb) return 0.95;
  if (abjad) {
    const sa = skeleton(a);
    const sb = skeleton(b);
    if (sa === sb && (sa.length >= 2 || (sa.length === 1 && a.length <= 4 && b.length <= 4))) return 0.85;
  }
  const keyed = keySimilarity(a, b, keys);
  if (keyed > 0) return keyed;
  if (la.length >= 5 && lb.length >= 5 && levenshtein(la, lb) <= 1) return 0.8;
  return 0;
}

const isContent = (t: string): boolean => !STOP_WORDS.has(t);

export interface TokenMatch {
  /** Weighted Dice coefficient over tokens, 0..1. */
  similarity: number;
  /** Content (non-stop) words the two share. */
  sharedContent: number;
  /** Content words of either side with no counterpart on the other. */
  unmatched: string[];
}

/** Greedy best pairing of tokens; stop words weigh half. */
export function compareTokens(a0: TextForm, b0: TextForm): TokenMatch {
  const keys = keyContext(a0, b0);
  const b = joinSpans(a0, b0, keys, keys.loanA);
  const a = joinSpans(b, a0, keys, keys.loanB);
  const abjad = a.abjad || b.abjad;
  const used = new Set<number>();
  let matched = 0;
  let sharedContent = 0;
  const weight = (t: string): number => (isContent(t) ? 1 : 0.5);
  const unmatched: string[] = [];
  for (const ta of a.tokens) {
    let best = 0;
    let bestIdx = -1;
    b.tokens.forEach((tb, idx) => {
      if (used.has(idx)) return;
      const s = tokenSimilarity(ta, tb, abjad, keys);
      if (s > best) {
        best = s;
        bestIdx = idx;
      }
    });
    if (bestIdx >= 0 && best >= 0.8) {
      used.add(bestIdx);
      const w = (weight(ta) + weight(b.tokens[bestIdx]!)) / 2;
      matched += best * w * 2;
      if (isContent(ta) || isContent(b.tokens[bestIdx]!)) sharedContent++;
    } else if (isContent(ta)) {
      unmatched.push(ta);
    }
  }
  b.tokens.forEach((tb, idx) => {
    if (!used.has(idx) && isContent(tb)) unmatched.push(tb);
  });
  const total = a.tokens.reduce((s, t) => s + weight(t), 0) + b.tokens.reduce((s, t) => s + weight(t), 0);
  return { similarity: total === 0 ? 0 : Math.min(1, matched / total), sharedContent, unmatched };
}

/** Dice coefficient over character bigrams of the loosened, space-free strings. */
export function compactSimilarity(a: TextForm, b: TextForm): number {
  const ca = looseKey(a.tokens.join(''));
  const cb = looseKey(b.tokens.join(''));
  if (ca.length === 0 || cb.length === 0) return 0;
  if (ca === cb) return 1;
  const keys = keyContext(a, b);
  if (keys.hangul) {
    const ka = koreanKey(a.tokens.join(''));
    if (ka.length >= 3 && ka === koreanKey(b.tokens.join(''))) return 0.95;
  }
  if (ca.length < 2 || cb.length < 2) return 0;
  const grams = (s: string): Map<string, number> => {
    const m = new Map<string, number>();
    for (let i = 0; i < s.length - 1; i++) {
      const g = s.slice(i, i + 2);
      m.set(g, (m.get(g) ?? 0) + 1);
    }
    return m;
  };
  const ga = grams(ca);
  const gb = grams(cb);
  let inter = 0;
  for (const [g, n] of ga) inter += Math.min(n, gb.get(g) ?? 0);
  return (2 * inter) / (ca.length - 1 + cb.length - 1);
}

export interface TitleSimilarity {
  value: number;
  sharedContent: boolean;
  note: string;
  /**
   * Words one title has and the other lacks ("Pt. 2", "Forever", "II"): a longer title is often
   * another song. Empty when the titles are one string spelled apart ("Hello World"/"HelloWorld").
   */
  extraWords: string[];
}

/** Numbers and roman numerals that mark a sequel or a part: loose spelling must not fold them away. */
const NUMERAL_RE = /^(\d+|i{1,3}|iv|v|vi{1,3}|ix|x)$/u;

/**
 * Token similarity requiring a shared content word. Titles made only of stop words must be equal.
 * Scripts without spaces (and any two titles equal once spaces are removed) compare as whole strings.
 */
export function titleSimilarity(a: TextForm, b: TextForm): TitleSimilarity {
  const tok = compareTokens(a, b);
  const compact = compactSimilarity(a, b);
  const onlyStopA = a.tokens.every((t) => !isContent(t));
  const onlyStopB = b.tokens.every((t) => !isContent(t));
  const numerals = tok.unmatched.filter((t) => NUMERAL_RE.test(t));
  if (compact === 1 && numerals.length === 0) return { value: 1, sharedContent: true, note: 'titles are equal once normalized', extraWords: [] };
  const extraWords = compact === 1 ? numerals : tok.unmatched;
  if (a.unspaced || b.unspaced) {
    const value = Math.max(tok.similarity, compact >= 0.5 && compact < 1 ? compact : 0);
    return { value, sharedContent: value >= 0.5, note: `whole-string similarity ${compact.toFixed(2)} (script without spaces)`, extraWords: value >= 0.95 ? [] : extraWords };
  }
  if (onlyStopA && onlyStopB) {
    return { value: tok.similarity === 1 ? 1 : 0, sharedContent: tok.similarity === 1, note: 'titles made only of common words must be equal', extraWords: [] };
  }
  if (tok.sharedContent === 0) return { value: 0, sharedContent: false, note: 'no shared content word', extraWords };
  return { value: tok.similarity, sharedContent: true, note: `token similarity ${tok.similarity.toFixed(2)}`, extraWords };
}
