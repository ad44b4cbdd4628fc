/**
 * Compact romanization tables so titles in kana, Hangul, Cyrillic, Greek, Arabic and Hebrew compare
 * with their Latin renderings. They aim for the spelling most providers use (Hepburn, Revised
 * Romanization, BGN-like Cyrillic), not for scholarly precision: matching then compares loosely.
 */

const HIRAGANA: Record<string, string> = {
  あ: 'a', い: 'i', う: 'u', え: 'e', お: 'o',
  か: 'ka', き: 'ki', く: 'ku', け: 'ke', こ: 'ko',
  が: 'ga', ぎ: 'gi', ぐ: 'gu', げ: 'ge', ご: 'go',
  さ: 'sa', し: 'shi', す: 'su', せ: 'se', そ: 'so',
  ざ: 'za', じ: 'ji', ず: 'zu', ぜ: 'ze', ぞ: 'zo',
  た: 'ta', ち: 'chi', つ: 'tsu', て: 'te', と: 'to',
  だ: 'da', ぢ: 'ji', づ: 'zu', で: 'de', ど: 'do',
  な: 'na', に: 'ni', ぬ: 'nu', ね: 'ne', の: 'no',
  は: 'ha', ひ: 'hi', ふ: 'fu', へ: 'he', ほ: 'ho',
  ば: 'ba', び: 'bi', ぶ: 'bu', べ: 'be', ぼ: 'bo',
  ぱ: 'pa', ぴ: 'pi', ぷ: 'pu', ぺ: 'pe', ぽ: 'po',
  ま: 'ma', み: 'mi', む: 'mu', め: 'me', も: 'mo',
  や: 'ya', ゆ: 'yu', よ: 'yo',
  ら: 'ra', り: 'ri', る: 'ru', れ: 're', ろ: 'ro',
  わ: 'wa', ゐ: 'i', ゑ: 'e', を: 'o', ん: 'n', ゔ: 'vu',
  ぁ: 'a', ぃ: 'i', ぅ: 'u', ぇ: 'e', ぉ: 'o', ゃ: 'ya', ゅ: 'yu', ょ: 'yo', ゎ: 'wa',
};
const SMALL_Y = new Set(['ゃ', 'ゅ', 'ょ']);
const SMALL_VOWEL = new Set(['ぁ', 'ぃ', 'ぅ', 'ぇ', 'ぉ']);

const isKana = (ch: string): boolean => /[\u3041-\u309f\u30a1-\u30ff]/u.test(ch);
const toHiragana = (ch: string): string => {
  const code = ch.codePointAt(0) ?? 0;
  return code >= 0x30a1 && code <= 0x30f6 ? String.fromCodePoint(code - 0x60) : ch;
};

/** Hepburn romanization of a kana run; long-vowel marks repeat the vowel (compared loosely later). */
function romanizeKana(run: string): string {
  const chars = [...run].map(toHiragana);
  let out = '';
  let geminate = false;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    const next = chars[i + 1];
    if (ch === 'っ') {
      geminate = true;
      continue;
    }
    if (ch === 'ー') {
      const vowel = /[aeiou](?=[^aeiou]*$)/u.exec(out)?.[0];
      if (vowel && out.endsWith(vowel)) out += vowel;
      continue;
    }
    let rom = HIRAGANA[ch] ?? '';
    if (next && SMALL_Y.has(next) && rom.endsWith('i') && rom.length > 1) {
      const base = rom.slice(0, -1);
      const v = (HIRAGANA[next] ?? 'ya').slice(1);
      rom = /(sh|ch|j)$/u.test(base) ? base + v : `${base}y${v}`;
      i++;
    } else if (next && SMALL_VOWEL.has(next) && rom.length > 0) {
      const base = rom.replace(/[aeiou]$/u, '') || 'w';
      rom = base + (HIRAGANA[next] ?? '');
      i++;
    }
    if (geminate && rom) {
      out += rom.startsWith('ch') ? 't' : rom[0];
      geminate = false;
    }
    out += rom;
  }
  return out;
}

const HANGUL_L = ['g', 'kk', 'n', 'd', 'tt', 'r', 'm', 'b', 'pp', 's', 'ss', '', 'j', 'jj', 'ch', 'k', 't', 'p', 'h'];
const HANGUL_V = ['a', 'ae', 'ya', 'yae', 'eo', 'e', 'yeo', 'ye', 'o', 'wa', 'wae', 'oe', 'yo', 'u', 'wo', 'we', 'wi', 'yu', 'eu', 'ui', 'i'];
const HANGUL_T = ['', 'k', 'k', 'k', 'n', 'n', 'n', 't', 'l', 'k', 'm', 'l', 'l', 'l', 'p', 'l', 'm', 'p', 'p', 't', 't', 'ng', 't', 't', 'k', 't', 'p', 't'];

/** A final consonant (jamo index) read as the next syllable's initial when that one starts silent (ㅇ): [stays, moves]. */
const HANGUL_LIAISON: readonly (readonly [string, string])[] = [
  ['', ''], ['', 'g'], ['', 'kk'], ['k', 's'], ['', 'n'], ['n', 'j'], ['', 'n'], ['', 'd'], ['', 'r'], ['l', 'g'], ['l', 'm'], ['l', 'b'],
  ['l', 's'], ['l', 't'], ['l', 'p'], ['', 'r'], ['', 'm'], ['', 'b'], ['p', 's'], ['', 's'], ['', 'ss'], ['ng', ''], ['', 'j'], ['', 'ch'],
  ['', 'k'], ['', 't'], ['', 'p'], ['', ''],
];
/** Finals by the stop they are pronounced as before another consonant. */
const K_FINALS = new Set([1, 2, 3, 9, 24]);
const T_FINALS = new Set([7, 19, 20, 22, 23, 25, 27]);
const P_FINALS = new Set([14, 17, 18, 26]);
const L_N = 2;
const L_R = 5;
const L_M = 6;
const L_SILENT = 11;

/**
 * Revised Romanization of a run of Hangul syllables, decomposed arithmetically into jamo (Unicode
 * syllables are (initial × 21 + vowel) × 28 + final), with the sound changes RR writes between
 * syllables: liaison (봄날의 → bomnarui), nasalization (국물 → gungmul, 입니다 → imnida), ㄹ/ㄴ
 * assimilation (신라 → silla) and ㄹ read as n after m/ng (종로 → jongno).
 */
function romanizeHangul(run: string): string {
  const syllables = [...run].map((ch) => {
    const code = (ch.codePointAt(0) ?? 0) - 0xac00;
    return { l: Math.floor(code / 588), v: Math.floor((code % 588) / 28), t: code % 28 };
  });
  let out = '';
  let initial: string | null = null;
  syllables.forEach((s, i) => {
    const next = syllables[i + 1];
    const head = initial ?? HANGUL_L[s.l] ?? '';
    let tail = HANGUL_T[s.t] ?? '';
    initial = null;
    if (next && s.t !== 0) {
      if (next.l === L_SILENT) {
        const [stays, moves] = HANGUL_LIAISON[s.t]!;
        tail = stays;
        if (moves) initial = moves;
      } else if (next.l === L_N || next.l === L_M) {
        if (K_FINALS.has(s.t)) tail = 'ng';
        else if (T_FINALS.has(s.t)) tail = 'n';
        else if (P_FINALS.has(s.t)) tail = 'm';
        else if (s.t === 8 && next.l === L_N) initial = 'l';
      } else if (next.l === L_R) {
        if (s.t === 4 || s.t === 8) {
          tail = 'l';
          initial = 'l';
        } else if (s.t === 16 || s.t === 21) initial = 'n';
        else if (K_FINALS.has(s.t)) {
          tail = 'ng';
          initial = 'n';
        } else if (P_FINALS.has(s.t)) {
          tail = 'm';
          initial = 'n';
        }
      }
    }
    out += head + (HANGUL_V[s.v] ?? '') + tail;
  });
  return out;
}

const CYRILLIC: Record<string, string> = {
  а: 'a', б: 'b', в: 'v', г: 'g', д: 'd', е: 'e', ё: 'e', ж: 'zh', з: 'z', и: 'i', й: 'y', к: 'k',
  л: 'l', м: 'm', н: 'n', о: 'o', п: 'p', р: 'r', с: 's', т: 't', у: 'u', ф: 'f', х: 'kh', ц: 'ts',
  ч: 'ch', ш: 'sh', щ: 'shch', ъ: '', ы: 'y', ь: '', э: 'e', ю: 'yu', я: 'ya',
  і: 'i', ї: 'yi', є: 'ye', ґ: 'g', ў: 'u', ђ: 'dj', ј: 'j', љ: 'lj', њ: 'nj', ћ: 'c', џ: 'dz', ѓ: 'gj', ќ: 'kj', ѕ: 'dz',
};

const GREEK: Record<string, string> = {
  α: 'a', β: 'v', γ: 'g', δ: 'd', ε: 'e', ζ: 'z', η: 'i', θ: 'th', ι: 'i', κ: 'k', λ: 'l', μ: 'm',
  ν: 'n', ξ: 'x', ο: 'o', π: 'p', ρ: 'r', σ: 's', ς: 's', τ: 't', υ: 'y', φ: 'f', χ: 'ch', ψ: 'ps', ω: 'o',
};
const GREEK_DIGRAPHS: [string, string][] = [['ου', 'ou'], ['αυ', 'av'], ['ευ', 'ev'], ['μπ', 'b'], ['ντ', 'd'], ['γγ', 'ng'], ['γκ', 'g']];

const ARABIC: Record<string, string> = {
  ا: 'a', أ: 'a', إ: 'i', آ: 'a', ٱ: 'a', ء: '', ؤ: 'u', ئ: 'i', ب: 'b', ت: 't', ث: 'th', ج: 'j', ح: 'h',
  خ: 'kh', د: 'd', ذ: 'dh', ر: 'r', ز: 'z', س: 's', ش: 'sh', ص: 's', ض: 'd', ط: 't', ظ: 'z', ع: '',
  غ: 'gh', ف: 'f', ق: 'q', ك: 'k', ل: 'l', م: 'm', ن: 'n', ه: 'h', و: 'w', ي: 'y', ى: 'a', ة: 't',
  پ: 'p', چ: 'ch', ژ: 'zh', گ: 'g', ک: 'k', ی: 'y', ں: 'n', ے: 'e', ٹ: 't', ڈ: 'd', ڑ: 'r', ھ: 'h',
};

const HEBREW: Record<string, string> = {
  א: '', ב: 'b', ג: 'g', ד: 'd', ה: 'h', ו: 'v', ז: 'z', ח: 'ch', ט: 't', י: 'y', כ: 'k', ך: 'k', ל: 'l',
  מ: 'm', ם: 'm', נ: 'n', ן: 'n', ס: 's', ע: '', פ: 'p', ף: 'f', צ: 'ts', ץ: 'ts', ק: 'k', ר: 'r', ש: 'sh', ת: 't',
};

/** Scripts written without vowels: their romanizations compare on consonant skeletons. */
export const ABJAD_RE = /[\u0590-\u05ff\u0600-\u06ff\u0750-\u077f\ufb50-\ufdff\ufe70-\ufeff]/u;
/** Scripts written without spaces between words: titles compare as whole strings too. */
export const UNSPACED_RE = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u0e00-\u0e7f]/u;
export const NON_LATIN_RE = /[\u0370-\u03ff\u0400-\u04ff\u0590-\u06ff\u0750-\u077f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\ufb50-\ufdff\ufe70-\ufeff]/u;

/** Hiragana (with long-vowel marks) and katakana runs apart: particles are words of their own, and katakana words are loanwords. */
const KANA_RUN_RE = /[\u3041-\u309f][\u3041-\u309f\u30fc]*|[\u30a1-\u30fa\u30fc-\u30ff]+/gu;
const KATAKANA_RUN_RE = /[\u30a1-\u30fa][\u30a1-\u30fa\u30fc-\u30ff]*/gu;

/** Kana and Hangul, on NFKC text (their voicing marks must still be composed). */
export function romanizeSyllabaries(text: string): string {
  return text
    .replace(KANA_RUN_RE, (run) => ` ${romanizeKana(run)} `)
    .replace(/[\uac00-\ud7a3]+/gu, (run) => romanizeHangul(run))
    .replace(/ {2,}/gu, ' ');
}

/** The romanized katakana words of a text (NFKC): the words that may be loanwords. */
export function katakanaWords(text: string): string[] {
  return [...text.matchAll(KATAKANA_RUN_RE)].map((m) => romanizeKana(m[0])).filter(Boolean);
}

/** Cyrillic, Greek, Arabic and Hebrew letters, on lower-case text with marks already removed. */
export function romanizeAlphabets(text: string): string {
  let out = text;
  if (/[\u0370-\u03ff]/u.test(out)) for (const [from, to] of GREEK_DIGRAPHS) out = out.replaceAll(from, to);
  // The Arabic article is written joined to its word; Latin renderings write "al-" apart.
  out = out.replace(/(^|\s)ال(?=[\u0600-\u06ff])/gu, '$1al ');
  let result = '';
  for (const ch of out) result += CYRILLIC[ch] ?? GREEK[ch] ?? ARABIC[ch] ?? HEBREW[ch] ?? ch;
  return result;
}

export { isKana };
