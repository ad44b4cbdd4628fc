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

/** Revised Romanization of Hangul syllables, without the sound-change rules between syllables. */
function romanizeHangul(run: string): string {
  let out = '';
  for (const ch of run) {
    const code = (ch.codePointAt(0) ?? 0) - 0xac00;
    if (code < 0 || code > 11171) continue;
    const l = Math.floor(code / 588);
    const v = Math.floor((code % 588) / 28);
    const t = code % 28;
    out += (HANGUL_L[l] ?? '') + (HANGUL_V[v] ?? '') + (HANGUL_T[t] ?? '');
  }
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

/** Kana and Hangul, on NFKC text (their voicing marks must still be composed). */
export function romanizeSyllabaries(text: string): string {
  return text
    .replace(/[\u3041-\u309f\u30a1-\u30ff]+/gu, (run) => ` ${romanizeKana(run)} `)
    .replace(/[\uac00-\ud7a3]+/gu, (run) => romanizeHangul(run))
    .replace(/ {2,}/gu, ' ');
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
